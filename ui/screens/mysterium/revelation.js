// Phase 2: the line-up, the culprit sealed by the ghost, the shared vision turned card by
// card with each level voting in turn, the count played out vote by vote with its
// reasoning in plain words, and the end of the game. New edition: the traces, the
// culprit drawn by the app for the ghost (or, in paper mode, drawn at the table and sealed
// by the ghost), the shared vision given at once, then a consensus or a majority vote.

import { h } from '../../dom.js';
import { hourMark, nameOf, t } from '../../i18n.js';
import { playAgain, seatsKept, toBgStats } from '../shared/ending.js';
import { covering, open, seatsOf } from './hidden.js';
import { countLines, countList } from './count.js';
import { CATEGORIES, cardAtEnd } from './psychics.js';
import { traceOf } from './groups.js';
import { guide } from './help.js';
import { MYSTERIUM, pageOf } from '../../rule_sets.js';

/** Milliseconds between two lines of the count as the table reads it out. */
const COUNT_PACE = 1200;

/** The table's reading of the count: paused by a tap (that count only), the next line on
 * its way, and a count read again after the end (on this screen only: everyone has seen it
 * by then). */
const reading = { paused: false, next: null, again: null };

/** A new count to read (the first, one made again once the eldest is named, another
 * game's): it is read from the start, unpaused. */
export function countStarted() {
  stopReading();
  reading.paused = false;
}

/** Whether this screen reads the next line out now: the table's own screen, uncovered and
 * in sight, not paused, with a line the rules let it show. */
function mayRead(ctx) {
  return !reading.paused && !covering() && document.visibilityState === 'visible' && Boolean(ctx.may('show_count'));
}

/** Shows the count's next line after a pause, where the rules have one to show: every
 * screen gets it from the server at once, so all read the same line together. */
function readOn(ctx) {
  if (reading.next !== null || !mayRead(ctx)) return;
  reading.next = setTimeout(() => {
    reading.next = null;
    // Read as things are by then: the screen may have been drawn again since.
    const now = ctx.now();
    const lines = now.choices('show_count', 'lines');
    if (mayRead(now) && lines.length) now.act('show_count', { lines: lines[0] }, { quiet: true });
  }, COUNT_PACE);
}

function stopReading() {
  clearTimeout(reading.next);
  reading.next = null;
}

/** The table's buttons under the count: pause and go on, or show it all at once. */
function readingButtons(ctx) {
  const lines = ctx.choices('show_count', 'lines');
  if (!lines.length) return null;
  return h('div', { class: 'row count-buttons' },
    reading.paused ? h('p', { class: 'note' }, t('count.paused')) : null,
    h('button', {
      id: 'count-pause', type: 'button', 'aria-pressed': String(reading.paused),
      onclick: () => { reading.paused = !reading.paused; stopReading(); ctx.render(); },
    }, t(reading.paused ? 'count.resume' : 'count.pause')),
    h('button', {
      id: 'count-all', type: 'button',
      onclick: () => { stopReading(); ctx.act('show_count', { lines: lines[lines.length - 1] }, { quiet: true }); },
    }, t('count.show_all')));
}

/** The count as this screen shows it: on the table, read on line by line; elsewhere,
 * what the table has shown. */
function count(ctx) {
  if (ctx.table) readOn(ctx);
  return countList(ctx.view, ctx.table ? { below: readingButtons(ctx) } : {});
}

/** Reads the whole count (`lines` long) again on this screen, a line at a time; left
 * behind when the screen shows another game. */
function readAgain(ctx, lines) {
  const game = ctx.game.id;
  clearInterval(reading.again?.loop);
  reading.again = { game, shown: 0, loop: setInterval(() => {
    reading.again.shown += 1;
    if (reading.again.shown >= lines || !ctx.onScreen(game)) {
      clearInterval(reading.again.loop);
      reading.again = null;
    }
    ctx.render();
  }, COUNT_PACE) };
  ctx.render();
}

