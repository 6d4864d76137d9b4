// Tells a phone's player that something is for them (the sand ran out, their vote is
// called, news of them): a buzz where the phone can vibrate, else a short chime (an
// iPhone cannot vibrate from a web page), which the player may switch off. Browsers let
// sound out only after a tap (Safari in the tap's own handler), so a tap readies the
// chime, and so does switching it on.

const CHIME_KEY = 'seance.chime';

/** The sound's module, fetched with a seat's screen (after the first screen: a phone
 * joining waits for none of it); a tap's handler uses it once it is here. */
let player = null;
import('./sound/player.js').then((module) => { player = module; });

/** Whether this phone can buzz. */
export const vibrates = () => 'vibrate' in navigator;

/** Whether this phone chimes where it cannot buzz (on unless its player switched it off). */
export const chimes = () => localStorage.getItem(CHIME_KEY) !== 'off';

/** Switches the chime on (chiming once, from the tap, so it is heard and let out) or off. */
export function setChimes(on) {
  if (on) localStorage.removeItem(CHIME_KEY);
  else localStorage.setItem(CHIME_KEY, 'off');
  if (on) player?.chime();
}

/** Lets the chime's sound out from a tap: Safari counts a tap's end (`click`), not its
 * start, and a tap that did not let it out (the chime was off, the module not yet here)
 * leaves the next to try. */
function unlockOnTap() {
  if (!chimes() || !player) return;
  player.unlock();
  document.removeEventListener('click', unlockOnTap, true);
}

if (!vibrates()) document.addEventListener('click', unlockOnTap, true);

/** Buzzes, or chimes, once. */
export function tell() {
  if (vibrates()) navigator.vibrate(200);
  else if (chimes()) player?.chime();
}
