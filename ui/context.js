// What the screens are handed: the state they show, whether this device is the table, and
// what they may ask of the app that shows them (to draw the screen again, to show a
// snapshot or a whole screen). The app (`app.js`) hands its ways over as it starts; a screen
// takes them from here, never from the app, so no module imports one that imports it back
// (`crates/server/tests/ui_imports.rs` holds `ui/` to it).

/**
 * What the screens show; changed only by what the server says. `game` is the game on
 * screen: its id, its kind (`games` for Mysterium, `rummy`), the role it is seen as, its
 * latest snapshot and when that arrived (performance.now()).
 */
export const state = { info: null, settings: null, connection: 'closed', devices: 0, game: null, offline: false };

/** Whether this device is the table (it opened the table link), not a phone or a watcher:
 * the server said so from its credentials. */
export const isTable = () => state.info?.device === 'table';

/** The app's ways, once it has handed them over (nothing is drawn before it starts). */
const app = { render() {}, showSnapshot() {}, showScreen() {} };

/** The app hands its ways over, once, as it starts. */
export function handOver(ways) {
  Object.assign(app, ways);
}

/** Draws the screen again, from the state as it is now. */
export const render = () => app.render();
/** Takes a snapshot of the game on screen (a command's answer) and shows it. */
export const showSnapshot = (snapshot) => app.showSnapshot(snapshot);
/** Puts `node` on screen as the whole page. */
export const showScreen = (node) => app.showScreen(node);

/** Those waiting for the table's server to be in reach again. */
const waiting = [];

/** Resolves once the table's server is in reach (at once while it is). */
export const reachable = () => (state.offline ? new Promise((resolve) => { waiting.push(resolve); }) : Promise.resolve());

/** The app says the table's server is in reach again: whoever waited goes on. */
export function cameBack() {
  for (const resolve of waiting.splice(0)) resolve();
}