/** Whether the count is being read again on this screen (the outcome waits for it). */
function readingAgain(game) {
  return reading.again?.game === game;
}

/** The groups laid out; which was chosen and which held the culprit only once `reveal`
 * (never while the count is still being played out: that would give it away). With `pick`,
 * each group is a button the psychics' choice is tapped on. */
function lineUp(view, { reveal = true, pick = null } = {}) {
  return h('section', { id: 'line-up', class: 'line-up', 'aria-label': t('lineup.title') },
    h('h2', {}, t('lineup.title')),
    h('ol', {}, view.groups.map((g) => {
      const whose = traceOf(view, g);
      const face = [
        h('span', { class: 'number' }, g.number),
        h('span', { class: 'cards' }, g.cards.join(' · ')),
        whose ? h('span', { class: 'whose' }, nameOf(whose)) : null,
        // Said in words, not by the frame's colour alone.
        reveal && view.chosen === g.number ? h('span', { class: 'tag chosen' }, t('lineup.chosen')) : null,
        reveal && view.culprit === g.number ? h('span', { class: 'tag culprit' }, t('lineup.culprit')) : null,
      ];
      const marks = {
        class: pick ? 'group-card group' : 'group-card', 'data-group': g.number, dataset: whose ? { colour: whose.colour } : {},
        'data-culprit': String(reveal && view.culprit === g.number), 'data-chosen': String(reveal && view.chosen === g.number),
      };
      return pick
        ? h('li', { class: 'pick' }, h('button', {
          ...marks, type: 'button', 'data-pick': g.number, 'aria-pressed': String(pick.chosen === g.number),
          onclick: () => pick.onpick(g.number),
        }, face))
        : h('li', marks, face);
    })));
}

/** The levels the table reads off the track, where the bands leave them open. */
function levelsToRead(ctx) {
  const view = ctx.view;
  const unknown = view.psychics.map((p, i) => [p, i]).filter(([p]) => !p.level && !p.voted);
  if (!unknown.length) return null;
  return h('section', { class: 'levels', id: 'levels' },
    h('h3', {}, t('level.read_title')),
    unknown.map(([p, i]) => {
      const levels = ctx.choices('state_level', 'levels', { psychic: i });
      return h('div', { class: 'row', 'data-level-of': i },
        h('span', {}, t('level.read', { name: nameOf(p), space: p.track })),
        levels.map((level) => h('button', { type: 'button', 'data-level': level,
          onclick: () => ctx.act('state_level', { psychic: i, level }) }, t(`level.${level}`))));
    }));
}

function sharedVision(ctx) {
  const view = ctx.view;
  const slots = Array.from({ length: view.vision_cards }, (_, i) => i + 1).map((n) => h('li', { class: n <= view.revealed ? 'card up' : 'card down', 'data-card': n },
    n <= view.revealed ? t('vision.card_up', { n }) : t('vision.card_down', { n })));
  const voting = view.psychics.map((p, i) => [p, i]).filter(([p]) => p.voting_now);
  return h('section', { id: 'shared-vision', class: 'shared-vision' },
    h('h2', {}, t('vision.shared')),
    h('ol', { class: 'cards' }, slots),
    voting.length
      ? h('div', { class: 'vote-now', role: 'status' },
        h('p', { class: 'banner' }, t(`vote.now_${voting[0][0].level}`)),
        voters(ctx, voting))
      : null,
    // Once every vote is in, the cards left face down no longer matter.
    view.revealed < view.vision_cards && !view.counting
      ? h('button', {
        id: 'reveal-card', type: 'button', class: voting.length ? '' : 'primary', disabled: !ctx.may('reveal_vision_card'),
        onclick: () => ctx.act('reveal_vision_card'),
      }, t('vision.turn', { n: view.revealed + 1 }))
      : null,
    ballots(view));
}

