// A game's bar, as every rule set's table screen has it: the table's own buttons (the
// Phones panel, undo and redo), a watcher's word, and the place under it where the
// reconnect banner and a phone's toast come over the page.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** The table's own buttons in the bar: the Phones panel (`phones` opens it), undo and redo. */
export function tableControls(ctx, phones) {
  return [
    h('button', { id: 'phones', type: 'button', onclick: phones }, t('game.phones')),
    // On a tablet held sideways the arrow alone says it (its words, to those who hear them).
    h('button', {
      id: 'undo', type: 'button', disabled: !ctx.snapshot.can_undo, onclick: () => ctx.rewind('undo'), 'aria-label': t('game.undo'), title: t('game.undo'),
    }, '↶', h('span', { class: 'undo-words' }, t('game.undo'))),
    h('button', { id: 'redo', type: 'button', disabled: !ctx.snapshot.can_redo, onclick: () => ctx.rewind('redo'), 'aria-label': t('game.redo') }, '↷'),
  ];
}

/** A game's bar, with under it the place where the reconnect banner (and, on a phone, the
 * toast) come over the page (see showScreen in app.js). */
export function barTop(bar) {
  return h('div', { class: 'game-top' }, bar, h('div', { class: 'notices' }));
}

/** Said in the bar of a device that only watches the table. */
export function watching() {
  return h('span', { id: 'watching', class: 'watching' }, t('game.watching'));
}

/** Whether a phone holds `seat` (`ghost`, `psychic:N`, `player:N`) in the game on screen. */
export function seated(ctx, seat) {
  return (ctx.snapshot.seats ?? []).includes(seat);
}
