// The numbers printed on the cards, as the players check them: each suspect's suspicion
// number and the points of their Evidence and Suspect cards, and a Joker's points. Those the rulebook's text does
// not confirm are marked, for the players to compare with their own cards.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { suspectName, suspectsField } from './rounds.js';

export function printedForm(ctx, close) {
  const view = ctx.view;
  const printed = view.printed;
  const field = (key, s, known, max) => h('td', { class: known.confirmed ? '' : 'unconfirmed' },
    h('input', {
      id: `printed-${key}-${s}`, type: 'number', min: 1, max, inputmode: 'numeric', value: printed[key][s],
      'aria-label': suspectsField(s, `rummy.printed_${key}`),
    }),
    known.confirmed ? null : h('span', { class: 'mark', title: t('rummy.unconfirmed') }, '?'));
  // The numbers as they are on screen when saved.
  const typed = () => {
    const read = (id) => Number(document.getElementById(id).value) || 0;
    const column = (key) => printed[key].map((_, s) => read(`printed-${key}-${s}`));
    return { ...printed, suspicion: column('suspicion'), evidence: column('evidence'), suspect_card: column('suspect_card'), joker: read('printed-joker') };
  };
  return h('section', { id: 'printed-form', class: 'panel wide' },
    h('h1', {}, t('rummy.printed')),
    h('p', {}, t('rummy.printed_hint')),
    h('table', { class: 'printed' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), ['suspicion', 'evidence', 'suspect_card'].map((k) => h('th', { scope: 'col' }, t(`rummy.printed_${k}`))))),
      h('tbody', {}, view.suspects.map((suspect, s) => h('tr', {},
        h('th', { scope: 'row' }, suspectName(s)),
        field('suspicion', s, suspect.suspicion, 6),
        field('evidence', s, suspect.evidence, view.limits.points),
        field('suspect_card', s, suspect.suspect_card, view.limits.points))))),
    h('table', { class: 'printed' }, h('tbody', {}, h('tr', {},
      h('th', { scope: 'row' }, t('rummy.printed_joker')),
      h('td', { class: view.joker.confirmed ? '' : 'unconfirmed' },
        h('input', {
          id: 'printed-joker', type: 'number', min: 1, max: 20, inputmode: 'numeric', value: printed.joker,
          'aria-label': t('rummy.printed_joker'),
        }),
        view.joker.confirmed ? null : h('span', { class: 'mark', title: t('rummy.unconfirmed') }, '?'))))),
    h('p', { class: 'note' }, t('rummy.printed_fixed', { letter: view.letter, escapes: view.ripper_escapes })),
    h('p', { class: 'note' }, h('span', { class: 'mark' }, '?'), ' ', t('rummy.unconfirmed')),
    h('div', { class: 'row' },
      h('button', { id: 'printed-save', type: 'button', class: 'primary', onclick: async () => { if (await ctx.act('set_printed', { printed: typed() }) !== null) close(); } }, t('rummy.save')),
      h('button', { type: 'button', onclick: close }, t('hidden.cancel'))));
}
