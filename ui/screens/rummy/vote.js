// This round's secret vote on the table: who calls it, who has voted (never for whom), and
// entry for the players without a phone on the passed tablet. Nothing secret is on screen
// before a vote nor once it is sealed, so the tablet goes from voter to voter by itself,
// each picking and sealing, as Mysterium's does.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { suspectName } from './rounds.js';
import { cover, nextAround } from '../shared/hidden.js';

/** The entry open now: null, or { player, suspect } (the suspect picked, not yet sealed). */
let entry = null;
/** Whether the caller is being chosen. */
let calling = false;

const go = (ctx, next) => { entry = next; ctx.render(); };

/** The tablet goes on to whoever may vote next after `after` (from the first when null),
 * or back to the scorepad when nobody is left: asked of the context as things are now (after
 * the answer that drew the screen again). */
function passOn(ctx, after) {
  const now = ctx.now();
  const next = nextAround(now.view.players.map((_, p) => p).filter((p) => now.may('vote', { player: p })), after);
  go(now, next === null ? null : { player: next, suspect: null });
}

/** The suspects to name (the view's), and the button that seals the choice. */
export function suspectChoice(view, chosen, pick, seal, id) {
  return [
    h('div', { class: 'suspects', role: 'group', 'aria-label': t('rummy.suspects') },
      view.suspects.map((_, s) => h('button', {
        type: 'button', class: 'suspect', 'data-suspect': s, 'aria-pressed': String(chosen === s), onclick: () => pick(s),
      }, suspectName(s)))),
    h('button', { id, type: 'button', class: 'primary big', disabled: chosen == null, onclick: () => seal(chosen) },
      chosen == null ? t('rummy.pick_suspect') : t('rummy.seal_vote', { name: suspectName(chosen) })),
  ];
}

export function votePanel(ctx) {
  const view = ctx.view;
  if (!view.vote) {
    const callers = ctx.choices('call_vote', 'players');
    return h('div', { id: 'vote', class: 'vote-panel' },
      !callers.length ? null : calling
        ? [h('p', {}, t('rummy.who_calls')),
          h('div', { class: 'row wrap' }, callers.map((p) => h('button', {
            type: 'button', 'data-caller': p,
            onclick: async () => {
              calling = false;
              // Called on the table: its voters vote at once, the tablet passed round.
              if (await ctx.act('call_vote', { by: p }) !== null) passOn(ctx, null);
            },
          }, view.players[p])),
          h('button', { type: 'button', class: 'quiet', onclick: () => { calling = false; ctx.render(); } }, t('hidden.cancel')))]
        : h('button', { id: 'call-vote', type: 'button', onclick: () => { calling = true; ctx.render(); } }, t('rummy.call_vote')),
      h('p', { class: 'note' }, t('rummy.vote_rule')));
  }
  return h('div', { id: 'vote', class: 'vote-panel', 'data-called': view.vote.by },
    h('p', { class: 'lead' }, t('rummy.vote_called', { name: view.players[view.vote.by] })),
    h('ul', { class: 'voters' }, view.players.map((name, p) => h('li', { 'data-voter': p, 'data-voted': String(view.vote.voted[p]) },
      h('span', { class: 'name' }, name),
      view.vote.voted[p]
        ? h('span', { class: 'sealed' }, t('vote.sealed_short'))
        : ctx.may('vote', { player: p })
          ? h('button', { type: 'button', 'data-vote-here': p, onclick: () => go(ctx, { player: p, suspect: null }) },
            t('rummy.vote_here'))
          : h('span', { class: 'on-phone' }, t('vote.on_phone', { name }))))),
    h('p', { class: 'note' }, t('rummy.votes_revealed')));
}

/** The entry over the whole screen, or null: the voter picks and seals, and the tablet
 * goes on to the next voter, or back to the scorepad after the last. */
export function voteEntry(ctx) {
  if (!entry) return null;
  const view = ctx.view;
  const { player } = entry;
  const body = [
    h('h2', {}, t('rummy.your_vote', { name: view.players[player] })),
    h('p', {}, t('hidden.look_away')),
    suspectChoice(view, entry.suspect, (suspect) => go(ctx, { player, suspect }), async (suspect) => {
      if (await ctx.act('vote', { player, suspect }) !== null) passOn(ctx, player);
    }, 'hidden-seal'),
  ];
  return cover(t('hidden.vote'), body, () => go(ctx, null));
}
