// The end of a round, entered as the players read their cards: how it ended, the Alibi in
// play (whose, in front of whom, its points), the Victims in play, and per player the
// Evidence and Jokers counted on each suspect, Suspect cards (in front of them or in hand),
// Letters, Victims and Scenes, what is left in hand. The rules check it against the deck and score it; a past round
// opens here again to be corrected.

import { h, live } from '../../dom.js';
import { t } from '../../i18n.js';
import { showRound, suspectName, suspectsField } from './rounds.js';

/** The kinds of ending the view offers (`how`), each once, in its order. */
const hows = (view) => [...new Set(view.endings.map((e) => e.how))];

/** The players who may have ended the round in the chosen way, for an ending that names one. */
const enders = (view) => view.endings.filter((e) => e.how === draft.ending && e.by !== undefined).map((e) => e.by);

/** The round being entered: null, or { round (null: the round in play), ending, by, alibi,
 * holder, points (the Alibi in play: whose, in front of whom, its points; holder and points
 * null until told), victims, players, who, recount (Jokers journaled as points that the
 * card numbers do not divide: to count again) }. */
let draft = null;

/** A player's cards with nothing counted yet, for the view's suspects. */
const blank = (view) => {
  const none = (what) => view.suspects.map(() => what);
  return {
    evidence: none(0), joker_cards: none(0), suspect_cards: none(false), suspect_cards_in_hand: none(false),
    letters: 0, alibi: 0, victims_and_scenes: 0, hand: 0, holds_ripper_escapes: false,
  };
};

/** Opens the form for the round in play (`round` null) or for correcting round `round`. */
export function openTally(ctx, round) {
  const view = ctx.view;
  if (round !== null) {
    // The round as the rules open it again: Jokers in cards, and whether some must be
    // counted again.
    const { tally: past, recount, alibi_holder: holder } = view.rounds[round].correcting;
    const players = past.players.map((p) => ({ ...blank(view), ...structuredClone(p) }));
    draft = { round, ending: past.ending.how, by: past.ending.by ?? 0, alibi: past.alibi, holder,
      points: holder === null ? null : players[holder].alibi, victims: past.victims_in_play, players, who: 0, recount };
  } else {
    draft = { round: null, ending: view.endings[0].how, by: 0, alibi: null, holder: null, points: null, victims: 0,
      players: view.players.map(() => blank(view)), who: 0, recount: false };
  }
  ctx.render();
}

function segmented(ctx, id, legend, options, current, pick) {
  return h('fieldset', { class: 'choice', id },
    h('legend', {}, legend),
    h('div', { class: 'segmented wrap' }, options.map(([value, text]) => h('button', {
      type: 'button', 'data-value': String(value), 'aria-pressed': String(value === current),
      onclick: () => { pick(value); ctx.render(); },
    }, text))));
}

/** − [n] +, changing `get()`/`set()` in place without drawing the form again. */
function stepper(id, label, get, set, max) {
  const input = h('input', {
    id, type: 'number', min: 0, max, inputmode: 'numeric', value: get(), 'aria-label': label,
    oninput: (e) => set(Math.max(0, Math.min(max, Number(e.target.value) || 0))),
  });
  const bump = (by) => () => { set(Math.max(0, Math.min(max, get() + by))); live(input).value = get(); };
  return h('span', { class: 'stepper' },
    h('button', { type: 'button', class: 'step', 'aria-label': `${label} −1`, onclick: bump(-1) }, '−'),
    input,
    h('button', { type: 'button', class: 'step', 'data-plus': id, 'aria-label': `${label} +1`, onclick: bump(1) }, '+'));
}

/** The counts 0..`max` side by side, the one held pressed: a set read off the table is
 * one tap (its size), not one per card. Drawn again in place. */
function counts(id, label, get, set, max) {
  const row = h('span', { class: 'counts', role: 'group', 'aria-label': label, id });
  const draw = () => live(row).replaceChildren(...Array.from({ length: max + 1 }, (_, n) => h('button', {
    type: 'button', class: 'count', 'data-count': n, 'aria-pressed': String(get() === n),
    onclick: () => { set(n); draw(); },
  }, String(n))));
  draw();
  return row;
}

function toggle(id, label, get, set) {
  return h('button', {
    id, type: 'button', class: 'toggle', 'aria-pressed': String(get()), 'aria-label': label,
    onclick: (e) => { set(!get()); e.currentTarget.setAttribute('aria-pressed', String(get())); },
  }, '✓');
}

