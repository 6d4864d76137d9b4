// This round's secret vote on the table: who calls it, who has voted (never for whom), and
// hidden entry for a player without a phone — the tablet is passed, the screen blanks for
// the others, the vote is sealed, the screen blanks again.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { render } from '../../context.js';
import { choices, may } from '../../allowed.js';
import { command } from '../game/actions.js';
import { suspectName } from './rounds.js';
import { cover, passTo, sealed } from '../game/hidden.js';

/** The hidden entry open now: null, or { player, step: 'pass' | 'enter' | 'sealed', suspect }. */
let entry = null;
/** Whether the caller is being chosen. */
let calling = false;

const go = (next) => { entry = next; render(); };

/** The six suspects to name, and the button that seals the choice. */
export function suspectChoice(chosen, pick, seal, id) {
  return [
    h('div', { class: 'suspects', role: 'group', 'aria-label': t('rummy.suspects') },
      [0, 1, 2, 3, 4, 5].map((s) => h('button', {
        type: 'button', class: 'suspect', 'data-suspect': s, 'aria-pressed': String(chosen === s), onclick: () => pick(s),
      }, suspectName(s)))),
    h('button', { id, type: 'button', class: 'primary big', disabled: chosen == null, onclick: () => seal(chosen) },
      chosen == null ? t('rummy.pick_suspect') : t('rummy.seal_vote', { name: suspectName(chosen) })),
  ];
}

export function votePanel(view) {
  if (!view.vote) {
    const callers = choices('call_vote', 'players');
    return h('div', { id: 'vote', class: 'vote-panel' },
      !callers.length ? null : calling
        ? [h('p', {}, t('rummy.who_calls')),
          h('div', { class: 'row wrap' }, callers.map((p) => h('button', {
            type: 'button', 'data-caller': p,
            onclick: async () => { calling = false; await command('call_vote', { by: p }); },
          }, view.players[p])),
          h('button', { type: 'button', class: 'quiet', onclick: () => { calling = false; render(); } }, t('hidden.cancel')))]
        : h('button', { id: 'call-vote', type: 'button', onclick: () => { calling = true; render(); } }, t('rummy.call_vote')),
      h('p', { class: 'note' }, t('rummy.vote_rule')));
  }
  return h('div', { id: 'vote', class: 'vote-panel', 'data-called': view.vote.by },
    h('p', { class: 'lead' }, t('rummy.vote_called', { name: view.players[view.vote.by] })),
    h('ul', { class: 'voters' }, view.players.map((name, p) => h('li', { 'data-voter': p, 'data-voted': String(view.vote.voted[p]) },
      h('span', { class: 'name' }, name),
      view.vote.voted[p]
        ? h('span', { class: 'sealed' }, t('vote.sealed_short'))
        : may('vote', { player: p })
          ? h('button', { type: 'button', 'data-vote-here': p, onclick: () => go({ player: p, step: 'pass', suspect: null }) },
            t('rummy.vote_here'))
          : h('span', { class: 'on-phone' }, t('vote.on_phone', { name }))))),
    h('p', { class: 'note' }, t('rummy.votes_revealed')));
}

/** The hidden entry over the whole screen, or null. */
export function voteEntry(view) {
  if (!entry) return null;
  const name = view.players[entry.player];
  const close = () => go(null);
  if (entry.step === 'sealed') return cover(t('hidden.vote'), sealed(close));
  const body = entry.step === 'pass'
    ? passTo(name, () => go({ ...entry, step: 'enter' }))
    : [h('h2', {}, t('rummy.your_vote', { name })),
      suspectChoice(entry.suspect, (suspect) => go({ ...entry, suspect }), async (suspect) => {
        if (await command('vote', { player: entry.player, suspect })) go({ player: entry.player, step: 'sealed', suspect: null });
      }, 'hidden-seal')];
  return cover(t('hidden.vote'), body, close);
}
