// A Mystery Rummy player's phone: their secret vote (sealed once cast, revealed only with
// the round's scores), calling the vote on their turn, the totals and how the last round
// was scored. Joining: a phone picks its player's seat, or just watches the table.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { givenBack, mySeat } from '../../api.js';
import { pickAnotherSeat } from '../../act.js';
import { toBgStats } from '../shared/ending.js';
import { sit } from '../join.js';
import { notYet, topBar, unreadable } from '../chrome.js';
import { phoneBar } from '../phone_bar.js';
import { roundDetails, scoreboard, suspectName } from './rounds.js';
import { suspectChoice } from './vote.js';
import { lastChange } from '../../log.js';
import { MYSTERY_RUMMY, pageOf, ruleSet } from '../../rule_sets.js';

/** The suspect picked but not yet sealed. */
let picked = null;

export function renderRummySeats(ctx) {
  const { id } = ctx.game;
  if (mySeat(id)) queueMicrotask(() => { location.hash = pageOf(MYSTERY_RUMMY, 'phone', id); });
  const snapshot = ctx.snapshot;
  const top = topBar(ctx);
  const waiting = notYet(ctx, 'seats', top);
  if (waiting) return waiting;
  const taken = new Set(snapshot.seats);
  return h('div', { id: 'seats', class: 'screen' },
    top,
    h('section', { class: 'panel' },
      givenBack(id) ? h('p', { id: 'given-back', class: 'banner', role: 'status' }, t('join.given_back')) : null,
      h('h1', {}, t('join.pick_seat')),
      h('div', { class: 'seat-list' }, snapshot.view.players.map((name, p) => h('button', {
        type: 'button', class: 'seat', 'data-seat': `player:${p}`, disabled: taken.has(`player:${p}`),
        onclick: () => sit(ctx, ruleSet(MYSTERY_RUMMY).key, id, `player:${p}`),
      }, name, taken.has(`player:${p}`) ? h('span', { class: 'taken' }, t('join.taken')) : null))),
      h('a', { id: 'watch', class: 'button', href: pageOf(MYSTERY_RUMMY, 'game', id) }, t('join.watch')),
      h('p', { class: 'note' }, t('rummy.seat_hint'))));
}

function vote(ctx) {
  const view = ctx.view;
  const me = ctx.me.player;
  if (view.winner !== null) return null;
  if (!view.vote) {
    if (!ctx.choices('call_vote', 'players').includes(me)) return null;
    return h('section', { id: 'phone-vote', class: 'panel' },
      h('button', { id: 'phone-call-vote', type: 'button', onclick: () => ctx.act('call_vote', { by: me }) }, t('rummy.i_call_vote')),
      h('p', { class: 'note' }, t('rummy.vote_rule')));
  }
  if (view.vote.mine !== null) {
    return h('section', { id: 'phone-vote', class: 'panel', 'data-sealed': 'true' },
      h('p', { class: 'lead' }, t('rummy.my_vote_sealed', { name: suspectName(view.vote.mine) })),
      h('p', { class: 'note' }, t('rummy.votes_revealed')));
  }
  if (!ctx.may('vote', { player: me })) return null;
  return h('section', { id: 'phone-vote', class: 'panel' },
    h('h2', {}, t('rummy.vote_called', { name: view.players[view.vote.by] })),
    suspectChoice(view, picked, (s) => { picked = s; ctx.render(); }, async (suspect) => {
      if (await ctx.act('vote', { player: me, suspect }) !== null) picked = null;
    }, 'phone-seal'));
}

export function renderRummyPhone(ctx) {
  const { game } = ctx;
  if (game.refused) return unreadable(ctx);
  // No seat held here (given back, then reloaded): the seats to choose from.
  if (!game.seat) {
    queueMicrotask(() => pickAnotherSeat(game));
    return h('div', { id: 'phone', class: 'screen' });
  }
  const waiting = notYet(ctx, 'phone', topBar(ctx));
  if (waiting) return waiting;
  const { snapshot, view } = ctx;
  if (ctx.me === null) {
    queueMicrotask(() => { location.hash = pageOf(MYSTERY_RUMMY, 'join', game.id); });
    return h('div', { id: 'phone', class: 'screen' }, topBar(ctx));
  }
  return h('div', {
    id: 'phone', class: 'screen phone rummy', 'data-version': snapshot.version, 'data-awake': String(view.winner === null),
  },
    phoneBar(ctx, { who: view.players[ctx.me.player] }),
    lastChange(snapshot),
    h('section', { class: 'panel' },
      view.winner !== null
        ? [h('p', { class: 'lead' }, t('rummy.winner', { name: view.players[view.winner], n: view.totals[view.winner] })), toBgStats(ctx)]
        : [
          h('p', {}, t('rummy.round', { n: view.round }), ' · ', t('rummy.dealer', { name: view.players[view.dealer], n: view.deal })),
          view.dealt === 'passed' ? h('p', { id: 'phone-deal-convention', class: 'note' }, t('rummy.deal_convention')) : null,
        ]),
    vote(ctx),
    scoreboard(ctx),
    view.rounds.length ? roundDetails(view) : null);
}
