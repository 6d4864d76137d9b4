// The one transport: HTTP for requests, a WebSocket for changes, both carrying this
// device's secret: the join code (a phone or a watcher) or the table key (the table).

import { refusal, t } from './i18n.js';
import { CODE_KEY, SEATS_KEY, gamePath, heldSeat, readingAs, secret, taken } from './ask.js';

export { gamePath, readingAs };

/** Takes the secret from the table link (`?key=`) or the join link (`?code=`), then hides
 * it from the address bar; or from storage. */
export function takeCode() {
  const url = new URL(location.href);
  const fromLink = url.searchParams.get('key') ?? url.searchParams.get('code');
  if (fromLink) {
    localStorage.setItem(CODE_KEY, fromLink);
    url.searchParams.delete('key');
    url.searchParams.delete('code');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  return localStorage.getItem(CODE_KEY);
}

export function setCode(code) {
  localStorage.setItem(CODE_KEY, normalCode(code));
}

/** A code as people type it (spaces, any dash a keyboard makes, any case, I or L for 1, O for
 * 0) in the form the table shows a join code, `ABCDE-FGHJK`; a longer one (the table's key)
 * without its spaces and dashes. A code has only letters and digits: anything else typed is
 * left out (a header could not carry it, and the table would never be reached). */
export function normalCode(typed) {
  const plain = typed.toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0').replace(/[^A-Z0-9]/g, '');
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain;
}

/** A refused request: `code` and `params` as the API sends them, the message in this
 * screen's language. */
export class ApiError extends Error {
  constructor(status, body, fallback) {
    super(body?.code ? refusal(body) : body?.error ?? fallback);
    this.status = status;
    this.code = body?.code ?? null;
    this.params = body?.params ?? {};
  }
}

/** The table's server could not be reached at all (it stopped, or the network dropped):
 * the screen's reconnecting state says so, not a toast. */
export class Offline extends Error {
  constructor() {
    super(t('offline.title'));
  }
}

/** The seat this phone holds in `game`: { seat: 'ghost' | 'psychic:N' | 'player:N', token }, or null. */
export const mySeat = heldSeat;

export function keepSeat(game, held) {
  const seats = JSON.parse(localStorage.getItem(SEATS_KEY) ?? '{}');
  if (held) seats[game] = held;
  else delete seats[game];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
  if (held) rememberGivenBack(game, false);
}

const GIVEN_BACK_KEY = 'seance.given-back';

/** Kept for this tab (through a reload), not for good: said on the seat picker it opens. */
function rememberGivenBack(game, given) {
  const games = new Set(JSON.parse(sessionStorage.getItem(GIVEN_BACK_KEY) ?? '[]'));
  if (given) games.add(game);
  else games.delete(game);
  sessionStorage.setItem(GIVEN_BACK_KEY, JSON.stringify([...games]));
}

/** Forgets this phone's seat in `game`: the table gave it back (freed it, or left it out of
 * a rematch). The game's seat picker says so until the phone takes a seat again. */
export function seatGivenBack(game) {
  keepSeat(game, null);
  rememberGivenBack(game, true);
}

/** Whether the table gave this phone's seat in `game` back. */
export function givenBack(game) {
  return JSON.parse(sessionStorage.getItem(GIVEN_BACK_KEY) ?? '[]').includes(game);
}

/** `seat` is this phone's seat token, for what only its seat may see or do; `raw`, a body
 * sent as it is (a file's text, for the server to judge). */
export function api(path, { method = 'GET', body, seat, raw } = {}) {
  return request(path, { method, body, seat, raw }, async (response) => {
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new ApiError(response.status, data, response.statusText);
    return data;
  });
}

/** How long a request may go unanswered before the table counts as out of reach: a Wi-Fi
 * that drops bytes closes nothing, and a request on it would wait for ever. A file sent
 * whole (`raw`: a history brought in) or taken whole (`download`) has longer. */
const ANSWER_WITHIN = 10_000;
const FILE_WITHIN = 120_000;

/** Requests on their way, each with its abort: all are given up at once when the link is
 * found lost ([`giveUp`]), so a command tapped then waits for the link's return, not for its
 * own time-out. */
const underway = new Set();

/** Gives up every request on its way: each fails as `Offline`. */
export function giveUp() {
  for (const abort of underway) abort();
}

/** Sends a request and reads its answer with `read(response)`, both within the time-out;
 * a request that fails on the way, or times out, is `Offline`. */
async function request(path, { method = 'GET', body, seat, raw, long = raw !== undefined } = {}, read = (response) => response) {
  const headers = { Authorization: `Bearer ${secret()}` };
  if (seat) headers['X-Seat'] = seat;
  if (body !== undefined || raw !== undefined) headers['Content-Type'] = 'application/json';
  const stop = new AbortController();
  const abort = () => stop.abort();
  const timer = setTimeout(abort, long ? FILE_WITHIN : ANSWER_WITHIN);
  underway.add(abort);
  // The page may have asked it already (`ask.js`): that answer is taken, within this time.
  const early = method === 'GET' ? taken(path, seat) : null;
  try {
    const response = await (early ? within(early, stop.signal) : fetch(`/api${path}`, {
      method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)), signal: stop.signal,
    }));
    return await read(response);
  } catch (error) {
    if (error instanceof ApiError || error instanceof SyntaxError) throw error;
    throw new Offline();
  } finally {
    clearTimeout(timer);
    underway.delete(abort);
  }
}

