// Tells a phone's player that something is for them (the sand ran out, their vote is
// called, news of them): a buzz where the phone can vibrate, else a short chime (an
// iPhone cannot vibrate from a web page), which the player may switch off. Browsers let
// sound out and buzz only after a tap on the page (Safari in the tap's own handler): a page
// reloaded or opened from a camera cannot alert its player until then, and says so on its
// screen, asking for one tap; any tap lets the alerts out again.

import { h } from './dom.js';
import { t } from './i18n.js';

const CHIME_KEY = 'seance.chime';

/** The sound's module, fetched with a seat's screen (after the first screen: a phone
 * joining waits for none of it); a tap's handler uses it once it is here. */
let player = null;
import('./sound/player.js').then((module) => { player = module; });

/** Whether this phone can buzz. */
export const vibrates = () => 'vibrate' in navigator;

/** Whether this phone chimes where it cannot buzz (on unless its player switched it off). */
export const chimes = () => localStorage.getItem(CHIME_KEY) !== 'off';

/** Whether the alerts are held back until a tap: the page has had none yet (where the
 * browser says), or an alert was refused. */
let held = navigator.userActivation ? !navigator.userActivation.hasBeenActive : false;

/** Draws the seat's screen again: the way its last drawing handed over (`alertsHeld`). */
let redraw = () => {};

function hold(on) {
  if (held === on) return;
  held = on;
  redraw();
}

/** Switches the chime on (chiming once, from the tap, so it is heard and let out) or off. */
export function setChimes(on) {
  if (on) localStorage.removeItem(CHIME_KEY);
  else localStorage.setItem(CHIME_KEY, 'off');
  if (on) player?.chime();
}

/** A tap lets the alerts out: the chime's sound is started from it (Safari counts a tap's
 * end, `click`, not its start), and a buzz is allowed after it. The screen is drawn again
 * once the tap has done what it does: drawn from here, before the tapped element's own
 * handling, it would replace what was tapped (a menu's summary would open a menu no longer
 * on screen). */
let unlocked = false;
document.addEventListener('click', () => {
  if (!vibrates() && chimes() && player && (held || !unlocked)) {
    player.unlock();
    unlocked = true;
  }
  if (held) setTimeout(() => hold(false));
}, true);

/** Buzzes, or chimes, once (once its sound's module is here); refused (no tap on this page
 * yet), the screen asks for one. */
export async function tell() {
  if (vibrates()) {
    if (!navigator.vibrate(200)) hold(true);
  } else if (chimes() && player && !(await player.chime())) {
    hold(true);
  }
}

/** The line a seat's screen shows while its alerts are held back: tapping it (or anything)
 * lets them out, and the screen is drawn again (`render`, its context's). */
export function alertsHeld(render) {
  redraw = render;
  if (!held || (!vibrates() && !chimes())) return null;
  return h('button', { id: 'alerts-held', type: 'button', class: 'alerts-held' }, t('alerts.held'));
}
