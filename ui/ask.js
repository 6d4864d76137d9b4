// The first questions a page asks the table's server, sent the moment the page is read:
// this module imports nothing and the page runs it on its own (`async`), so the answers are
// on their way while the app's modules still come (a round trip saved on a slow Wi-Fi).
// They are the questions the app's start asks (`app.js`'s boot): the table's facts (its
// settings with them) and the game the address shows, read as its screen reads it.
// `api.js` takes each answer the first time it asks the very same question, and asks for
// itself after.

/** Where this device's secret is kept: the table key, or the join code. */
export const CODE_KEY = 'seance.code';
/** Where the seats this phone holds are kept, by game: `{ seat, token }`. */
export const SEATS_KEY = 'seance.seats';

/** This device's secret: its link's (before the app takes it from the address bar), else
 * the one kept. */
export function secret() {
  const url = new URL(location.href);
  return url.searchParams.get('key') ?? url.searchParams.get('code') ?? localStorage.getItem(CODE_KEY) ?? '';
}

/** The seat this phone holds in `game`, or null. */
export function heldSeat(game) {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) ?? '{}')[game] ?? null;
  } catch {
    return null;
  }
}

/** A page's address (`#/game/{id}`) as a pattern: its game's number is the parameter;
 * `tail`, a pattern of what may follow it (an invitation's seat and secret). */
export const pattern = (page, tail = '') => new RegExp(`^${page.replace(/[/#]/g, '\\$&').replace('{id}', '(\\d+)')}${tail}$`);

/** The API's path of the games of the rule set under `key` (`/rummy`, where a new one is
 * posted), of its game `id` (`/rummy/3`) or of what is under it (`gamePath('rummy', 3,
 * 'seats')`), as the server's routes lay them out (`routes/games.rs`). Every game's path is
 * made here, this module's own questions' too. */
export const gamePath = (key, ...under) => ['', key, ...under].join('/');

/** The query a screen reads its game as: a phone's seat by its token, sent beside
 * (`X-Seat`); the table names the role it reads. */
export const readingAs = ({ role, seat }) => (seat ? '' : `?role=${encodeURIComponent(role)}`);

/** Answers asked for before the app came, by question, until taken. */
const asked = new Map();

const question = (path, seat) => `${secret()} ${path} ${seat ?? ''}`;

function ask(path, seat = null) {
  const headers = { Authorization: `Bearer ${secret()}` };
  if (seat) headers['X-Seat'] = seat;
  const answer = fetch(`/api${path}`, { headers });
  // Whatever goes wrong is the app's to say, when it asks.
  answer.catch(() => {});
  asked.set(question(path, seat), answer);
}

/** The answer to `path` (with `seat`) asked before the app came, once; else null. */
export function taken(path, seat) {
  const key = question(path, seat);
  const answer = asked.get(key) ?? null;
  asked.delete(key);
  return answer;
}

ask('/info');
// The game on screen: a phone's page reads it as the phone's seat where it holds one, any
// other page as the table (as `app.js`'s SCREENS follow them); another question asked by the
// app is simply asked then.
const told = document.getElementById('rule-sets');
for (const { key, pages } of told ? JSON.parse(told.textContent) : []) {
  for (const [page, address] of Object.entries(pages)) {
    const id = location.hash.match(pattern(address))?.[1];
    if (id === undefined) continue;
    const held = page === 'phone' ? heldSeat(id) : null;
    ask(`${gamePath(key, id)}${readingAs({ role: 'table', seat: held?.token })}`, held?.token);
  }
}
