// The scorepad itself: the rounds and running totals, and how a round was scored — who is
// Jack and why, each player's lines, the votes revealed — in plain words.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** The round whose details are open (null: the last one). */
let chosen = null;

/** The round shown in detail: the one tapped, else the last. */
const shown = (view) => Math.min(chosen ?? Infinity, view.rounds.length - 1);

/** Shows round `r` in detail from now on (null: always the last). */
export function showRound(r) {
  chosen = r;
}

/** Whether a round was tapped to be shown in detail. */
export const roundChosen = () => chosen !== null;

export const suspectName = (s) => t(`suspect.${s}`);

/** A field of suspect `s`'s, for screen readers: "Sir Gull: Evidence" (`key`'s words). */
export const suspectsField = (s, key) => t('said.pair', { label: suspectName(s), value: t(key) });

/** The rounds, one row each, with the running totals; a row opens its details. On a
 * player's phone, their own column comes first. */
export function scoreboard(ctx) {
  const view = ctx.view;
  const leader = Math.max(...view.totals);
  const me = ctx.me?.player ?? null;
  const order = view.players.map((_, p) => p).sort((a, b) => (b === me) - (a === me));
  return h('section', { id: 'scoreboard', class: 'panel' },
    h('table', { class: 'scores' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('rummy.round_short')),
        order.map((p) => h('th', { scope: 'col', class: p === me ? 'mine' : '', dataset: { player: p } }, view.players[p])))),
      h('tbody', {}, view.rounds.map((round, r) => h('tr', {
        class: shown(view) === r ? 'open' : '', 'data-round': r,
      },
      h('th', { scope: 'row' }, h('button', {
        type: 'button', class: 'quiet', onclick: () => { chosen = r; ctx.render(); },
        'aria-label': t('rummy.round', { n: r + 1 }),
      }, String(r + 1))),
      order.map((p) => h('td', {}, signed(round.scored.players[p].points)))))),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, t('rummy.total')),
        order.map((p) => h('td', {
          class: `total${view.totals[p] === leader && view.rounds.length ? ' leads' : ''}`, 'data-total': p,
        }, String(view.totals[p])))))),
    h('p', { class: 'note' }, t('rummy.target')));
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function step(s) {
  switch (s.step) {
    case 'totals':
      return s.points.length
        ? t('rummy.step_totals', { list: s.points.map(([who, n]) => `${suspectName(who)} ${n}`).join(', ') })
        : t('rummy.step_no_points');
    case 'alibi': return t('rummy.step_alibi', { name: suspectName(s.suspect) });
    case 'tie': return t('rummy.step_tie', { list: s.suspects.map(suspectName).join(', ') });
    case 'jack': return t('rummy.step_jack', { name: suspectName(s.suspect), n: s.points });
    case 'escaped': return t('rummy.step_escaped');
    default: return t('rummy.step_no_suspect');
  }
}

function line(l) {
  const words = {
    suspect: () => t(l.doubled ? 'rummy.line_suspect_doubled' : 'rummy.line_suspect', { name: suspectName(l.suspect) }),
    letters: () => t('rummy.line_letters'),
    alibi: () => t('rummy.line_alibi', { name: suspectName(l.suspect) }),
    victims_and_scenes: () => t('rummy.line_victims_and_scenes'),
    hand: () => t('rummy.line_hand'),
    ripper_escapes_held: () => t('rummy.line_ripper_escapes_held', { n: l.victims }),
    vote: () => t(l.points ? 'rummy.line_vote_right' : 'rummy.line_vote_wrong', { name: suspectName(l.suspect) }),
    ripper_escapes: () => t('rummy.line_ripper_escapes'),
  }[l.line];
  return h('li', { dataset: { line: l.line } }, h('span', {}, words()), h('span', { class: 'points' }, signed(l.points)));
}

/** How the round shown was scored; `correct(r)` opens it for correction (on the table). */
export function roundDetails(view, { correct = null } = {}) {
  const index = shown(view);
  const round = view.rounds[index];
  const ending = round.tally.ending;
  return h('section', { id: 'round-details', class: 'panel', 'data-round': index },
    h('h2', {}, t('rummy.round_scored', { n: index + 1 })),
    h('p', { class: 'ending' }, t(`ending.${ending.how}`, { name: view.players[ending.by] ?? '' })),
    h('ol', { id: 'jack-steps', class: 'steps' }, round.scored.verdict.steps.map((s) => h('li', { dataset: { step: s.step } }, step(s)))),
    h('p', { id: 'jack', class: 'lead' }, round.scored.escaped
      ? t('rummy.escaped')
      : t('rummy.jack_is', { name: suspectName(round.scored.verdict.jack) })),
    h('div', { class: 'round-players' }, round.scored.players.map((score, p) => h('div', { class: 'round-player', 'data-player': p },
      h('h3', {}, view.players[p], ' ', h('span', { class: 'points' }, signed(score.points))),
      h('ul', { class: 'lines' }, score.lines.map(line))))),
    correct ? h('button', { id: 'correct-round', type: 'button', onclick: () => correct(index) }, t('rummy.correct', { n: index + 1 })) : null);
}