/** Who has voted (sealed) and, for those yet to vote, their level where it has one. */
function ballots(view) {
  return h('p', { class: 'voted' }, view.psychics.map((p) => h('span', { class: 'ballot', dataset: { colour: p.colour }, 'data-voted': String(p.voted) },
    t('said.pair', { label: nameOf(p), value: p.voted ? t('vote.sealed_short') : p.level ? t(`level.${p.level}`) : '…' }))));
}

function eldest(ctx) {
  const among = ctx.choices('declare_eldest', 'psychics');
  if (!among.length) return null;
  return h('section', { id: 'eldest', class: 'eldest' },
    h('h3', {}, t('eldest.ask')),
    h('div', { class: 'row' }, among.map((i) => h('button', {
      type: 'button', 'data-eldest': i, onclick: () => ctx.act('declare_eldest', { psychic: i }),
    }, nameOf(ctx.view.psychics[i])))));
}

/** The group tapped as the psychics' choice, before it is confirmed. */
let picked = null;

/** The psychics' choice tapped on the line-up itself (`pickable`), where they may make it. */
function pickable(ctx) {
  return ctx.may('pick_group') ? { chosen: picked, onpick: (group) => { picked = group; ctx.render(); } } : null;
}

/** The group the psychics agree on, under `heading`: a tap on the line-up picks it, a
 * second button ends the game with it, so one slip of a finger decides nothing. */
function agree(ctx, heading) {
  return h('section', { id: 'agree', class: 'agree' },
    h('h3', {}, t(heading)),
    h('button', {
      id: 'pick-confirm', type: 'button', class: 'primary big', disabled: picked == null,
      onclick: async () => { if (await ctx.act('pick_group', { group: picked })) picked = null; },
    }, picked ? t('agree.confirm', { n: picked }) : t('agree.pick_first')));
}

/** Who votes now, each on their phone or through the passed tablet. */
function voters(ctx, voting) {
  return h('div', { class: 'row' }, voting.map(([p, i]) => (!ctx.may('vote', { psychic: i })
    ? h('span', { class: 'on-phone', dataset: { colour: p.colour } }, t('vote.on_phone', { name: nameOf(p) }))
    : h('button', {
      type: 'button', class: 'primary', 'data-vote': i, dataset: { colour: p.colour },
      onclick: () => open(ctx, 'vote', { psychic: i, step: 'enter' }),
    }, t('vote.cast', { name: nameOf(p) })))));
}

/** New edition: the shared vision given at once, then a consensus or a majority. */
function decision(ctx, seats) {
  const view = ctx.view;
  if (!view.shared_vision) {
    return h('section', { id: 'shared-vision', class: 'shared-vision' },
      h('p', {}, t('vision.prepare', { ghost: view.ghost })),
      ctx.may('share_vision')
        ? h('button', { id: 'share-vision', type: 'button', class: 'primary big', onclick: () => ctx.act('share_vision') },
          t('vision.given'))
        : seats.includes('ghost') ? h('p', { class: 'banner' }, t('vision.on_phone', { ghost: view.ghost })) : null);
  }
  const voting = view.psychics.map((p, i) => [p, i]).filter(([p]) => p.voting_now);
  // A tie is news once the table has read the count to its end.
  const tied = view.count && !view.counting && view.count.chosen === null;
  return [
    ctx.may('pick_group') ? agree(ctx, 'agree.consensus') : null,
    view.majority_vote ? h('section', { id: 'majority', class: 'shared-vision' },
      h('h3', {}, t(tied ? 'vote.again' : 'vote.majority')),
      voters(ctx, voting),
      ballots(view)) : null,
  ];
}

