// What a screen is handed, and all it is handed: a screen is a function of its context. The
// app (`app.js`) keeps its state to itself and makes a context for each drawing; no screen
// imports the state, or this module (`crates/server/tests/ui_imports.rs` holds `ui/` to it).
// What a device may do now is the rules' answer on the server (a snapshot's `allowed`, with
// each action's choices): a screen asks its context (`ctx.may`, `ctx.choices`) and draws its
// buttons from the answer; it never works a rule out.

/** The action of `type` open to the device `snapshot` was made for, whose fields match
 * `fields`, or null. */
function may(snapshot, type, fields = {}) {
  return snapshot?.allowed?.find((a) => a.type === type
    && Object.entries(fields).every(([k, v]) => a[k] === v)) ?? null;
}

/** The choices `key` (`psychics`, `groups`, `cards`…) of the action `type`, or none. */
function choices(snapshot, type, key, fields = {}) {
  return may(snapshot, type, fields)?.[key] ?? [];
}

/**
 * The context of one drawing, from the app's `state` and its `ways`:
 * - `info`, `settings`: the table's facts and settings as the server last said them;
 *   `table`: whether this device is the table (the server said so from its credentials);
 * - `game`: the game on screen (`id`, `kind` — its rule set's key —, the `role` it is seen
 *   as, the phone's `seat` token, and why it could not be read, `refused`), or null;
 *   `snapshot`, `view`: its latest snapshot and view; `me`: whose view it is (the view's
 *   `me`: a seat of its rule set, null for the table's);
 * - `may(type, fields)`, `choices(type, key, fields)`: what this device may do now;
 * - the app's ways: `act` (a command), `post`, `rewind` (undo, redo), `timer`, `refresh` (the
 *   game read again), `render` (drawn again), `showScreen` (a whole page), `saveSettings`
 *   (a change to the table's settings), `onScreen(id)` (whether game `id` is still shown),
 *   `now()` (the context as things are now: after an answer, the screen drawn again).
 */
export function contextOf(state, ways) {
  const game = state.game;
  const snapshot = game?.snapshot ?? null;
  const view = snapshot?.view ?? null;
  return Object.freeze({
    info: state.info,
    settings: state.settings,
    table: state.info?.device === 'table',
    game: game && Object.freeze({
      id: game.id, kind: game.kind, role: game.role, seat: game.seat, refused: game.refused ?? null,
    }),
    snapshot,
    view,
    me: view?.me ?? null,
    may: (type, fields) => may(snapshot, type, fields),
    choices: (type, key, fields) => choices(snapshot, type, key, fields),
    ...ways,
  });
}
