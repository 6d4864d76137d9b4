// Séance's UI entry point: finds the table code, picks the language, keeps the WebSocket
// open and renders the screen named by the address's #hash. It renders views; it decides
// no rule.

import { ApiError, Offline, api, connect, mySeat, takeCode } from './api.js';
import { deviceLanguage, setDialect, setLanguage, t } from './i18n.js';
import { h, toast } from './dom.js';
import { renderHome } from './screens/home.js';
import { renderSettings } from './screens/settings.js';
import { renderCodeEntry } from './screens/code.js';
import { renderSetup } from './screens/setup.js';
import { renderGames } from './screens/games.js';
import { renderJournal } from './screens/journal.js';
import { renderGame, viewChanged } from './screens/game.js';
import { refresh } from './screens/game/actions.js';
import { formatTime, freeze } from './screens/game/timer.js';
import { renderJoin, renderSeats } from './screens/join.js';
import { knocked, renderPhone, seatViewChanged } from './screens/phone.js';
import { renderRummy } from './screens/rummy.js';
import { renderRummySetup } from './screens/rummy/setup.js';
import { renderRummyPhone, renderRummySeats } from './screens/rummy/phone.js';
import * as player from './sound/player.js';

/**
 * What the screens show; changed only by what the server says. `game` is the game on
 * screen: its id, its kind (`games` for Mysterium, `rummy`), the role it is seen as, its
 * latest snapshot and when that arrived (performance.now()).
 */
export const state = { info: null, settings: null, connection: 'closed', devices: 0, game: null, offline: false };

/** The table's view of a game, with the table's cues. */
const asTable = () => ({ kind: 'games', role: 'table', seat: null, onView: viewChanged });
/** The view of this phone's seat, opened by its token. */
const asSeat = (id) => {
  const held = mySeat(id);
  return held ? { kind: 'games', role: held.seat, seat: held.token, onView: (before, after) => seatViewChanged(held.seat, before, after) } : asTable();
};
const quiet = () => {};
/** A Mystery Rummy scorepad, on the table or on a player's phone. */
const asRummyTable = () => ({ kind: 'rummy', role: 'table', seat: null, onView: quiet });
const asRummySeat = (id) => {
  const held = mySeat(id);
  return held ? { kind: 'rummy', role: held.seat, seat: held.token, onView: quiet } : asRummyTable();
};

