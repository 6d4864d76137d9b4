// Séance's UI entry point: finds the table code, picks the language, keeps the WebSocket
// open and renders the screen named by the address's #hash. It alone holds the app's state;
// each screen is handed a context made from it (`context.js`). It renders views; it decides
// no rule.

import { ApiError, Offline, api, connect, giveUp, keepSeat, manifestUrl, mySeat, takeCode } from './api.js';
import { browserLanguage, deviceLanguage, language, prefetchLanguage, setDialect, setLanguage, t } from './i18n.js';
import { h, patch, stylesheet, toast } from './dom.js';
import { contextOf } from './context.js';
import { actsOn } from './act.js';
import { invitedAt, renderInvited, renderJoin } from './screens/join.js';
// Mysterium's seat picker comes with the app: a phone joining from its link draws it first.
import { renderMysteriumSeats } from './screens/mysterium/seats.js';
import { MYSTERIUM, MYSTERY_RUMMY, byKey, ruleSets } from './rule_sets.js';
import { pattern } from './ask.js';

/**
 * What the screens show; changed only by what the server says. `game` is the game on
 * screen: its id, its kind (its rule set's key, as the server tells it), the role it is seen
 * as, its latest snapshot and when that arrived (performance.now()).
 */
const state = { info: null, settings: null, connection: 'closed', devices: 0, game: null, offline: false };

/** Whether this device is the table (it opened the table link), not a phone or a watcher:
 * the server said so from its credentials. */
const isTable = () => state.info?.device === 'table';

/** Those waiting for the table's server to be in reach again. */
const waiting = [];

/** Resolves once the table's server is in reach (at once while it is). */
const reachable = () => (state.offline ? new Promise((resolve) => { waiting.push(resolve); }) : Promise.resolve());

/** Modules fetched the first time they are needed: a phone joining from its link fetches the
 * seat picker's, never the table's screens (nor the code's form, unless its code is wrong). */
const later = {
  home: () => import('./screens/home.js'),
  code: () => import('./screens/code.js'),
  settings: () => import('./screens/settings.js'),
  licences: () => import('./screens/licences.js'),
  games: () => import('./screens/games.js'),
  history: () => import('./screens/history.js'),
  statistics: () => import('./screens/statistics.js'),
  journal: () => import('./screens/journal.js'),
  mysterium: () => import('./screens/mysterium.js'),
  mysteriumSetup: () => import('./screens/mysterium/setup.js'),
  mysteriumPhone: () => import('./screens/mysterium/phone.js'),
  mysteriumTimer: () => import('./screens/mysterium/timer.js'),
  rummy: () => import('./screens/rummy.js'),
  rummySetup: () => import('./screens/rummy/setup.js'),
  rummyPhone: () => import('./screens/rummy/phone.js'),
  player: () => import('./sound/player.js'),
  awake: () => import('./awake.js'),
};
const loaded = {};

/** Module `key` of `later`, fetched once, with the game screens' stylesheet: every screen
 * but a phone's way in draws with it, and a phone joining has it by the time it sits. */
function load(key) {
  return Promise.all([later[key](), stylesheet('game.css')])
    .then(([module]) => { loaded[key] = module; return module; });
}

/** Calls `name` of module `key`: at once if it is here, else once it has come (in order). */
function call(key, name, ...args) {
  if (loaded[key]) return loaded[key][name](...args);
  load(key).then((module) => module[name](...args));
  return undefined;
}

/** The screen `name` of module `key`: shown once its module has come. */
const screenOf = (key, name) => (ctx) => {
  if (loaded[key]) return loaded[key][name](ctx);
  load(key).then(render);
  return h('div', { class: 'screen' }, h('p', { class: 'note' }, '…'));
};

/** The table's view of a game of `kind` (its rule set's key), followed by the rule set's
 * `cues.table` (the table's sounds, its sand timer; `listens` names what follows each view,
 * so a screen that changes it hears the game afresh). */
const asTable = (id, kind, cues) => ({ kind, role: 'table', seat: null, listens: 'table', onView: cues.table });
/** The view of this phone's seat, opened by its token, followed by `cues.seat`. */
const asSeat = (id, kind, cues) => {
  const held = mySeat(id);
  return held ? { kind, role: held.seat, seat: held.token, listens: 'seat', onView: cues.seat } : asTable(id, kind, cues);
};
const quiet = () => {};
/** The table's view, or a seat's, with no cue of its own (a seat picker, a scorepad). */
const quietTable = (id, kind) => ({ kind, role: 'table', seat: null, listens: 'quiet', onView: quiet });
const quietSeat = (id, kind) => {
  const held = mySeat(id);
  return held ? { kind, role: held.seat, seat: held.token, listens: 'quiet', onView: quiet } : quietTable(id, kind);
};

