// The table screen during a Mysterium game of either edition: the clock (the new edition's
// pocket watch), crows or candles, the sand timer where there is one, each psychic, the
// clairvoyancy track, and Phase 2. It shows the table's view as the server sends it, sends
// what the table taps, and plays the cues for what its log says has happened.
//
// Mysterium's screens stand as Mystery Rummy's do (`rummy.js` beside `rummy/`): this one,
// the table's, at the top of `screens/`, and the rest (a seat's phone, the setup, the seat
// picker, the parts they share) in `mysterium/`. So each rule set's room is one name and
// its folder, found the same way, and what stands beside them in `screens/` is the app's
// own or every rule set's (`shared/`, `chrome.js`, `phone_bar.js`).

import { asset, h, toast } from '../dom.js';
import { hourMark, nameOf, t } from '../i18n.js';
import { api, gamePath } from '../api.js';
import * as player from '../sound/player.js';
import { barLanguages, barMenu, languageSwitch, notYet } from './chrome.js';
import { barTop, seated, tableControls, watching } from './shared/bar.js';
import { helpButton, helpPanel } from './shared/help.js';
import { sandTimer, setClock } from './mysterium/timer.js';
import { psychicGrid } from './mysterium/psychics.js';
import { track } from './mysterium/track.js';
import { countStarted, ending, revelation } from './mysterium/revelation.js';
import { covering, hiddenPanel, open } from './mysterium/hidden.js';
import { guiding } from './shared/help.js';
import { guide, mysteriumHelp } from './mysterium/help.js';
import { lastChange, toldSince } from '../log.js';


/** Games whose layout the table has confirmed, on this screen. */
const laidOut = new Set(JSON.parse(sessionStorage.getItem('seance.laid-out') ?? '[]'));

function confirmLayout(ctx) {
  laidOut.add(ctx.game.id);
  sessionStorage.setItem('seance.laid-out', JSON.stringify([...laidOut]));
  ctx.refresh();
}

/** Cues for what the log says has happened since the last view (an undo is silent), and
 * the ambience's mood for the phase the game is in; `ctx` is the screen's, with `after`. */
export function viewChanged(before, after, ctx) {
  setClock(after, performance.now());
  const [was, now] = [before?.view, after.view];
  if (!was) {
    countStarted();
    return;
  }
  if (now.counting && !was.counting) countStarted();
  // A screen back after a gap (asleep, the network lost) hears each kind of cue once, for
  // where the game stands now, not every one it missed in a row.
  const latest = new Map(toldSince(after, before.version).map((event) => [event.type, event]));
  for (const event of latest.values()) {
    if (event.type === 'hour_struck') player.cue('strike', event.hour);
    if (event.type === 'crow_used') crowSpent(now);
    if (event.type === 'timer_ended') {
      // For the drift benchmark: when this screen heard that the sand ran out.
      document.documentElement.dataset.timerEndedAt = String(performance.timeOrigin + performance.now());
      player.cue('ring');
    }
    // The outcome comes with the count's last line, as the table shows it.
    if (event.type === 'ended') player.cue(event.won ? 'win' : 'loss');
    if (event.type === 'lost_on_time') player.cue('loss');
  }
  // Where each answer knocks once for yes and twice for no as it is recorded (the new
  // edition), the app's own (it keeps the secrets) or the one tapped on a medium's tile:
  // one way to give an answer, heard by the table.
  const answer = latest.get('manifested');
  if (now.answers_knock && answer) knocked(answer.right ? 1 : 2, ctx);
  if (was.phase !== now.phase && player.ambiencePlaying()) {
    if (now.phase === 'manifestation') player.mood('seance');
    if (now.phase === 'revelation') player.mood('reveal');
  }
}

/** A crow (or candle) spent is said aloud on screen, and its counter flashes: a number
 * changing is easy to miss. */
let spentAt = -Infinity;
export function crowSpent(now) {
  toast(t('crows.spent', { n: now.crows_left }));
  spentAt = performance.now();
}

/** The crows' class: flashing for a moment after one is spent, through any redraw. */
export function crowClass(base) {
  return performance.now() - spentAt < 2400 ? `${base} spent` : base;
}


