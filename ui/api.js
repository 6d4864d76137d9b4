// The one transport: HTTP for requests, a WebSocket for changes, both carrying this
// device's secret: the join code (a phone or a watcher) or the table key (the table).

import { refusal, t } from './i18n.js';

const CODE_KEY = 'seance.code';
const SEATS_KEY = 'seance.seats';

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
  localStorage.setItem(CODE_KEY, code);
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
export function mySeat(game) {
  return JSON.parse(localStorage.getItem(SEATS_KEY) ?? '{}')[game] ?? null;
}

export function keepSeat(game, held) {
  const seats = JSON.parse(localStorage.getItem(SEATS_KEY) ?? '{}');
  if (held) seats[game] = held;
  else delete seats[game];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

/** `seat` is this phone's seat token, for what only its seat may see or do; `raw`, a body
 * sent as it is (a file's text, for the server to judge). */
export async function api(path, { method = 'GET', body, seat, raw } = {}) {
  const response = await request(path, { method, body, seat, raw });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data, response.statusText);
  return data;
}

function request(path, { method = 'GET', body, seat, raw } = {}) {
  const headers = { Authorization: `Bearer ${localStorage.getItem(CODE_KEY) ?? ''}` };
  if (seat) headers['X-Seat'] = seat;
  if (body !== undefined || raw !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(`/api${path}`, {
    method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  }).catch(() => { throw new Offline(); });
}

/** Saves what `path` answers as the file `name` (the table's history, say). */
export async function download(path, name) {
  const response = await request(path);
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null), response.statusText);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** The query a screen reads its game as: a phone's seat is its token's, sent beside
 * (`X-Seat`); the table names the role it reads. */
export const readingAs = ({ role, seat }) => (seat ? '' : `?role=${encodeURIComponent(role)}`);

/** This device's secret as a query parameter, for what cannot send headers. */
const secret = () => `code=${encodeURIComponent(localStorage.getItem(CODE_KEY) ?? '')}`;

/** The QR code of game `game`'s BG Stats link (`kind` `games` or `rummy`). */
export function bgStatsQrUrl(game, kind) {
  return `/api/${kind}/${game}/bgstats.png?${secret()}`;
}

/** The QR code image's address (images cannot send headers); with a game (of `kind`
 * `games` or `rummy`), the code leads to that game's seats. */
export function qrUrl(game = null, kind = 'games') {
  return `/api/qr.png?${secret()}${game === null ? '' : `&${kind}=${game}`}`;
}

/** The web app manifest's address: added to a home screen, Séance opens with this secret. */
export function manifestUrl() {
  return `/api/manifest.webmanifest?${secret()}`;
}

/**
 * Keeps a WebSocket open, reconnecting with a growing delay.
 * onMessage(json) for each change; onState('open' | 'closed' | 'refused').
 * Returns follow(game, role, seat, kind): from then on the socket also carries that role's
 * view of that game (a Mysterium game, or `kind` 'rummy'), opened by the seat's token
 * (follow(null) for none); it reconnects at once.
 */
export function connect(onMessage, onState) {
  let delay = 500;
  let watched = '';
  let socket = null;
  let stopped = false;
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const mine = new WebSocket(`${scheme}://${location.host}/api/ws?${secret()}${watched}`);
    socket = mine;
    let greeted = false;
    mine.onmessage = (event) => {
      if (event.data === 'pong' || socket !== mine) return;
      const message = JSON.parse(event.data);
      if (message.type === 'hello') { greeted = true; delay = 500; onState('open'); }
      onMessage(message);
    };
    mine.onclose = () => {
      if (socket !== mine) return;
      onState(greeted ? 'closed' : 'refused');
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  // The first call opens the socket, already following the screen's game.
  const follow = (game, role = 'table', seat = null, kind = 'games') => {
    const next = game == null ? ''
      : `&${kind}=${encodeURIComponent(game)}${seat ? `&seat=${encodeURIComponent(seat)}` : `&role=${encodeURIComponent(role)}`}`;
    if (next === watched && socket) return;
    watched = next;
    stopped = false;
    const old = socket;
    socket = null;
    old?.close();
    open();
  };
  /** Closes the socket for good. */
  follow.close = () => {
    stopped = true;
    const old = socket;
    socket = null;
    old?.close();
  };
  return follow;
}
