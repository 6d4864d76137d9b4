// Keeps the screen awake while it is wanted: the table's during a game, a phone's while it
// holds a seat in a game in play. A screen says whether it wants it by `data-awake` on its
// root (see showScreen in app.js). Two ways, the first the browser gives:
//
// - the Screen Wake Lock, which browsers give secure pages only (https, or this machine's
//   own address), and WebKit (every iPhone's browser) inside a tap only;
// - elsewhere — the table's local http address, where no browser has the wake lock — a
//   tiny silent video played inline, as NoSleep.js does: a browser keeps the screen on while
//   a video with sound plays. Safari (and every iPhone browser) only if it is not muted and
//   does not loop, Chrome only if it is audible (or big), Firefox only if it has a sound
//   track: so it has one, of silence, is not muted, and is sent back to its start before
//   its end rather than looped. Its sound needs a tap to start. It is fetched (`awake/`) the
//   first time it is needed, never on a phone's way to its seat.
//
// Whatever was refused is asked again at the next tap (a listener on the whole page), and
// when the screen comes back into view. Where neither way works, the screen says so once,
// under its bar, with what to do; a phone's menu keeps saying it.
//
// The table's own screen on the machine that serves it (the window) needs neither: the
// server keeps that machine awake itself (crates/server/src/awake.rs).

import { asset, h } from './dom.js';
import { t } from './i18n.js';

/** The silent video, as each browser plays it: H.264 and AAC for iPhones and most phones
 * (decoded by their hardware), VP8 and Opus for the browsers without H.264 (see
 * `awake/README.md`). */
const SOURCES = [['awake/silence.mp4', 'video/mp4'], ['awake/silence.webm', 'video/webm']];
/** Where this device remembers it was told its screen may sleep, and closed the notice. */
const TOLD = 'seance.awake-told';

let wanted = false;
/** Whether this device is the table (told with each screen, `keepAwake`). */
let onTable = false;
/** The wake lock held, if any. */
let lock = null;
/** A wake lock asked for and not answered yet. */
let asking = false;
/** The wake lock was refused even inside a tap: the video is played instead, from then on. */
let lockRefused = false;
/** The silent video, made the first time it is needed. */
let video = null;
/**
 * What keeps the screen awake, also said on the page's root (`<html data-awake>`):
 * 'held' (the wake lock), 'video' (the silent video plays), 'waiting-tap' (asked without a
 * tap and refused: the next tap asks again), 'host' (the table's own screen on the machine
 * that serves it, which the server keeps awake), 'missing' (no wake lock here, and the video
 * would not play even from a tap), 'refused' (the wake lock refused even in a tap, and the
 * video too), or 'off' (not wanted now).
 */
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
  notice();
  changed();
}

const kept = () => state === 'held' || state === 'video';
const failed = () => state === 'missing' || state === 'refused';
/** Neither way worked: said as what was missing. */
const fail = () => settle('wakeLock' in navigator ? 'refused' : 'missing');

/** The table's screen on the machine that serves it: its loopback address. */
function onHost() {
  const host = location.hostname;
  return onTable && (host === 'localhost' || host === '[::1]' || host.startsWith('127.'));
}

/** Asks for what keeps the screen awake, if it is wanted and not kept yet; `tap` says
 * whether a tap is being handled (a browser gives inside one what it refuses outside), and
 * `click` whether it is a click (a tap for certain, not the end of a scroll). */
function ask(tap, click = false) {
  if (!wanted || kept() || document.visibilityState !== 'visible') return;
  if ('wakeLock' in navigator && !lockRefused) {
    askLock(tap);
  } else if (onHost()) {
    settle('host');
  } else {
    play(click);
  }
}

async function askLock(tap) {
  if (lock || asking) return;
  asking = true;
  try {
    const taken = await navigator.wakeLock.request('screen');
    lock = taken;
    taken.addEventListener('release', () => {
      // A late word from a lock let go must not forget the one held since. The system lets
      // it go when the screen is hidden: asked again when it comes back.
      if (lock !== taken) return;
      lock = null;
      if (wanted) {
        settle('waiting-tap');
        ask(false);
      }
    });
    // Not wanted any more while it was asked for: let go at once.
    if (!wanted) return keepAwake(false, onTable);
    stopVideo();
    settle('held');
  } catch {
    // Refused inside a tap: it will not be given; the video is tried at the next tap (this
    // one's right to start a sound is spent once the answer comes).
    if (tap) lockRefused = true;
    if (wanted && !kept() && !failed()) settle(onHost() ? 'host' : 'waiting-tap');
  } finally {
    asking = false;
  }
}

/** The silent video, played: within a tap (`play` is called in the tap's own handler, as
 * Safari asks), or without one where the browser lets a page that was tapped before play. */
