// Joining from a phone: the games in play at this table, then a seat in one (each rule set
// draws its own seat picker) or the table's invitation to one. The seat's token stays on
// the phone, which comes back to it after a reload, a sleep or a lost connection.

import { h, live, toast } from '../dom.js';
import { t } from '../i18n.js';
import { api, gamePath, keepSeat } from '../api.js';
import { pattern } from '../ask.js';
import { topBar } from './chrome.js';
import { byKey, gameName, pageOf, ruleSet } from '../rule_sets.js';


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

/** Takes `seat` of game `id` of the rule set under `kind` (its key), with the table's
 * `invitation` where the seat takes one, and opens this phone's screen of it; or says why
 * not, and draws the seats again. */
export async function sit(ctx, kind, id, seat, invitation = undefined) {
  try {
    const { token } = await api(gamePath(kind, id, 'seats'), { method: 'POST', body: { seat, invitation } });
    keepSeat(id, { seat, token });
    // In place of the seat picker or the invitation: Back does not come to a spent one.
    location.replace(pageOf(byKey(kind).name, 'phone', id));
  } catch (error) {
    toast(error.message);
    ctx.render();
  }
}

/** The address of the table's invitation to a seat of a game of rule set `name`, as the
 * server makes the link the invitation's QR code carries: its seat picker's page, then the
 * seat and the invitation (`#/join/3/ghost/9f…`). */
export const invitedAt = (name) => pattern(ruleSet(name).pages.join, '/([^/]+)/([0-9a-f]+)');

/** The invitation the phone came with, taken once. */
let invited = null;

/** Takes the seat of a game of rule set `name` the table's invitation is for. The
 * invitation leaves the address bar and the history at once: taken, the phone's screen of
 * the seat replaces it; refused (spent, replaced), the game's seats say why. */
export function renderInvited(ctx, name) {
  const [, id, seat, invitation] = location.hash.match(invitedAt(name));
  if (invited !== invitation) {
    invited = invitation;
    history.replaceState(null, '', `${location.pathname}${location.search}${pageOf(name, 'join', id)}`);
    sit(ctx, ruleSet(name).key, Number(id), decodeURIComponent(seat), invitation);
  }
  return h('div', { id: 'invited', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel' }, h('p', { class: 'note' }, t('join.taking'))));
}