/** The revelation's stage: what the table does next. */
export function revelation(ctx) {
  const { view, snapshot } = ctx;
  const seats = snapshot.seats ?? [];
  let next;
  if (!view.culprit_sealed) {
    // Classic, and the new edition in paper mode: the ghost seals it (in the new edition,
    // the trace of the medium token drawn at the table).
    // Said once: on the table, or on the ghost's phone.
    const onPhone = !ctx.may('choose_culprit') && seats.includes('ghost');
    next = h('section', { class: 'culprit' },
      h('p', { class: onPhone ? 'banner' : null }, t(onPhone ? 'culprit.on_phone' : 'culprit.first', { ghost: view.ghost })),
      ctx.may('choose_culprit')
        ? h('button', { id: 'seal-culprit', type: 'button', class: 'primary big', onclick: () => open(ctx, 'culprit') }, t('culprit.open'))
        : null);
  } else if (view.decision === 'shared_vision') {
    next = decision(ctx, seats);
  } else if (view.decision === 'straw_poll') {
    next = [levelsToRead(ctx), sharedVision(ctx), eldest(ctx)];
  } else {
    next = [h('p', { class: 'note' }, t('vision.face_up')),
      ctx.may('pick_group') ? agree(ctx, `agree.${view.decision.agree}`) : null];
  }
  // The line-up on one side, fills what the rest leaves; what happens now on the other.
  return h('section', { id: 'stage', class: 'stage revelation' },
    h('h2', { class: 'phase-title' }, t('phase.revelation')),
    lineUp(view, { pick: pickable(ctx) }),
    h('div', { class: 'stage-now' }, next, count(ctx), guide(view)));
}

/** The end: won or lost, the culprit, and the game in a few lines. */
export function ending(ctx) {
  const { view, game } = ctx;
  const outcome = view.outcome;
  const hold = readingAgain(game.id);
  // While the count is read again, its own heading is the stage's: the outcome waits.
  return h('section', { id: 'stage', class: `stage ending ${hold ? '' : outcome}`, 'data-outcome': hold ? 'counting' : outcome },
    h('div', { class: 'ending-main' },
      hold ? null : h('div', { class: 'outcome-head' },
        h('h1', { id: 'outcome', class: 'outcome' }, t(`outcome.${outcome}`)),
        h('p', { class: 'outcome-why' }, t(`outcome.${outcome}_why`, {
          culprit: view.culprit ?? '—', chosen: view.chosen ?? '—', hour: view.hour,
        }))),
      view.groups.length ? lineUp(view, { reveal: !hold }) : null,
      hold ? null : toBgStats(ctx)),
    h('div', { class: 'ending-side' },
      countList(view, {
        shown: hold ? reading.again.shown : Infinity,
        beside: view.count && !hold && ctx.table
          ? h('button', { id: 'count-again', type: 'button', onclick: () => readAgain(ctx, countLines(view).length) }, t('count.replay'))
          : null,
      }),
      hold ? null : summary(ctx)));
}

function summary(ctx) {
  const view = ctx.view;
  return h('section', { id: 'summary', class: 'summary' },
    h('h2', {}, t('summary.title')),
    h('p', {}, t('summary.hours', { hour: hourMark(view.hour) })),
    h('div', { class: 'summary-table' }, h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, ''), CATEGORIES.map((c) => h('th', { scope: 'col' }, t(`category.${c}`))),
        view.track_side ? h('th', { scope: 'col' }, t('summary.track')) : null)),
      h('tbody', {}, view.psychics.map((p, i) => h('tr', {},
        h('th', { scope: 'row' }, h('span', { class: 'swatch', dataset: { colour: p.colour } }), nameOf(p)),
        CATEGORIES.map((c, k) => h('td', { class: p.found[k] ? 'found' : 'missed' }, cardAtEnd(view, i, k))),
        view.track_side ? h('td', {}, p.track) : null))))),
    seatsKept(ctx, seatsOf(view)),
    h('div', { class: 'row' },
      playAgain(ctx),
      h('a', { class: 'button primary', href: pageOf(MYSTERIUM, 'new') }, t('home.new_game')),
      h('a', { class: 'button', href: '#' }, t('game.home'))));
}