/** Screens by the address's #hash; a game's number is the route's parameter. */
const routes = [
  [/^#\/settings$/, renderSettings],
  [/^#\/new$/, renderSetup],
  [/^#\/new\/rummy$/, renderRummySetup],
  [/^#\/games$/, renderGames],
  [/^#\/join$/, renderJoin],
  [/^#\/game\/(\d+)$/, renderGame, asTable],
  [/^#\/join\/(\d+)$/, renderSeats, () => ({ ...asTable(), onView: quiet })],
  [/^#\/phone\/(\d+)$/, renderPhone, asSeat],
  [/^#\/rummy\/(\d+)$/, renderRummy, asRummyTable],
  [/^#\/rummy\/(\d+)\/join$/, renderRummySeats, asRummyTable],
  [/^#\/rummy\/(\d+)\/phone$/, renderRummyPhone, asRummySeat],
];

let follow = () => {};

/** Whether this device is the table (it opened the table link), not a phone or a watcher:
 * the server said so from its credentials. */
export const isTable = () => state.info?.device === 'table';

/** The table sets the table's language; others only their own. */
export async function chooseLanguage(lang) {
  if (isTable()) {
    state.settings = await api('/settings', { method: 'PUT', body: { ...state.settings, language: lang } });
    await setLanguage(lang);
  } else {
    await setLanguage(lang, { remember: true });
  }
  render();
}

function route() {
  for (const [pattern, screen, watch] of routes) {
    const found = location.hash.match(pattern);
    if (found) {
      const id = found[1] ? Number(found[1]) : null;
      return { screen, id, watch: id === null ? null : watch(id) };
    }
  }
  return { screen: renderHome, id: null, watch: null };
}

export function render() {
  // A journal in trouble shows nothing but itself until the table chooses.
  const { screen, id, watch } = state.info?.journal ? { screen: renderJournal, id: null, watch: null } : route();
  const game = state.game;
  if (id !== (game?.id ?? null) || watch?.role !== game?.role || watch?.seat !== game?.seat || watch?.kind !== game?.kind) {
    state.game = id === null ? null : { id, ...watch, snapshot: null, at: 0 };
    follow(id, watch?.role, watch?.seat, watch?.kind);
  }
  // A game speaks its edition's terms; a setup screen sets its own.
  setDialect(state.game?.snapshot?.view?.edition);
  document.body.dataset.device = state.info?.device ?? '';
  document.getElementById('app').replaceChildren(screen(state));
  updateStatus();
}

function updateStatus() {
  const el = document.getElementById('connection');
  if (!el) return;
  el.dataset.state = state.connection;
  const devices = state.devices === 1 ? t('status.device') : t('status.devices', { n: state.devices });
  const said = state.connection === 'open' ? `${t('status.open')} · ${devices}` : t(`status.${state.connection}`);
  // A game's bar has room for the count alone; the whole sentence is its title.
  const compact = el.classList.contains('compact') && state.connection === 'open';
  el.querySelector('.label').textContent = compact ? t('status.screens', { n: state.devices }) : said;
  el.title = said;
}

/**
 * The table's server out of reach (it stopped, or the network dropped), or back: every
 * screen is covered and its buttons wait, the sand timer stands still; once back, the
 * screen says what it found (a sand timer paused by the stop, with its time left).
 */
function setOffline(offline) {
  if (offline === state.offline) return;
  state.offline = offline;
  document.body.dataset.offline = String(offline);
  const banner = document.getElementById('offline');
  banner.hidden = !offline;
  if (offline) {
    banner.replaceChildren(h('strong', {}, t('offline.title')), ' ', t('offline.hint'));
    freeze();
  } else {
    state.restored = true;
    if (!state.game) back(null);
  }
}

/** Says the server is back, with what the first snapshot since shows. */
function back(snapshot) {
  state.restored = false;
  const timer = snapshot?.timer;
  toast(timer?.interrupted
    ? t('offline.back_timer', { time: formatTime(timer.remaining_ms) })
    : t('offline.back'));
}

/** Whether a closed socket means the server is out of reach (not a seat freed, say). */
function probe() {
  api('/info').then(() => setOffline(false), (error) => setOffline(error instanceof Offline));
}

/** Takes a snapshot of the game on screen (from the socket or a request) and shows it. */
export function showSnapshot(snapshot) {
  if (!state.game || snapshot.game !== state.game.id) return;
  if (state.game.snapshot && snapshot.version < state.game.snapshot.version) return;
  if (state.restored) back(snapshot);
  const before = state.game.snapshot;
  state.game.snapshot = snapshot;
  state.game.at = performance.now();
  state.game.onView(before, snapshot);
  render();
}

async function onMessage(message) {
  switch (message.type) {
    case 'hello':
    case 'presence':
      state.devices = message.devices;
      break;
    case 'settings':
      state.settings = message.settings;
      player.configure(message.settings.sound);
      if (!deviceLanguage()) await setLanguage(message.settings.language);
      render();
      break;
    case 'view':
      showSnapshot(message.snapshot);
      break;
    case 'knock':
      if (state.game?.id === message.game && state.game.role === 'table' && location.hash.startsWith('#/game/')) {
        knocked(message.times);
      }
      break;
  }
  updateStatus();
}

async function boot() {
  takeCode();
  // Ask for everything at once: the words, the table's facts, and the live socket.
  const words = setLanguage(deviceLanguage() ?? 'en');
  const facts = Promise.all([api('/info'), api('/settings')]);
  try {
    [state.info, state.settings] = await facts;
  } catch (error) {
    await words;
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      document.getElementById('app').replaceChildren(renderCodeEntry(error.status === 403, boot));
      return;
    }
    throw error;
  }
  player.configure(state.settings.sound);
  // The table's language, unless this device chose its own.
  const speaking = words.then(() => (!deviceLanguage() && state.settings.language !== 'en'
    ? setLanguage(state.settings.language) : null));
  if (state.info.journal) {
    // The journal waits for the table's choice: no game, no socket, until it is made.
    await speaking;
    render();
    return;
  }
  follow = connect(onMessage, (connection) => {
    state.connection = connection;
    if (connection === 'open') setOffline(false);
    else probe();
    updateStatus();
    // A phone's socket refused or closed: ask why (the table may have freed its seat).
    if (connection !== 'open' && state.game?.seat) refresh();
  });
  await speaking;
  window.addEventListener('hashchange', render);
  render();
}

// Whatever goes wrong on this screen is said, never swallowed: the game is safe on the
// table's server, and a reload brings the screen back.
window.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof Offline) return; // the reconnecting state says so
  toast(t('error.generic', { message: event.reason?.message ?? event.reason }));
});
window.addEventListener('error', (event) => {
  toast(t('error.generic', { message: event.message }));
});

boot();