/** `answer`, or a failure once `signal` aborts. */
const within = (answer, signal) => Promise.race([answer, new Promise((_, reject) => {
  signal.addEventListener('abort', () => reject(signal.reason));
})]);

/** Saves what `path` answers as the file `name` (the table's history, say). */
export async function download(path, name) {
  const blob = await request(path, { long: true }, async (response) => {
    if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null), response.statusText);
    return response.blob();
  });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** This device's secret as a query parameter, for what cannot send headers. */
const secretQuery = () => `code=${encodeURIComponent(secret())}`;

/** The QR code of the BG Stats link of game `game` of the rule set under `kind`. */
export function bgStatsQrUrl(kind, game) {
  return `/api${gamePath(kind, game, 'bgstats.png')}?${secretQuery()}`;
}

/** The QR code image's address (images cannot send headers); with a game (`game` of the
 * rule set under `kind`), the code leads to that game's seats. */
export function qrUrl(kind = null, game = null) {
  return `/api/qr.png?${secretQuery()}${game === null ? '' : `&${kind}=${game}`}`;
}

/** The web app manifest's address: added to a home screen, Séance opens with this secret. */
export function manifestUrl() {
  return `/api/manifest.webmanifest?${secretQuery()}`;
}

/** How long an open socket may be silent before its link counts as lost: the server says
 * something (`beat`, if nothing else) every 3 s, so a beat missed and the next late; checked
 * four times a second, a drop is said within 6 s. */
const SILENT_MOST = 5500;
/** How long a socket may take to open before it is tried again (with the growing delay). */
const OPEN_WITHIN = 10_000;
/** How often the silence is checked. */
const CHECK_EVERY = 250;
/** A check this late finds a page that slept (a phone's screen off, a tab in the
 * background), not a link that went silent. */
const SLEPT_AFTER = 3000;

/**
 * Keeps a WebSocket open, reconnecting with a growing delay.
 * onMessage(json) for each change; onState('open' | 'closed' | 'refused' | 'lost'): `lost`
 * when the socket stayed open but heard nothing for [`SILENT_MOST`] (a Wi-Fi that drops
 * bytes closes nothing): it is let go, and another is opened at once.
 * Returns follow(game, kind, role, seat): from then on the socket also carries that role's
 * view of game `game` of the rule set under `kind`, opened by the seat's token
 * (follow(null) for none); it reconnects at once.
 */
export function connect(onMessage, onState) {
  let delay = 500;
  let watched = '';
  let socket = null;
  let stopped = false;
  let heard = 0;
  let opened = 0;
  let retry = null;
  const again = (after) => {
    clearTimeout(retry);
    retry = setTimeout(open, after);
  };
  /** Lets `mine` go without waiting for its close to come through a dead link. */
  const letGo = (mine) => {
    if (socket === mine) socket = null;
    mine.onopen = null;
    mine.onmessage = null;
    mine.onclose = null;
    mine.close();
  };
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const mine = new WebSocket(`${scheme}://${location.host}/api/ws?${secretQuery()}${watched}`);
    socket = mine;
    opened = performance.now();
    let greeted = false;
    // Its silence counts from when it opens.
    mine.onopen = () => { heard = performance.now(); };
    mine.onmessage = (event) => {
      if (socket !== mine) return;
      heard = performance.now();
      if (event.data === 'beat' || event.data === 'pong') return;
      const message = JSON.parse(event.data);
      if (message.type === 'hello') { greeted = true; delay = 500; onState('open'); }
      onMessage(message);
    };
    mine.onclose = () => {
      if (socket !== mine) return;
      socket = null;
      onState(greeted ? 'closed' : 'refused');
      again(delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  // Silence on an open socket is a lost link: said at once, and tried again. A socket that
  // does not open is tried again later, as one that closed.
  let checked = performance.now();
  const check = () => {
    const now = performance.now();
    const slept = now - checked > SLEPT_AFTER;
    checked = now;
    if (!socket || stopped) return;
    if (socket.readyState === WebSocket.CONNECTING) {
      if (now - opened <= OPEN_WITHIN) return;
      letGo(socket);
      onState('closed');
      again(delay);
      delay = Math.min(delay * 2, 8000);
    } else if (slept) {
      // Back from sleep: its link is asked whether it stands, and given the full silence.
      heard = now;
      if (socket.readyState === WebSocket.OPEN) socket.send('ping');
    } else if (now - heard > SILENT_MOST) {
      letGo(socket);
      onState('lost');
      again(0);
    }
  };
  let checking = null;
  // The first call opens the socket, already following the screen's game.
  const follow = (game, kind = null, role = 'table', seat = null) => {
    const next = game == null ? ''
      : `&${kind}=${encodeURIComponent(game)}${seat ? `&seat=${encodeURIComponent(seat)}` : `&role=${encodeURIComponent(role)}`}`;
    if (next === watched && socket) return;
    watched = next;
    stopped = false;
    checking ??= setInterval(check, CHECK_EVERY);
    if (socket) letGo(socket);
    again(0);
  };
  /** Closes the socket for good. */
  follow.close = () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(checking);
    checking = null;
    if (socket) letGo(socket);
  };
  return follow;
}
