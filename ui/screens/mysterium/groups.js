// The line-up's groups as buttons to choose from, and the choose-then-seal pair used for
// the culprit and for a secret vote (on the passed tablet and on phones alike).

import { h } from '../../dom.js';
import { nameOf } from '../../i18n.js';

/** Whose a group is, where the view says (the rules say where it is shown). */
export function traceOf(view, group) {
  return group.psychic !== null ? view.psychics[group.psychic] : null;
}

/** Each group as a button (`attr` names it for tests); the chosen one is pressed. */
export function groupPicker(view, chosen, onpick, attr = 'data-group') {
  return h('div', { class: 'group-picker' }, view.groups.map((g) => {
    const medium = traceOf(view, g);
    return h('button', {
      type: 'button', class: 'group', [attr]: g.number, 'aria-pressed': String(chosen === g.number),
      dataset: medium ? { colour: medium.colour } : {}, onclick: () => onpick(g.number),
    }, h('span', { class: 'number' }, g.number),
    medium ? h('span', { class: 'whose' }, nameOf(medium)) : null,
    h('span', { class: 'cards' }, g.cards.join(' · ')));
  }));
}

/** A group to tap, then a button that seals it: `label(chosen)` says what it will do. */
export function sealedChoice(view, { id, chosen, onpick, seal, label, attr }) {
  return [
    groupPicker(view, chosen, onpick, attr),
    h('button', {
      id, type: 'button', class: 'primary big', disabled: chosen == null, onclick: () => seal(chosen),
    }, label(chosen)),
  ];
}