function playerSheet(view, p) {
  const limits = view.limits;
  const cards = draft.players[p];
  const at = (key, s) => [() => cards[key][s], (v) => { cards[key][s] = v; }];
  const one = (key) => [() => cards[key], (v) => { cards[key] = v; }];
  return h('div', { id: 'tally-player', class: 'tally-player', 'data-player': p },
    h('table', { class: 'tally-suspects' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('rummy.evidence')),
        h('th', { scope: 'col' }, t('rummy.jokers')), h('th', { scope: 'col' }, t('rummy.suspect_card')),
        h('th', { scope: 'col' }, t('rummy.suspect_in_hand')))),
      h('tbody', {}, view.suspects.map((_, s) => h('tr', { 'data-suspect': s },
        h('th', { scope: 'row' }, suspectName(s)),
        h('td', {}, counts(`evidence-${s}`, suspectsField(s, 'rummy.evidence'), ...at('evidence', s), limits.evidence)),
        h('td', {}, counts(`jokers-${s}`, suspectsField(s, 'rummy.jokers'), ...at('joker_cards', s), limits.jokers)),
        h('td', {}, toggle(`suspect-card-${s}`, suspectsField(s, 'rummy.suspect_card'), ...at('suspect_cards', s))),
        h('td', {}, toggle(`suspect-in-hand-${s}`, suspectsField(s, 'rummy.suspect_in_hand'), ...at('suspect_cards_in_hand', s))))))),
    h('div', { class: 'tally-more' },
      // A set of Letters is one tap, as a set of Evidence is: its size, 0 to the deck's.
      h('div', { class: 'inline' }, h('span', {}, t('rummy.letters')), counts('letters', t('rummy.letters'), ...one('letters'), limits.letters)),
      h('label', {}, t('rummy.victims_and_scenes'), stepper('victims-and-scenes', t('rummy.victims_and_scenes'), ...one('victims_and_scenes'), 200)),
      h('label', {}, t('rummy.hand'), stepper('hand', t('rummy.hand'), ...one('hand'), 999)),
      h('label', {}, t('rummy.holds_ripper_escapes'), toggle('holds-ripper-escapes', t('rummy.holds_ripper_escapes'), ...one('holds_ripper_escapes')))),
    h('p', { class: 'note' }, t('rummy.tally_hint')));
}

async function submit(ctx) {
  const ending = ctx.view.endings.find((e) => e.how === draft.ending && (e.by === undefined || e.by === draft.by));
  // The Alibi's points go to whom it lies in front of, once both are told.
  const players = draft.players.map((p, i) => ({ ...p, alibi: draft.alibi !== null && i === draft.holder ? draft.points ?? 0 : 0 }));
  const tally = { ending, alibi: draft.alibi, victims_in_play: draft.victims, players };
  const done = draft.round === null
    ? await ctx.act('end_round', { tally })
    : await ctx.act('correct_round', { round: draft.round, tally });
  if (done !== null) {
    showRound(draft.round);
    draft = null;
    ctx.render();
  }
}

/** The form over the board while a round is entered, or null. */
export function tallyForm(ctx) {
  if (!draft) return null;
  const view = ctx.view;
  const players = view.players.map((name, p) => [p, name]);
  const by = enders(view);
  return h('form', { id: 'tally', class: 'panel wide tally', onsubmit: (e) => { e.preventDefault(); submit(ctx); } },
    h('h1', {}, draft.round === null ? t('rummy.end_round_n', { n: view.round }) : t('rummy.correct', { n: draft.round + 1 })),
    segmented(ctx, 'tally-ending', t('rummy.how_ended'), hows(view).map((e) => [e, t(`ending_choice.${e}`)]), draft.ending, (v) => { draft.ending = v; }),
    by.length
      ? segmented(ctx, 'tally-by', t('rummy.played_by'), players.filter(([p]) => by.includes(p)), draft.by, (v) => { draft.by = v; })
      : null,
    segmented(ctx, 'tally-alibi', t('rummy.alibi'), [[null, t('rummy.no_alibi')], ...view.suspects.map((_, s) => [s, suspectName(s)])], draft.alibi, (v) => { draft.alibi = v; }),
    draft.alibi === null ? null : h('div', { id: 'alibi-in-play', class: 'row' },
      segmented(ctx, 'tally-alibi-holder', t('rummy.alibi_holder'), players, draft.holder, (v) => { draft.holder = v; }),
      h('label', { class: 'inline' }, t('rummy.alibi_points'),
        stepper('alibi-points', t('rummy.alibi_points'), () => draft.points ?? 0, (v) => { draft.points = v; }, view.limits.points)),
      h('p', { class: 'note' }, t('rummy.alibi_hint'))),
    h('div', { class: 'inline' }, h('span', {}, t('rummy.victims_in_play')),
      counts('victims-in-play', t('rummy.victims_in_play'), () => draft.victims, (v) => { draft.victims = v; }, view.limits.victims)),
    draft.recount ? h('p', { id: 'recount-jokers', class: 'banner' }, t('rummy.recount_jokers')) : null,
    segmented(ctx, 'tally-who', t('rummy.cards_of'), players, draft.who, (v) => { draft.who = v; }),
    playerSheet(view, draft.who),
    h('div', { class: 'row' },
      h('button', { id: 'score-round', type: 'button', class: 'primary', onclick: () => submit(ctx) }, t('rummy.score_round')),
      h('button', { id: 'tally-cancel', type: 'button', onclick: () => { draft = null; ctx.render(); } }, t('hidden.cancel'))));
}