/**
 * Each rule set's screens, registered once: its `pages` (its setup, the table's screen of a
 * game, a phone's seat picker and a seat's phone, each with how it follows its game; where
 * each is shown is the server's, the rule sets' `pages` told in the page), and its `cues`,
 * what follows its views besides drawing them:
 * - `table(before, after)` and `seat(before, after)`: a view's cues on the table's screen
 *   and on a seat's phone;
 * - `knocked(times)`: a phone's knock, heard on the table's screen of the game;
 * - `freeze()`: the table is out of reach, its sand timer on screen stops where it was;
 * - `time(ms)`: resolves to `ms`, the time its sand timer had left, as its screens write it.
 * A rule set with none follows its views quietly.
 */
const SCREENS = {
  [MYSTERIUM]: {
    pages: {
      new: [screenOf('mysteriumSetup', 'renderMysteriumSetup')],
      game: [screenOf('mysterium', 'renderMysterium'), asTable],
      join: [renderMysteriumSeats, quietTable],
      phone: [screenOf('mysteriumPhone', 'renderMysteriumPhone'), asSeat],
    },
    cues: {
      table: (before, after) => call('mysterium', 'viewChanged', before, after, context()),
      seat: (before, after) => call('mysteriumPhone', 'seatViewChanged', before, after),
      knocked: (times) => call('mysterium', 'knocked', times, context()),
      // The timer's module came with the table's screen or a seat's; neither, no timer.
      freeze: () => { if (loaded.mysterium || loaded.mysteriumPhone) call('mysteriumTimer', 'freeze'); },
      time: async (ms) => (await load('mysteriumTimer')).formatTime(ms),
    },
  },
  [MYSTERY_RUMMY]: {
    pages: {
      new: [screenOf('rummySetup', 'renderRummySetup')],
      game: [screenOf('rummy', 'renderRummy'), quietTable],
      join: [screenOf('rummyPhone', 'renderRummySeats'), quietTable],
      phone: [screenOf('rummyPhone', 'renderRummyPhone'), quietSeat],
    },
    cues: {},
  },
};

/** The registry's entry of the rule set under `key`. */
const registered = (key) => SCREENS[byKey(key)?.name];

/** The table's first screen (a phone's too, once it goes back from a game's). */
const HOME = screenOf('home', 'renderHome');


/** Screens by the address's #hash: the app's own, then each rule set's at its pages, and
 * the table's invitations to its seats; a game's number is the parameter of a route that
 * follows its game. */
