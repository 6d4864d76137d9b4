// Joining from a phone: the games in play at this table, then a seat — the ghost, a
// psychic, or just watching. The seat's token stays on the phone, which comes back to it
// after a reload, a sleep or a lost connection.

import { h, live, toast } from '../dom.js';
import { ghostSeat, nameOf, t } from '../i18n.js';
import { api, givenBack, keepSeat, mySeat } from '../api.js';
import { notYet, topBar } from './chrome.js';
import { MYSTERIUM, byKey, gameName, pageOf } from '../rule_sets.js';


export function renderJoin(ctx) {
  // Filled once the games are fetched (on the page by then: `live`), and left so by a patch.
  const list = h('ul', { id: 'join-list', class: 'game-list', 'data-own': true }, h('li', { class: 'note' }, '…'));
  api('/games?state=playing').then((playing) => {
    live(list).replaceChildren(...(playing.length
      ? playing.map((g) => h('li', {}, h('a', { class: 'game-link', href: pageOf(g.ruleset, 'join', g.id), 'data-status': g.status },
        h('span', { class: 'who' }, g.players.join(' · ')),
        h('span', { class: 'ruleset' }, gameName(g)))))
      : [h('li', { class: 'note' }, t('join.none'))]));
  }, (error) => toast(error.message));
  return h('div', { id: 'join', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel' },
      h('h1', {}, t('join.pick_game')),
      list,
      h('a', { class: 'button', href: '#' }, t('settings.back'))));
}

/** Takes `seat` of game `id` (of `kind` games or rummy), with the table's `invitation`
 * where the seat takes one, and opens this phone's screen of it; or says why not, and draws
 * the seats again. */
export async function sit(ctx, id, seat, kind = 'games', invitation = undefined) {
  try {
    const { token } = await api(`/${kind}/${id}/seats`, { method: 'POST', body: { seat, invitation } });
    keepSeat(id, { seat, token });
    // In place of the seat picker or the invitation: Back does not come to a spent one.
    location.replace(pageOf(byKey(kind).name, 'phone', id));
  } catch (error) {
    toast(error.message);
    ctx.render();
  }
}

/** The invitation the phone came with (`#/join/ID/SEAT/INVITATION`, the table's QR code
 * for a seat taken only that way), taken once. */
let invited = null;

/** Takes the seat the table's invitation is for. The invitation leaves the address bar and
 * the history at once: taken, the phone's screen of the seat replaces it; refused (spent,
 * replaced), the game's seats say why. */
export function renderInvited(ctx) {
  const [, id, seat, invitation] = location.hash.match(/^#\/join\/(\d+)\/([^/]+)\/([0-9a-f]+)$/);
  if (invited !== invitation) {
    invited = invitation;
    history.replaceState(null, '', `${location.pathname}${location.search}${pageOf(MYSTERIUM, 'join', id)}`);
    sit(ctx, Number(id), decodeURIComponent(seat), 'games', invitation);
  }
  return h('div', { id: 'invited', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel' }, h('p', { class: 'note' }, t('join.taking'))));
}

/** The seats of game `id`: free ones can be taken; taken ones say so. */
export function renderSeats(ctx) {
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
    disabled: taken.has(seat) || byInvitation.has(seat), onclick: () => sit(ctx, id, seat),
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
