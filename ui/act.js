// What a game's screens send: commands, undo and redo, each based on the version on screen,
// and the sand timer's buttons, all to the game on screen as this device's seat. A refusal
// changes nothing and is said in a toast; a stale screen is brought up to date first. The
// app makes these ways once (`actsOn`) and hands them to every screen in its context.

import { ApiError, Offline, api, gamePath, readingAs, seatGivenBack } from './api.js';
import { toast } from './dom.js';
import { t } from './i18n.js';
import { byKey, pageOf } from './rule_sets.js';

/** How long an answer may take before the screen says it is sending: a tap that seems to
 * do nothing is tapped again. */
const SAY_SENDING_AFTER = 300;

/** What the server says to a phone whose seat's token holds that seat no more. */
const GIVEN_BACK = ['seat_freed', 'not_your_seat'];

/** A short fingerprint of `text` (FNV-1a), for action ids. */
function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The seat picker of `game`, in place of a phone's screen whose seat it does not hold
 * (given back by the table, or never taken on this phone): its picker says which. */
export function pickAnotherSeat(game) {
  if (game.seat) seatGivenBack(game.id);
  location.replace(pageOf(byKey(game.kind).name, 'join', game.id));
}

/**
 * The ways to act on the game on screen, over the app's: `game()` (the game on screen now,
 * with its latest snapshot), `offline()` (the table out of reach), `reachable()` (resolves
 * once it is in reach), `showSnapshot(snapshot)`, `refused(game, error)` (the game could not
 * be read) and `render()`.
 */
export function actsOn(app) {
  /** Commands on their way: while any is, the screen says "sending…" (at once while the
   * table is out of reach). */
  let sending = 0;
  let sayTimer = null;

  function saySending() {
    const el = document.getElementById('sending');
    if (!el) return;
    el.hidden = sending === 0;
    el.textContent = t(app.offline() ? 'sending.held' : 'sending.now');
  }

  /** Marks a command on its way (`by` +1) or answered (-1). */
  function underway(by) {
    sending += by;
    clearTimeout(sayTimer);
    if (sending === 0 || app.offline()) saySending();
    else sayTimer = setTimeout(saySending, SAY_SENDING_AFTER);
  }

  /** Fetches the game on screen again (after a refusal, or when a sleeping screen wakes). */
  async function refresh() {
    const game = app.game();
    if (game == null) return;
    try {
      const snapshot = await api(`${gamePath(game.kind, game.id)}${readingAs(game)}`, { seat: game.seat });
      // Shown only while the screen still follows the game as it asked (a seat taken
      // meanwhile follows it as that seat).
      if (app.game() === game) app.showSnapshot(snapshot);
    } catch (error) {
      if (error instanceof Offline) return; // the reconnecting state says so
      if (!(error instanceof ApiError)) throw error;
      if (game.seat && GIVEN_BACK.includes(error.code)) return pickAnotherSeat(game);
      // A game that cannot be read: its screen says so.
      app.refused(game, error);
    }
  }

  /** Sends `body` to `path` of `game` until it gets there: a link lost on the way (the
   * request failed, timed out or was given up) waits for the table to be in reach and sends
   * the very same body again; the command's action id makes it one action however many
   * times it arrives. */
  async function deliver(game, path, body) {
    underway(1);
    try {
      for (;;) {
        try {
          return await api(`${gamePath(game.kind, game.id)}${path}`, { method: 'POST', body, seat: game.seat });
        } catch (error) {
          if (!(error instanceof Offline)) throw error;
          saySending();
          // Found lost by the socket (its banner up), wait for its return; a request that
          // failed before the socket knew tries again a second later.
          await (app.offline() ? app.reachable() : new Promise((resolve) => { setTimeout(resolve, 1000); }));
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
  async function post(path, body, { quiet = false, surely = false } = {}) {
    const game = app.game();
    try {
      if (surely) return (await deliver(game, path, body)) ?? {};
      return (await api(`${gamePath(game.kind, game.id)}${path}`, { method: 'POST', body, seat: game.seat })) ?? {};
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

  /** Sends one command; resolves to the new version, or null when refused. Its action id is
   * the command on the version shown: tapped twice before the screen changes, or sent again
   * after a lost link, it is one action, acknowledged each time. The answer brings this
   * screen's new snapshot. */
  async function act(type, fields = {}, options = {}) {
    const game = app.game();
    const version = game.snapshot.version;
    const sent = { type, ...fields };
    const action = `${version}-${fingerprint(JSON.stringify(sent))}`;
    const answer = await post(`/commands${readingAs(game)}`, { version, command: sent, action }, { ...options, surely: true });
    if (answer) app.showSnapshot(answer.snapshot);
    // What the table shows first (the count's lines, the verdict): the other screens are
    // told once it is painted here, a frame after it is drawn.
    if (answer?.held) {
      const shown = () => {
        if (app.game() === game) post('/shown', { version: answer.version }, { quiet: true });
      };
      requestAnimationFrame(() => requestAnimationFrame(shown));
    }
    return answer?.version ?? null;
  }

  /** `undo` or `redo`. */
  async function rewind(how) {
    const answer = await post(`/${how}`, { version: app.game().snapshot.version });
    if (answer) await refresh();
  }

  /** pause, resume or reset. */
  async function timer(action) {
    if (await post('/timer', { action })) await refresh();
  }

  return { act, post, rewind, timer, refresh };
}