function clock(view) {
  return h('div', { id: 'clock', class: 'clock', role: 'img', 'aria-label': t('clock.label', { hour: view.hour }) },
    h('span', { class: 'hour' }, hourMark(view.hour)),
    h('span', { class: 'pips', 'aria-hidden': 'true' },
      Array.from({ length: view.hours }, (_, i) => i + 1).map((n) => h('span', { class: n < view.hour ? 'pip past' : n === view.hour ? 'pip now' : 'pip' }))));
}

function gameBar(ctx) {
  const { view, table } = ctx;
  const crowRule = t(`crows.per_${view.crow_rule.per}`, { n: view.crow_rule.count });
  const ambience = h('button', {
    id: 'ambience', type: 'button', 'aria-pressed': String(player.ambiencePlaying()),
    'aria-label': t('game.ambience'), title: t('game.ambience'),
    onclick: () => { player.mood(player.ambiencePlaying() ? null : moodFor(view)); ctx.refresh(); },
  }, '♪');
  return h('header', { class: 'bar game-bar' },
    h('a', { class: 'brand', href: '#', 'aria-label': t('game.home') }, h('img', { src: asset('icons/brand.png'), alt: '' })),
    clock(view),
    h('button', {
      id: 'crow', type: 'button', class: crowClass('crow'), disabled: !ctx.may('use_crow'),
      title: `${t('crows.use', { n: view.crows_left })} (${crowRule})`,
      onclick: () => ctx.act('use_crow'),
    }, `${t('crows.short')} `, h('span', { id: 'crows-left' }, view.crows_left)),
    h('div', { id: 'connection', class: 'connection compact', role: 'status' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label' })),
    helpButton(ctx),
    table ? ambience : null,
    table && (view.secrets === 'app_kept' || view.culprit_sealed) && view.phase !== 'ended' && !view.counting && !seated(ctx, 'ghost')
      ? h('button', { id: 'ghost-look', type: 'button', onclick: () => open(ctx, 'secrets') }, t('game.ghost_look'))
      : null,
    table ? [tableControls(ctx, () => open(ctx, 'phones', { step: 'show' })), barLanguages(ctx)]
      // A watcher's phone keeps its bar on one line: the rest behind its menu.
      : barMenu(ctx, [watching(), ambience, languageSwitch(ctx)], { fold: 'phone', label: '⚙', aria: t('phone.menu') }));
}

function moodFor(view) {
  return view.phase === 'revelation' || view.phase === 'ended' ? 'reveal' : 'seance';
}

function layoutPanel(ctx) {
  const view = ctx.view;
  const row = (key, cards, k) => h('div', { class: 'layout-row', 'data-category': key },
    h('h3', {}, t(`layout.${key}`, { n: cards.length }),
      view.layout.sets?.[k] ? h('span', { class: 'set-name' }, ` · ${t('layout.set', { name: view.layout.sets[k] })}`) : null),
    h('p', { class: 'numbers' }, cards.map((c) => h('span', { class: 'chip static' }, c))));
  return h('section', { id: 'stage', class: 'stage layout' },
    h('h1', { class: 'phase-title' }, t('layout.title')),
    row('characters', view.layout.characters, 0),
    row('locations', view.layout.locations, 1),
    row('objects', view.layout.objects, 2),
    h('ul', { class: 'facts' },
      h('li', {}, t(`crows.per_${view.crow_rule.per}`, { n: view.crow_rule.count })),
      view.tokens_per_psychic ? h('li', {}, t('layout.tokens', { n: view.tokens_per_psychic })) : h('li', {}, t('layout.no_tokens')),
      view.track_side ? h('li', {}, t('layout.track', { side: view.track_side })) : null,
      h('li', {}, t(`layout.secrets_${view.secrets}`, { ghost: view.ghost }))),
    h('div', { class: 'row' },
      h('button', { id: 'begin', type: 'button', class: 'primary big', onclick: () => confirmLayout(ctx) }, t('layout.begin'))));
}

/** What the ghost has said: this turn's answers while they come, the last turn's after. */
function answers(view) {
  const now = view.phase === 'manifestation';
  const list = now ? view.manifestations : view.phase === 'visions' ? view.last_turn : [];
  if (!list.length) return null;
  return h('section', { id: now ? 'answers' : 'last-turn', class: 'last-turn' },
    h('h3', {}, t(now ? 'turn.now' : 'turn.last', { hour: hourMark(now ? view.hour : view.last_turn_hour) })),
    h('ul', {}, list.map((m) => {
      const p = view.psychics[m.psychic];
      const moved = m.moved.map((i) => nameOf(view.psychics[i])).join(', ');
      return h('li', { dataset: { colour: p.colour } },
        m.right ? t('result.right_of', { name: nameOf(p), card: m.card }) : t('result.wrong_of', { name: nameOf(p) }),
        moved ? ` · ${t('result.moved', { names: moved })}` : '',
        m.bonus ? ` · ${t('result.bonus', { n: m.bonus })}` : '');
    })));
}

/** Said when the browser holds sound back: one tap lets the cues out. */
function soundBlocked(ctx) {
  if (!player.blocked()) return null;
  return h('button', { id: 'sound-unlock', type: 'button', class: 'banner', onclick: () => { player.unlock(); ctx.refresh(); } },
    t('sound.blocked'));
}

/** The ghost's knocks from the table (a ghost without a phone), where the rules offer them
 * (not where each answer knocks as it is recorded on its medium's tile, the one way to give
 * it). */
function knocks(ctx) {
  if (!ctx.may('knock')) return null;
  return h('div', { class: 'row knock-row' },
    h('button', { id: 'table-knock-1', type: 'button', onclick: () => knocked(1, ctx) }, t('phone.knock_yes')),
    h('button', { id: 'table-knock-2', type: 'button', onclick: () => knocked(2, ctx) }, t('phone.knock_no')));
}

/** How long a knock stays on the stage, in milliseconds. */
const KNOCK_SHOWN = 5000;
/** The last knock heard: how many, when, and the version it came on (the line under the
 * bar tells it until the game moves on). */
let heard = null;

/** The ghost's knock on the table: heard, and seen (on a muted tablet, in a noisy room);
 * `ctx` is the table screen's. */
export function knocked(times, ctx) {
  // For the knock benchmark: when the table heard it, on the epoch clock.
  document.documentElement.dataset.knockAt = String(performance.timeOrigin + performance.now());
  player.cue('knock', times);
  heard = { times, at: performance.now(), game: ctx.game?.id, version: ctx.snapshot?.version };
  setTimeout(ctx.render, KNOCK_SHOWN);
  ctx.render();
}

/** The knock for a few seconds, in words and in marks (one or two): large, over the line
 * under the bar, which says it too (or what came after it). */
function knockSeen(ctx) {
  if (!heard || heard.game !== ctx.game.id || performance.now() - heard.at >= KNOCK_SHOWN) return null;
  return h('div', { id: 'knock-seen', class: 'knock-seen', 'aria-hidden': 'true', 'data-times': heard.times },
    h('span', { class: 'marks' }, heard.times === 1 ? '●' : '● ●'),
    h('span', { class: 'words' }, t(`log.knock_${heard.times}`)));
}

/** The latest change under the bar, or the knock heard since it; a knock seen lies over it,
 * where it covers no part of the game. */
function latest(ctx) {
  const snapshot = ctx.snapshot;
  const line = heard && heard.game === snapshot.game && heard.version === snapshot.version
    ? h('p', { id: 'last-change', class: 'last-change knock', role: 'status', 'data-version': snapshot.version },
      t(`log.knock_${heard.times}`))
    : lastChange(snapshot);
  return h('div', { class: 'news' }, line, knockSeen(ctx));
}

function phaseOne(ctx) {
  const view = ctx.view;
  const waiting = view.psychics.filter((p) => p.seeking && !p.vision).length;
  const every = oneTap(ctx);
  // A first game has the phase's steps in full instead of the hint; "All N visions given"
  // says what the visions' hint would.
  const hint = view.phase === 'visions' ? (every ? null : t('phase.visions_hint', { n: waiting }))
    : view.phase === 'interpretation' ? t('phase.interpretation_hint')
      : t(`phase.manifestation_hint_${view.secrets}`, { ghost: view.ghost });
  const title = h('div', { class: 'stage-head' },
    h('h1', { class: 'phase-title' }, t(`phase.${view.phase}`)),
    guide(view) ?? (hint && h('p', { class: 'hint' }, hint)));
  const recovered = view.tokens_back
    ? h('p', { id: 'tokens-back', class: 'banner', role: 'status' }, t('turn.tokens_back')) : null;
  return h('section', { id: 'stage', class: `stage ${view.phase}` },
    title,
    soundBlocked(ctx),
    recovered,
    every,
    view.phase === 'manifestation' ? knocks(ctx) : view.sand_timer ? sandTimer(ctx, { small: view.phase === 'visions', guided: guiding() }) : convinced(ctx),
    answers(view));
}

/** Every vision, or every answer, in one tap where the rules offer it and more than one is
 * still to come, on the table or the ghost's phone; each tile or row keeps its own button
 * for the exceptions. */
export function oneTap(ctx) {
  const view = ctx.view;
  const [type, id, key] = view.phase === 'visions'
    ? ['give_every_vision', 'every-vision', 'vision.give_every']
    : ['manifest_every', 'every-answer', 'manifest.reveal_every'];
  if (!ctx.may(type)) return null;
  const left = view.phase === 'visions'
    ? ctx.choices('give_vision', 'psychics').length
    : view.psychics.filter((_, i) => ctx.may('manifest', { psychic: i })).length;
  if (left < 2) return null;
  return h('div', { class: 'row one-tap' },
    h('button', { id, type: 'button', class: 'primary big', onclick: () => ctx.act(type) }, t(key, { n: left })));
}

/** Without a sand timer the mediums take their time; the table says when all are sure. */
function convinced(ctx) {
  if (!ctx.may('end_interpretation')) return null;
  return h('div', { class: 'row' },
    h('button', { id: 'convinced', type: 'button', class: 'primary big', onclick: () => ctx.act('end_interpretation') },
      t('phase.convinced')));
}

function damaged(ctx) {
  const snapshot = ctx.snapshot;
  if (!snapshot.damage) return null;
  return h('div', { class: 'banner damage', role: 'alert' },
    h('p', {}, t('game.damage', { entry: snapshot.damage.entry })),
    h('button', {
      type: 'button', onclick: async () => { await api(gamePath(ctx.game.kind, ctx.game.id, 'set-aside'), { method: 'POST' }); ctx.refresh(); },
    }, t('game.set_aside')));
}

export function renderMysterium(ctx) {
  const waiting = notYet(ctx, 'game');
  if (waiting) return waiting;
  const { game, snapshot, view } = ctx;
  const hidden = hiddenPanel(ctx);
  const awake = String(view.phase !== 'ended');
  if (covering()) return h('div', { id: 'game', class: 'screen covered', 'data-awake': awake }, hidden);
  let stage;
  // The table lays the cards out and says when it is done; a watcher sees the psychics.
  const layingOut = ctx.table && view.before_first_vision && !laidOut.has(game.id);
  if (view.phase === 'ended') stage = ending(ctx);
  else if (view.phase === 'revelation') stage = revelation(ctx);
  else if (layingOut) stage = layoutPanel(ctx);
  else stage = phaseOne(ctx);
  const phaseOneBoard = ['visions', 'interpretation', 'manifestation'].includes(view.phase);
  return h('div', { id: 'game', class: 'screen game', 'data-phase': view.phase, 'data-version': snapshot.version, 'data-awake': awake },
    barTop(gameBar(ctx)),
    latest(ctx),
    damaged(ctx),
    // A watcher sees the table as it is, and cannot tap it.
    h('div', { class: `board ${phaseOneBoard && !layingOut ? 'phase-one' : 'phase-two'}`, inert: !ctx.table },
      stage,
      // While the cards are laid out nobody acts yet: the layout has the room.
      phaseOneBoard && !layingOut ? psychicGrid(ctx, (i) => seated(ctx, `psychic:${i}`)) : null,
      // At the end the summary tells where each psychic stood.
      view.phase === 'ended' ? null : track(view)),
    helpPanel(ctx, mysteriumHelp(view)));
}