function play(click) {
  if (!video) video = silence();
  if (!video.isConnected) document.body.append(video);
  // Its files failed before (the network, say): tried again.
  if (video.networkState === video.NETWORK_NO_SOURCE) video.load();
  video.play().then(() => {
    if (!wanted || document.visibilityState !== 'visible') return stopVideo();
    return settle('video');
  }, (error) => {
    if (!wanted || kept()) return;
    // The end of a scroll is no tap, nor is a page opened anew: asked again at the next
    // tap. Refused in a click, or nothing here it can play: it will not work.
    if (error?.name === 'NotAllowedError' && !click) {
      if (!failed()) settle('waiting-tap');
    } else if (error?.name !== 'AbortError') {
      fail();
    }
  });
}

/** The video element: inline, in sight (a browser keeps the screen on for a video shown)
 * but a speck in a corner, out of every tap's way and every reader's. */
function silence() {
  const made = h('video', {
    id: 'awake-video', class: 'awake-video', playsinline: true, 'webkit-playsinline': true,
    preload: 'auto', disablepictureinpicture: true, disableremoteplayback: true,
    'aria-hidden': 'true', tabindex: '-1', title: 'Séance',
  }, SOURCES.map(([path, type]) => h('source', { src: asset(path), type })));
  made.muted = false;
  // Sent back to its start before its end: Safari keeps the screen on for no looping video.
  made.addEventListener('timeupdate', () => {
    if (made.duration > 2 && made.currentTime > made.duration - 1) made.currentTime = 0;
  });
  made.addEventListener('pause', () => {
    // Paused here, it was taken off the page first.
    if (!wanted || !made.isConnected) return;
    // Paused by the browser: ended, it plays again; another app took the sound (music, a
    // call), it waits for the next tap rather than take the sound back.
    if (state === 'video') settle('waiting-tap');
    if (made.ended) {
      made.currentTime = 0;
      ask(false);
    }
  });
  // No file it can play (each one's failure said on its <source>, after which the video
  // waits for another and its play() never answers): it will not work.
  const none = () => setTimeout(() => {
    if (made.networkState === made.NETWORK_NO_SOURCE && wanted && !kept()) fail();
  }, 50);
  for (const source of made.querySelectorAll('source')) source.addEventListener('error', none);
  return made;
}

/** Pauses the video and takes it off the page (kept, to be played again without a new
 * download). */
function stopVideo() {
  if (!video) return;
  video.remove();
  video.pause();
}

/** Says on the screen, once, under its bar, that it may go to sleep and what to do, while
 * neither way works; closed, it is not said again on this device (its menu still says it). */
function notice() {
  const shown = document.getElementById('awake-notice');
  let told = false;
  try { told = localStorage.getItem(TOLD) !== null; } catch { /* private browsing: said again */ }
  const screen = document.querySelector('#app > [data-awake="true"]');
  if (!wanted || !failed() || told || !screen) {
    shown?.remove();
    return;
  }
  const node = h('div', { id: 'awake-notice', class: 'awake-notice', role: 'status', 'data-awake': state },
    h('p', {}, t('awake.notice')),
    h('button', {
      type: 'button',
      onclick: () => {
        try { localStorage.setItem(TOLD, state); } catch { /* said again next time */ }
        node.remove();
      },
    }, t('awake.ok')));
  shown?.remove();
  // In the page, above what the screen shows (a phone's body, the table's board): never in
  // its bar.
  const body = screen.querySelector(':scope > .phone-body, :scope > .board, :scope > .panel');
  if (body) body.before(node);
  else if (screen.firstElementChild) screen.firstElementChild.after(node);
  else screen.prepend(node);
}

/** Keeps the screen awake (`on`) or lets it sleep; called at each render of a screen that
 * wants it (and of the first one that does not), with whether this device is the `table`.
 * Asked once when first wanted; after a refusal, at the next tap, not at every render. */
export function keepAwake(on, table) {
  onTable = table;
  const was = wanted;
  wanted = on;
  if (!on) {
    lock?.release();
    lock = null;
    stopVideo();
    settle('off');
    return notice();
  }
  // The screen was drawn again: the notice, if any, goes back into it.
  notice();
  if (!was) {
    if (state === 'off') settle('waiting-tap');
    ask(false);
  }
  return undefined;
}

document.addEventListener('visibilitychange', () => {
  if (!wanted) return;
  if (document.visibilityState === 'visible') {
    ask(false);
  } else if (state === 'video') {
    // Hidden, the video would only play silence to nobody: paused until the screen is back.
    stopVideo();
    settle('waiting-tap');
  }
});

// Every tap asks again while the screen is wanted and not kept awake: the browser lets a
// sound start, or the wake lock be taken, inside one. Listened to before any screen's own
// handler (`capture`), so a tap that changes the screen still counts.
for (const type of ['pointerup', 'touchend', 'click']) {
  document.addEventListener(type, () => ask(true, type === 'click'), { capture: true, passive: true });
}