const ROUTES = [
  [/^#\/settings$/, screenOf('settings', 'renderSettings')],
  [/^#\/licences$/, screenOf('licences', 'renderLicences')],
  [/^#\/games$/, screenOf('games', 'renderGames')],
  [/^#\/history(?:\/archived)?$/, screenOf('history', 'renderHistory')],
  [/^#\/statistics$/, screenOf('statistics', 'renderStatistics')],
  [/^#\/join$/, renderJoin],
  ...ruleSets().filter(({ name }) => SCREENS[name]).flatMap(({ name, key, pages }) => [
    ...Object.entries(SCREENS[name].pages)
      .map(([page, [screen, watch]]) => [pattern(pages[page]), screen, watch && ((id) => watch(id, key, SCREENS[name].cues))]),
    [invitedAt(name), (ctx) => renderInvited(ctx, name)],
  ]),
];

let follow = () => {};

function route() {
  for (const [address, screen, watch] of ROUTES) {
    const found = location.hash.match(address);
    if (found) {
      const id = watch ? Number(found[1]) : null;
      return { screen, id, watch: id === null ? null : watch(id) };
    }
  }
  return { screen: HOME, id: null, watch: null };
}

/** Follows the game of the screen `route` found, unless it is followed already. */
function followScreen({ id, watch }) {
  const game = state.game;
  if (id !== (game?.id ?? null) || watch?.role !== game?.role || watch?.seat !== game?.seat || watch?.kind !== game?.kind) {
    state.game = id === null ? null : { id, ...watch, snapshot: null, at: 0 };
    follow(id, watch?.kind, watch?.role, watch?.seat);
  } else if (game && watch.listens !== game.listens) {
    // The same game on another screen ("Just watch" after the seat picker): it follows
    // each view its own way from a fresh one, its sand timer running from the first.
    Object.assign(game, { listens: watch.listens, onView: watch.onView });
    acts.refresh();
  }
}

function render() {
  if (!booted) return;
  // A journal in trouble shows nothing but itself until the table chooses.
  const found = state.info?.journal ? { screen: screenOf('journal', 'renderJournal'), id: null, watch: null } : route();
  followScreen(found);
  const { screen } = found;
  // A game speaks its own words (its edition's, its stories'); a setup screen sets its own.
  setDialect(state.game?.snapshot?.dialect);
  document.body.dataset.device = state.info?.device ?? '';
  showScreen(screen(context()));
}

/** What the game on screen is sent (`act.js`): on the game on screen when it is sent. */
const acts = actsOn({
  game: () => state.game,
  offline: () => state.offline,
  reachable,
  showSnapshot,
  refused(game, error) {
    game.refused = { message: error.message, code: error.code };
    render();
  },
  render,
});

/** The saves of the table's settings, one after another. */
let saved = Promise.resolve();

/** The table's settings changed by this screen: `change` merged into them, or made from them
 * (`change(settings)`, null for nothing to save) as they stand when it is sent. Saves go one
 * after another, each onto what the one before kept, so two quick changes both stay (a
 * screen's drawing holds older settings). Resolves to what the server keeps. */
function saveSettings(change) {
  const send = async () => {
    const made = typeof change === 'function' ? change(state.settings) : change;
    if (made) state.settings = await api('/settings', { method: 'PUT', body: { ...state.settings, ...made } });
    return state.settings;
  };
  const sent = saved.then(send, send);
  saved = sent.catch(() => {});
  return sent;
}

// A screen waking from sleep asks again: the timer and the game may have moved on.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && state.game?.snapshot) acts.refresh();
});

/** Whether game `id` is on screen still. */
const onScreen = (id) => state.game?.id === id;

/** What a screen is handed, as things are now. */
const context = () => contextOf(state, { ...acts, render, showScreen, saveSettings, onScreen, now: () => context() });

const notices = [document.getElementById('toast'), document.getElementById('offline')];

/** Puts `node` on screen as the whole page, patched over what is there (`patch`): a press,
 * a focus or what is being typed survives it. Its bar says the connection as it is. A screen
 * with a `.notices` place (with a phone's bar, or a game's) takes the toast and the reconnect
 * banner there, where they lie over the page (game.css says where) and neither make the bar
 * taller nor push the page down; elsewhere they float. A screen whose root says
 * `data-awake="true"` keeps the screen from sleeping. */
function showScreen(node) {
  const app = document.getElementById('app');
  patch(app, node, notices);
  const place = app.querySelector('.notices') ?? document.body;
  for (const notice of notices) if (notice.parentNode !== place) place.append(notice);
  updateStatus();
  // The wake lock's module comes with the first screen that wants it.
  const awake = app.firstElementChild?.dataset?.awake === 'true';
  if (awake || loaded.awake) call('awake', 'keepAwake', awake, isTable());
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
    // A timer on screen stops where it was.
    for (const { cues } of Object.values(SCREENS)) cues.freeze?.();
  } else {
    state.restored = true;
    if (!state.game) back(null);
    for (const resolve of waiting.splice(0)) resolve();
  }
}

/** Says the server is back, with what the first snapshot since shows (of the game on
 * screen, if any). */
async function back(snapshot) {
  state.restored = false;
  const timer = snapshot?.timer;
  const time = timer?.interrupted && registered(state.game.kind)?.cues.time;
  toast(time ? t('offline.back_timer', { time: await time(timer.remaining_ms) }) : t('offline.back'));
}

/** Whether a closed socket means the server is out of reach (not a seat freed, say). */
function probe() {
  api('/info').then((info) => {
    // Back as a newer version: its screens expect facts this page's start did not fetch.
    if (info.version !== state.info?.version) location.reload();
    else setOffline(false);
  }, (error) => setOffline(error instanceof Offline));
}

/** Goes on to game `next`, the rematch of the game on screen: the same screen of it, and
 * this phone's seat in it (the server gave its token the same seat there). */
function goOn(next) {
  const { id } = state.game;
  const held = mySeat(id);
  if (held) keepSeat(next, held);
  toast(t('ending.rematch_started'));
  location.hash = location.hash.replace(new RegExp(`/${id}(?=/|$)`), `/${next}`);
}

/** Takes a snapshot of the game on screen (from the socket or a request) and shows it. */
function showSnapshot(snapshot) {
  if (!state.game || snapshot.game !== state.game.id) return;
  if (state.game.snapshot && snapshot.version < state.game.snapshot.version) return;
  // A rematch was started: its screens go on to it, and a phone always does, its seat kept;
  // a game opened again afterwards (to look back at it) stays.
  const before = state.game.snapshot;
  if (snapshot.rematch != null && (state.game.seat || (before && before.rematch == null))) {
    goOn(snapshot.rematch);
    return;
  }
  if (state.restored) back(snapshot);
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
      // Before the facts are in, boot says which language this screen speaks.
      if (!booted) break;
      call('player', 'configure', message.settings.sound);
      if (speaks() !== language()) await setLanguage(speaks());
      render();
      break;
    case 'view':
      showSnapshot(message.snapshot);
      break;
    case 'knock':
      if (state.game?.id === message.game && state.game.role === 'table') {
        const screens = registered(state.game.kind);
        if (screens && route().screen === screens.pages.game[0]) screens.cues.knocked?.(message.times);
      }
      break;
  }
  updateStatus();
}

/** The language this screen speaks: its own choice; else, on a phone or a watcher, its
 * browser's where Séance speaks it, else the table's; on the table, the table's choice,
 * else its browser's (the window's: its machine's). */
const speaks = () => deviceLanguage()
  ?? (isTable() ? state.settings.language ?? browserLanguage() : browserLanguage() ?? state.settings.language)
  ?? 'en';

/** The table's facts, asked again until it answers: a phone on a weak Wi-Fi says it is
 * reaching the table (once its `words` are in) rather than stay blank. */
async function factsOf(words) {
  for (;;) {
    try {
      const { settings, ...info } = await api('/info');
      return [info, settings];
    } catch (error) {
      if (!(error instanceof Offline)) throw error;
      await words;
      setOffline(true);
      await new Promise((resolve) => { setTimeout(resolve, 2000); });
    }
  }
}

/** Whether the words and the table's facts are in: screens wait for them. */
let booted = false;

async function boot() {
  takeCode();
  // Ask for everything at once: the words (in the table's language, in which the page
  // came: they are on their way already), the table's facts, and the live socket, on the
  // screen's game if it shows one.
  const words = setLanguage(deviceLanguage() ?? document.documentElement.lang);
  // A phone in another of Séance's languages than the table's fetches its words meanwhile.
  const own = browserLanguage();
  if (own && own !== document.documentElement.lang) prefetchLanguage(own);
  const facts = factsOf(words);
  follow = connect(onMessage, (connection) => {
    state.connection = connection === 'lost' ? 'closed' : connection;
    if (connection === 'open') setOffline(false);
    else if (connection === 'lost') {
      // Heard nothing: the link is down though nothing closed. Said at once; what was on
      // its way is given up, to be sent again once the table answers.
      setOffline(true);
      giveUp();
    } else probe();
    updateStatus();
    // A phone's socket refused or closed: ask why (the table may have freed its seat).
    if ((connection === 'closed' || connection === 'refused') && state.game?.seat) acts.refresh();
  });
  const first = route();
  // The screen's game is asked for at once too (a socket opens a round trip later than a
  // request), and the screen is first drawn with it.
  let viewed = null;
  if (first.id === null) {
    follow(null);
    if (first.screen === HOME) load('home');
  } else {
    followScreen(first);
    viewed = acts.refresh();
  }
  try {
    [state.info, state.settings] = await facts;
    setOffline(false);
  } catch (error) {
    follow.close();
    await words;
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      document.getElementById('app').replaceChildren((await load('code')).renderCodeEntry(error.status === 403, boot));
      return;
    }
    throw error;
  }
  // The secret is good: this device may now add Séance to its home screen with it.
  document.querySelector('link[rel=manifest]')?.remove();
  document.head.append(h('link', { rel: 'manifest', href: manifestUrl() }));
  // The table's language, unless this device chose its own.
  const speaking = words.then(() => (speaks() !== language() ? setLanguage(speaks()) : null));
  if (state.info.journal) {
    // The journal waits for the table's choice: no game, no socket, until it is made.
    follow.close();
    await speaking;
    booted = true;
    render();
    return;
  }
  await Promise.all([speaking, viewed]);
  booted = true;
  window.addEventListener('hashchange', render);
  render();
  // The sound's module comes after the screen.
  call('player', 'configure', state.settings.sound);
}

// Whatever goes wrong on this screen is said, never swallowed: the game is safe on the
// table's server, and a reload brings the screen back.
// Each is kept on the page's root too, where the tests look for it after every tap.
function failed(message) {
  const root = document.documentElement;
  root.dataset.errors = JSON.stringify([...JSON.parse(root.dataset.errors ?? '[]'), String(message)].slice(-10));
  toast(t('error.generic', { message }));
}
window.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof Offline) return; // the reconnecting state says so
  failed(event.reason?.message ?? event.reason);
});
window.addEventListener('error', (event) => failed(event.message));

boot();
