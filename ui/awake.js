// Keeps the screen awake while it is wanted: the table's during a game, a phone's while it
// holds a seat in a game in play. A screen says whether it wants it by `data-awake` on its
// root (see showScreen in app.js); this module holds the Screen Wake Lock, asks again when
// the screen comes back into view (the system drops the lock when it is hidden), and says
// where the browser cannot (over the table's local http address, most cannot: the API is
// given to https pages only).

let wanted = false;
let lock = null;
let asking = false;
/** 'held', 'missing' (the browser has no wake lock here), 'refused' (it said no: battery
 * saver, say) or 'off' (not wanted now). */
let state = 'off';
let changed = () => {};

/** Calls `listener` when whether the screen is kept awake changes. */
export function onAwakeChange(listener) {
  changed = listener;
}

/** Whether the screen is kept awake: see `state`. */
export function awake() {
  return state;
}

function settle(next) {
  if (next === state) return;
  state = next;
  document.documentElement.dataset.awake = next;
  changed();
}

async function take() {
  if (!('wakeLock' in navigator)) return settle('missing');
  if (lock || asking || document.visibilityState !== 'visible') return undefined;
  asking = true;
  try {
    const taken = await navigator.wakeLock.request('screen');
    lock = taken;
    // A late word from a lock let go must not forget the one held since.
    taken.addEventListener('release', () => { if (lock === taken) lock = null; });
    // Not wanted any more while it was asked for: let go at once.
    if (!wanted) return keepAwake(false);
    return settle('held');
  } catch {
    // The game is safe on the table's server whether or not the screen sleeps.
    return settle('refused');
  } finally {
    asking = false;
  }
}

/** Keeps the screen awake (`on`) or lets it sleep. Once refused, it is asked again only
 * when the screen comes back into view, not at every render. */
export function keepAwake(on) {
  wanted = on;
  if (on) return state === 'refused' ? undefined : take();
  lock?.release();
  lock = null;
  return settle('off');
}

document.addEventListener('visibilitychange', () => {
  if (wanted && document.visibilityState === 'visible') {
    if (state === 'refused') state = 'off';
    take();
  }
});
