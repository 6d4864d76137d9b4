// The table screen during a game of either edition: the clock (the new edition's pocket
// watch), crows or candles, the sand timer where there is one, each psychic, the
// clairvoyancy track, and Phase 2. It shows the table's view as the server sends it, sends
// what the table taps, and plays the cues for what its log says has happened.

import { asset, h, toast } from '../dom.js';
import { hourMark, nameOf, t } from '../i18n.js';
import { api } from '../api.js';
import * as player from '../sound/player.js';
import { isTable, render, state } from '../context.js';
import { barLanguages, barMenu, languageSwitch } from './chrome.js';
import { command, refresh, rewind, unreadable } from './game/actions.js';
import { sandTimer, setClock } from './game/timer.js';
import { psychicGrid } from './game/psychics.js';
import { track } from './game/track.js';
import { countStarted, ending, revelation } from './game/revelation.js';
import { covering, hiddenPanel, open } from './game/hidden.js';
import { guide, guiding, helpButton, helpPanel, mysteriumHelp } from './game/help.js';
import { choices, may } from '../allowed.js';
import { lastChange, toldSince } from '../log.js';


/** Games whose layout the table has confirmed, on this screen. */
const laidOut = new Set(JSON.parse(sessionStorage.getItem('seance.laid-out') ?? '[]'));

function confirmLayout(id) {
  laidOut.add(id);
  sessionStorage.setItem('seance.laid-out', JSON.stringify([...laidOut]));
  refresh();
}

/** Cues for what the log says has happened since the last view (an undo is silent), and
 * the ambience's mood for the phase the game is in. */
