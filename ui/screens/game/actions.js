// What the game screen sends: commands, undo and redo, each based on the version on screen,
// and the sand timer's buttons. A refusal changes nothing and is said in a toast; a stale
// screen is brought up to date first.

import { ApiError, Offline, api, bgStatsQrUrl, readingAs, seatGivenBack } from '../../api.js';
import { h, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { isTable, reachable, render, state, showSnapshot } from '../../context.js';
import { may } from '../../allowed.js';
import { byKey, pageOf } from '../../rule_sets.js';

/** Fetches the game on screen again (after a refusal, or when a sleeping screen wakes). */
export async function refresh() {
  const game = state.game;
  if (game == null) return;
  try {
    showSnapshot(await api(`/${game.kind}/${game.id}${readingAs(game)}`, { seat: game.seat }));
  } catch (error) {
    if (error instanceof Offline) return; // the reconnecting state says so
    if (!(error instanceof ApiError)) throw error;
    if (game.seat && GIVEN_BACK.includes(error.code)) return pickAnotherSeat(game);
    // A game that cannot be read: its screen says so.
    game.refused = error.message;
    game.refusedCode = error.code;
    render();
  }
}

/** What the server says to a phone whose seat's token holds that seat no more. */
const GIVEN_BACK = ['seat_freed', 'not_your_seat'];

/** The seat picker of `game`, in place of a phone's screen whose seat it does not hold
 * (given back by the table, or never taken on this phone): its picker says which. */
export function pickAnotherSeat(game) {
  if (game.seat) seatGivenBack(game.id);
  location.replace(pageOf(byKey(game.kind).name, 'join', game.id));
}

/** The game on screen could not be shown (`game.refused`): why, and on the table, for a
 * game that cannot be read from its start, the way to set it aside and go on. */
export function unreadable(game) {
  const setAside = async () => {
    try {
      await api(`/${game.kind}/${game.id}/set-aside`, { method: 'POST' });
      location.hash = '#/games';
    } catch (error) {
      toast(error.message);
    }
  };
  return h('div', { id: 'unreadable', class: 'screen' },
    h('section', { class: 'panel', role: 'alert' },
      h('p', { class: 'banner damage' }, game.refused),
      h('div', { class: 'row' },
        isTable() && game.refusedCode === 'start_damaged'
          ? h('button', { id: 'set-aside-start', type: 'button', class: 'primary', onclick: setAside }, t('game.set_aside_start'))
          : null,
        h('a', { class: 'button', href: '#' }, t('game.home')))));
}

/** How long an answer may take before the screen says it is sending: a tap that seems to
 * do nothing is tapped again. */
const SAY_SENDING_AFTER = 300;

/** Commands on their way: while any is, the screen says "sending…" (at once while the
 * table is out of reach). */
let sending = 0;
let sayTimer = null;

function saySending() {
  const el = document.getElementById('sending');
  if (!el) return;
  el.hidden = sending === 0;
  el.textContent = t(state.offline ? 'sending.held' : 'sending.now');
}

/** Marks a command on its way (`by` +1) or answered (-1). */
function underway(by) {
  sending += by;
  clearTimeout(sayTimer);
  if (sending === 0 || state.offline) saySending();
  else sayTimer = setTimeout(saySending, SAY_SENDING_AFTER);
}

/** Sends `body` to `path` of `game` until it gets there: a link lost on the way (the
 * request failed, timed out or was given up) waits for the table to be in reach and sends
 * the very same body again; the command's action id makes it one action however many times
 * it arrives. */
async function deliver(game, path, body) {
  underway(1);
  try {
    for (;;) {
      try {
        return await api(`/${game.kind}/${game.id}${path}`, { method: 'POST', body, seat: game.seat });
      } catch (error) {
        if (!(error instanceof Offline)) throw error;
        saySending();
        // Found lost by the socket (its banner up), wait for its return; a request that
        // failed before the socket knew tries again a second later.
        await (state.offline ? reachable() : new Promise((resolve) => { setTimeout(resolve, 1000); }));
      }
    }
  } finally {
    underway(-1);
  }
}

/** Posts to the game on screen, as this device's seat: the answer (`{}` for one with no
 * body), or null when refused (the refusal toasted, unless `quiet`: a step the screen
 * takes on its own, which another screen may have taken first). `surely`: sent again
 * until it arrives (a command with its action id); else a lost link gives it up, and says
 * so (an undo, a knock, the timer: late, each would do what no one asked for any more). */
export async function post(path, body, { quiet = false, surely = false } = {}) {
  const game = state.game;
  try {
    if (surely) return (await deliver(game, path, body)) ?? {};
    return (await api(`/${game.kind}/${game.id}${path}`, { method: 'POST', body, seat: game.seat })) ?? {};
  } catch (error) {
    if (error instanceof Offline) {
      if (!quiet) toast(t('offline.not_sent'));
      return null;
    }
    if (!(error instanceof ApiError)) throw error;
    if (!quiet) toast(error.message);
    if (error.status === 409 || quiet) await refresh();
    return null;
  }
}

/** A short fingerprint of `text` (FNV-1a), for action ids. */
function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** Sends one command; resolves to the new version, or null when refused. Its action id is
 * the command on the version shown: tapped twice before the screen changes, or sent again
 * after a lost link, it is one action, acknowledged each time. The answer brings this
 * screen's new snapshot. */
export async function command(type, fields = {}, options = {}) {
  const version = state.game.snapshot.version;
  const sent = { type, ...fields };
  const action = `${version}-${fingerprint(JSON.stringify(sent))}`;
  const answer = await post(`/commands${readingAs(state.game)}`, { version, command: sent, action }, { ...options, surely: true });
  if (answer) showSnapshot(answer.snapshot);
  // What the table shows first (the count's lines, the verdict): the other screens are told
  // once it is painted here, a frame after it is drawn.
  if (answer?.held) {
    const game = state.game;
    const shown = () => {
      if (state.game === game) post('/shown', { version: answer.version }, { quiet: true });
    };
    requestAnimationFrame(() => requestAnimationFrame(shown));
  }
  return answer?.version ?? null;
}

export async function rewind(how) {
  const answer = await post(`/${how}`, { version: state.game.snapshot.version });
  if (answer) await refresh();
}

/** pause, resume or reset. */
export async function timer(action) {
  if (await post('/timer', { action })) await refresh();
}

/** Seats phones hold that the table has unticked for the rematch, by game. */
const dropped = new Map();

/** The seats the table has unticked in game `id`. */
function droppedIn(id) {
  if (!dropped.has(id)) dropped.set(id, new Set());
  return dropped.get(id);
}

/** The phones holding seats in the game on screen, each ticked to keep its seat in the
 * rematch (the table unticks one to free it there); `seats` lists the game's seats as
 * [name, label, colour]. Nothing where no phone holds a seat or no rematch is allowed. */
export function seatsKept(seats) {
  const { id, snapshot } = state.game;
  const held = snapshot.seats ?? [];
  if (!may('rematch') || !held.length) return null;
  const off = droppedIn(id);
  return h('fieldset', { id: 'rematch-seats', class: 'kept-seats' },
    h('legend', {}, t('ending.keep_seats')),
    seats.filter(([seat]) => held.includes(seat)).map(([seat, label, colour]) => h('label', {},
      h('input', {
        type: 'checkbox', 'data-keep': seat, checked: !off.has(seat),
        onchange: (event) => { if (event.target.checked) off.delete(seat); else off.add(seat); },
      }),
      colour ? h('span', { class: 'swatch', dataset: { colour } }) : null,
      label)));
}

/** "Play again" on an ending, where the rules allow it (what it keeps in its title): the
 * rematch is made on the server with the seats the table keeps ([`seatsKept`]), and every
 * screen of this game, this one too, goes on to it from its view. */
export function playAgain() {
  if (!may('rematch')) return null;
  return h('button', {
    id: 'rematch', type: 'button', class: 'primary', title: t('ending.rematch_hint'),
    onclick: async () => {
      const { id, snapshot } = state.game;
      const keep = (snapshot.seats ?? []).filter((seat) => !droppedIn(id).has(seat));
      if (await post('/rematch', { keep })) await refresh();
    },
  }, t('ending.rematch'));
}

/** The game over, sent to BG Stats: on the table a QR code a player's phone scans, on a
 * phone a button that opens BG Stats with the play filled in. */
export function toBgStats() {
  const { id, kind } = state.game;
  if (isTable()) {
    return h('figure', { id: 'bgstats', class: 'bgstats' },
      // The short link's 33 modules and their quiet zone, 5 screen pixels each: a phone
      // reads it off the table from where its players sit.
      h('img', { class: 'qr', src: bgStatsQrUrl(id, kind), alt: t('bgstats.qr_alt'), width: 205, height: 205 }),
      h('figcaption', { class: 'note' }, t('bgstats.scan')));
  }
  return h('button', {
    id: 'bgstats', type: 'button',
    onclick: async () => {
      try {
        location.href = (await api(`/${kind}/${id}/bgstats`)).url;
      } catch (error) {
        toast(error.message);
      }
    },
  }, t('bgstats.send'));
}
