// A phone's pick of a seat at a Mysterium game: the ghost's or a psychic's (a seat the
// table gives by invitation only says so), or just watching the table. The app imports it
// at once, unlike Mysterium's other screens: a phone joining from its link draws it first.

import { h } from '../../dom.js';
import { ghostSeat, nameOf, t } from '../../i18n.js';
import { givenBack, mySeat } from '../../api.js';
import { sit } from '../join.js';
import { notYet, topBar } from '../chrome.js';
import { MYSTERIUM, pageOf, ruleSet } from '../../rule_sets.js';

/** The seats of game `id`: free ones can be taken; taken ones say so. */
export function renderMysteriumSeats(ctx) {
  const { snapshot, game: { id } } = ctx;
  const held = mySeat(id);
  if (held) {
    queueMicrotask(() => { location.hash = pageOf(MYSTERIUM, 'phone', id); });
  }
  const top = topBar(ctx);
  const waiting = notYet(ctx, 'seats', top);
  if (waiting) return waiting;
  const view = snapshot.view;
  const taken = new Set(snapshot.seats);
  // Seats the table gives by invitation only (the ghost's): its player scans the code the
  // table shows them alone.
  const byInvitation = new Set(snapshot.by_invitation ?? []);
  const seatButton = (seat, label, colour) => h('button', {
    type: 'button', class: 'seat', 'data-seat': seat, dataset: colour ? { colour } : {},
    disabled: taken.has(seat) || byInvitation.has(seat), onclick: () => sit(ctx, ruleSet(MYSTERIUM).key, id, seat),
  }, h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: colour ? { colour } : {} }), label,
  taken.has(seat) ? h('span', { class: 'taken' }, t('join.taken'))
    : byInvitation.has(seat) ? h('span', { class: 'taken' }, t('join.by_invitation')) : null);
  return h('div', { id: 'seats', class: 'screen' },
    top,
    h('section', { class: 'panel' },
      givenBack(id) ? h('p', { id: 'given-back', class: 'banner', role: 'status' }, t('join.given_back')) : null,
      h('h1', {}, t('join.pick_seat')),
      h('div', { class: 'seat-list' },
        seatButton('ghost', ghostSeat(view.ghost), null),
        view.psychics.map((p, i) => seatButton(`psychic:${i}`, nameOf(p), p.colour))),
      [...byInvitation].some((seat) => !taken.has(seat)) ? h('p', { id: 'invitation-hint', class: 'note' }, t('join.invitation_hint')) : null,
      h('a', { id: 'watch', class: 'button', href: pageOf(MYSTERIUM, 'game', id) }, t('join.watch')),
      h('p', { class: 'note' }, t('join.seat_hint'))));
}