export function viewChanged(before, after) {
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
  // New edition: each answer knocks once for yes and twice for no as it is recorded, the
  // app's own (it keeps the secrets) or the one tapped on a medium's tile: one way to give
  // an answer, heard by the table.
  const answer = latest.get('manifested');
  if (now.edition === 'new' && answer) knocked(answer.right ? 1 : 2);
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

document.addEventListener('visibilitychange', () => {
  // A screen waking from sleep asks again: the timer and the game may have moved on.
  if (document.visibilityState === 'visible' && state.game?.snapshot) refresh();
});


function clock(view) {
  return h('div', { id: 'clock', class: 'clock', role: 'img', 'aria-label': t('clock.label', { hour: view.hour }) },
    h('span', { class: 'hour' }, hourMark(view.edition, view.hour)),
    h('span', { class: 'pips', 'aria-hidden': 'true' },
      Array.from({ length: view.hours }, (_, i) => i + 1).map((n) => h('span', { class: n < view.hour ? 'pip past' : n === view.hour ? 'pip now' : 'pip' }))));
}

function gameBar(snapshot) {
  const view = snapshot.view;
  const table = isTable();
  const crowRule = t(`crows.per_${view.crow_rule.per}`, { n: view.crow_rule.count });
  const ambience = h('button', {
    id: 'ambience', type: 'button', 'aria-pressed': String(player.ambiencePlaying()),
    'aria-label': t('game.ambience'), title: t('game.ambience'),
    onclick: () => { player.mood(player.ambiencePlaying() ? null : moodFor(view)); refresh(); },
  }, '♪');
  return h('header', { class: 'bar game-bar' },
    h('a', { class: 'brand', href: '#', 'aria-label': t('game.home') }, h('img', { src: asset('icons/brand.png'), alt: '' })),
    clock(view),
    h('button', {
      id: 'crow', type: 'button', class: crowClass('crow'), disabled: !may('use_crow'),
      title: `${t('crows.use', { n: view.crows_left })} (${crowRule})`,
      onclick: () => command('use_crow'),
    }, `${t('crows.short')} `, h('span', { id: 'crows-left' }, view.crows_left)),
    h('div', { id: 'connection', class: 'connection compact', role: 'status' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label' })),
    helpButton(),
    table ? ambience : null,
    table && (view.secrets === 'app_kept' || view.culprit_sealed) && view.phase !== 'ended' && !view.counting && !seated(snapshot, 'ghost')
      ? h('button', { id: 'ghost-look', type: 'button', onclick: () => open('secrets') }, t('game.ghost_look'))
      : null,
    table ? [tableControls(snapshot, () => open('phones', { step: 'show' })), barLanguages()]
      // A watcher's phone keeps its bar on one line: the rest behind its menu.
      : barMenu([watching(), ambience, languageSwitch()], { fold: 'phone', label: '⚙', aria: t('phone.menu') }));
}

/** The table's own buttons in the bar: the Phones panel, undo and redo. */
export function tableControls(snapshot, phones) {
  return [
    h('button', { id: 'phones', type: 'button', onclick: phones }, t('game.phones')),
    // On a tablet held sideways the arrow alone says it (its words, to those who hear them).
    h('button', {
      id: 'undo', type: 'button', disabled: !snapshot.can_undo, onclick: () => rewind('undo'), 'aria-label': t('game.undo'), title: t('game.undo'),
    }, '↶', h('span', { class: 'undo-words' }, t('game.undo'))),
    h('button', { id: 'redo', type: 'button', disabled: !snapshot.can_redo, onclick: () => rewind('redo'), 'aria-label': t('game.redo') }, '↷'),
  ];
}

/** A game's bar, with under it the place where the reconnect banner (and, on a phone, the
 * toast) come over the page (see showScreen in app.js). */
export function barTop(bar) {
  return h('div', { class: 'game-top' }, bar, h('div', { class: 'notices' }));
}

/** Said in the bar of a device that only watches the table. */
export function watching() {
  return h('span', { id: 'watching', class: 'watching' }, t('game.watching'));
}

/** Whether a phone holds `seat` (`ghost`, `psychic:N`). */
export function seated(snapshot, seat) {
  return (snapshot.seats ?? []).includes(seat);
}

function moodFor(view) {
  return view.phase === 'revelation' || view.phase === 'ended' ? 'reveal' : 'seance';
}

function layoutPanel(id, view) {
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
      h('button', { id: 'begin', type: 'button', class: 'primary big', onclick: () => confirmLayout(id) }, t('layout.begin'))));
}

/** What the ghost has said: this turn's answers while they come, the last turn's after. */
function answers(view) {
  const now = view.phase === 'manifestation';
  const list = now ? view.manifestations : view.phase === 'visions' ? view.last_turn : [];
  if (!list.length) return null;
  return h('section', { id: now ? 'answers' : 'last-turn', class: 'last-turn' },
    h('h3', {}, t(now ? 'turn.now' : 'turn.last', { hour: hourMark(view.edition, now ? view.hour : view.last_turn_hour) })),
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
function soundBlocked() {
  if (!player.blocked()) return null;
  return h('button', { id: 'sound-unlock', type: 'button', class: 'banner', onclick: () => { player.unlock(); refresh(); } },
    t('sound.blocked'));
}

/** The ghost's knocks from the table (a ghost without a phone), where the rules offer them;
 * in the new edition each answer knocks as it is recorded on its medium's tile instead, the
 * one way to give it. */
function knocks(view) {
  if (!may('knock') || view.edition === 'new') return null;
  return h('div', { class: 'row knock-row' },
    h('button', { id: 'table-knock-1', type: 'button', onclick: () => knocked(1) }, t('phone.knock_yes')),
    h('button', { id: 'table-knock-2', type: 'button', onclick: () => knocked(2) }, t('phone.knock_no')));
}

/** How long a knock stays on the stage, in milliseconds. */
const KNOCK_SHOWN = 5000;
/** The last knock heard: how many, when, and the version it came on (the line under the
 * bar tells it until the game moves on). */
let heard = null;

/** The ghost's knock on the table: heard, and seen (on a muted tablet, in a noisy room). */
export function knocked(times) {
  // For the knock benchmark: when the table heard it, on the epoch clock.
  document.documentElement.dataset.knockAt = String(performance.timeOrigin + performance.now());
  player.cue('knock', times);
  heard = { times, at: performance.now(), game: state.game?.id, version: state.game?.snapshot?.version };
  setTimeout(render, KNOCK_SHOWN);
  render();
}

/** The knock for a few seconds, in words and in marks (one or two): large, over the line
 * under the bar, which says it too (or what came after it). */
function knockSeen() {
  if (!heard || heard.game !== state.game?.id || performance.now() - heard.at >= KNOCK_SHOWN) return null;
  return h('div', { id: 'knock-seen', class: 'knock-seen', 'aria-hidden': 'true', 'data-times': heard.times },
    h('span', { class: 'marks' }, heard.times === 1 ? '●' : '● ●'),
    h('span', { class: 'words' }, t(`log.knock_${heard.times}`)));
}

/** The latest change under the bar, or the knock heard since it; a knock seen lies over it,
 * where it covers no part of the game. */
function latest(snapshot) {
  const line = heard && heard.game === snapshot.game && heard.version === snapshot.version
    ? h('p', { id: 'last-change', class: 'last-change knock', role: 'status', 'data-version': snapshot.version },
      t(`log.knock_${heard.times}`))
    : lastChange(snapshot);
  return h('div', { class: 'news' }, line, knockSeen());
}

function phaseOne(view) {
  const waiting = view.psychics.filter((p) => p.seeking && !p.vision).length;
  const every = oneTap(view);
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
    soundBlocked(),
    recovered,
    every,
    view.phase === 'manifestation' ? knocks(view) : view.sand_timer ? sandTimer(view, { small: view.phase === 'visions', guided: guiding() }) : convinced(),
    answers(view));
}

/** Every vision, or every answer, in one tap where the rules offer it and more than one is
 * still to come, on the table or the ghost's phone; each tile or row keeps its own button
 * for the exceptions. */
export function oneTap(view) {
  const [type, id, key] = view.phase === 'visions'
    ? ['give_every_vision', 'every-vision', 'vision.give_every']
    : ['manifest_every', 'every-answer', 'manifest.reveal_every'];
  if (!may(type)) return null;
  const left = view.phase === 'visions'
    ? choices('give_vision', 'psychics').length
    : view.psychics.filter((_, i) => may('manifest', { psychic: i })).length;
  if (left < 2) return null;
  return h('div', { class: 'row one-tap' },
    h('button', { id, type: 'button', class: 'primary big', onclick: () => command(type) }, t(key, { n: left })));
}

/** Without a sand timer the mediums take their time; the table says when all are sure. */
function convinced() {
  if (!may('end_interpretation')) return null;
  return h('div', { class: 'row' },
    h('button', { id: 'convinced', type: 'button', class: 'primary big', onclick: () => command('end_interpretation') },
      t('phase.convinced')));
}

function damaged(snapshot) {
  if (!snapshot.damage) return null;
  return h('div', { class: 'banner damage', role: 'alert' },
    h('p', {}, t('game.damage', { entry: snapshot.damage.entry })),
    h('button', {
      type: 'button', onclick: async () => { await api(`/games/${snapshot.game}/set-aside`, { method: 'POST' }); refresh(); },
    }, t('game.set_aside')));
}

export function renderGame(state) {
  const game = state.game;
  const snapshot = game.snapshot;
  if (game.refused && !snapshot) return unreadable(game);
  if (!snapshot) {
    refresh();
    return h('div', { id: 'game', class: 'screen' }, h('p', { class: 'note loading' }, '…'));
  }
  const view = snapshot.view;
  const hidden = hiddenPanel(view);
  const awake = String(view.phase !== 'ended');
  if (covering()) return h('div', { id: 'game', class: 'screen covered', 'data-awake': awake }, hidden);
  let stage;
  // The table lays the cards out and says when it is done; a watcher sees the psychics.
  const layingOut = isTable() && view.before_first_vision && !laidOut.has(game.id);
  if (view.phase === 'ended') stage = ending(view, game.id);
  else if (view.phase === 'revelation') stage = revelation(snapshot, game.id);
  else if (layingOut) stage = layoutPanel(game.id, view);
  else stage = phaseOne(view);
  const phaseOneBoard = ['visions', 'interpretation', 'manifestation'].includes(view.phase);
  return h('div', { id: 'game', class: 'screen game', 'data-phase': view.phase, 'data-version': snapshot.version, 'data-awake': awake },
    barTop(gameBar(snapshot)),
    latest(snapshot),
    damaged(snapshot),
    // A watcher sees the table as it is, and cannot tap it.
    h('div', { class: `board ${phaseOneBoard && !layingOut ? 'phase-one' : 'phase-two'}`, inert: !isTable() },
      stage,
      // While the cards are laid out nobody acts yet: the layout has the room.
      phaseOneBoard && !layingOut ? psychicGrid(view, (i) => seated(snapshot, `psychic:${i}`)) : null,
      // At the end the summary tells where each psychic stood.
      view.phase === 'ended' ? null : track(view)),
    helpPanel(mysteriumHelp(view), isTable()));
}
