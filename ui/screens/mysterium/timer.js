// The sand timer on screen. Its time is the server's: each snapshot says what is left, and
// the screen counts down from there on its own monotonic clock, repainting once a second
// (an endless animation would repaint the table every frame). It ticks in the last ten
// seconds; the ring comes when the server ends the interpretation (see ../mysterium.js).

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import * as player from '../../sound/player.js';

/** This screen lies flat between the players: the digits are shown twice, one set upside
 * down, so the far side reads them too. A choice of this device. */
const FLAT = 'seance.flat';
export const lyingFlat = () => localStorage.getItem(FLAT) === 'on';
export function setLyingFlat(on) {
  localStorage.setItem(FLAT, on ? 'on' : 'off');
}

const clock = { duration: 120000, remaining: 120000, running: false, interrupted: false, endsAt: 0, loop: null, lastTick: null };

/** The last half-minute turns the ambience tense, if it plays. */
const TENSE_FROM = 30;

/** Takes the timer from a snapshot that arrived at `at` (performance.now()). */
export function setClock(snapshot, at) {
  clearTimeout(clock.loop);
  clock.loop = null;
  if (!snapshot.timer) return; // a game without a sand timer (the new edition's default)
  const { duration_ms, remaining_ms, running, interrupted } = snapshot.timer;
  const phase = snapshot.view.phase;
  Object.assign(clock, { duration: duration_ms, remaining: remaining_ms, running: running && phase === 'interpretation', interrupted });
  clock.endsAt = at + remaining_ms;
  // A screen drawn before this snapshot (its module came after it) shows this time at once.
  if (clock.running) step();
  else paint(clock.remaining);
}

/** The server is out of reach: the countdown stops where it is, until a snapshot says
 * what the sand really did. */
export function freeze() {
  clearTimeout(clock.loop);
  clock.loop = null;
  Object.assign(clock, { remaining: left(), running: false });
  paint(clock.remaining);
}

function left() {
  return clock.running ? Math.max(0, clock.endsAt - performance.now()) : clock.remaining;
}

export function formatTime(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Repaints, ticks, and waits for the next whole second. */
function step() {
  const ms = left();
  paint(ms);
  const second = Math.ceil(ms / 1000);
  if (second <= TENSE_FROM && player.ambiencePlaying() && player.currentMood() !== 'tension') player.mood('tension');
  if (second <= 10 && second > 0 && second !== clock.lastTick) {
    clock.lastTick = second;
    player.cue('tick');
  }
  if (ms <= 0) {
    // For the drift benchmark: when this screen's countdown reached 0:00, on the epoch clock.
    document.documentElement.dataset.timerZeroAt = String(performance.timeOrigin + performance.now());
    clock.loop = null;
    return;
  }
  clock.loop = setTimeout(step, (ms % 1000 || 1000) + 2);
}

function paint(ms) {
  const box = document.getElementById('sand-timer');
  if (!box) return;
  const text = formatTime(ms);
  for (const digits of box.querySelectorAll('.digits')) if (digits.textContent !== text) digits.textContent = text;
  box.dataset.long = String(text.length > 4);
  box.dataset.state = !clock.running ? (ms < clock.duration ? 'paused' : 'idle')
    : ms <= 0 ? 'ended' : ms <= 10000 ? 'warning' : 'running';
  const full = clock.duration ? ms / clock.duration : 0;
  document.getElementById('sand-top')?.setAttribute('y', String(8 + 72 * (1 - full)));
  document.getElementById('sand-bottom')?.setAttribute('y', String(152 - 72 * (1 - full)));
}

function hourglass() {
  const ns = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs, ...kids) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...kids);
    return node;
  };
  return el('svg', { class: 'hourglass', viewBox: '0 0 100 160', 'aria-hidden': 'true' },
    el('clipPath', { id: 'bulb-top' }, el('path', { d: 'M14 8 H86 L52 80 H48 Z' })),
    el('clipPath', { id: 'bulb-bottom' }, el('path', { d: 'M48 80 H52 L86 152 H14 Z' })),
    el('rect', { id: 'sand-top', class: 'sand', x: 0, y: 8, width: 100, height: 80, 'clip-path': 'url(#bulb-top)' }),
    el('rect', { id: 'sand-bottom', class: 'sand', x: 0, y: 152, width: 100, height: 80, 'clip-path': 'url(#bulb-bottom)' }),
    el('path', { class: 'glass', d: 'M10 4 H90 M10 156 H90 M14 8 L48 80 L14 152 M86 8 L52 80 L86 152' }));
}

/** The timer with its buttons (the table's and the ghost's phone's; the others' phones show
 * it without), for the visions and the interpretation; `compact`: a phone's single row;
 * `small`: one row, before the sand turns; `guided`: beside a first game's steps, a little
 * smaller, still read from two metres. */
export function sandTimer(ctx, { controls = true, compact = !controls, small = false, guided = false } = {}) {
  const ms = left();
  // The buttons the rules offer this device: turn the sand before the last vision, run the
  // timer, end the interpretation.
  const buttons = [
    ctx.may('start_timer') ? h('button', { id: 'timer-start', type: 'button', onclick: () => ctx.act('start_timer') }, t('timer.start_now')) : null,
    ctx.may('sand_timer') ? [
      clock.running
        ? h('button', { id: 'timer-pause', type: 'button', onclick: () => ctx.timer('pause') }, t('timer.pause'))
        : h('button', { id: 'timer-resume', type: 'button', class: 'primary', onclick: () => ctx.timer('resume') },
          ms < clock.duration ? t('timer.resume') : t('timer.start')),
      h('button', { id: 'timer-reset', type: 'button', onclick: () => ctx.timer('reset') }, t('timer.reset')),
    ] : null,
    ctx.may('end_interpretation') ? h('button', { id: 'timer-end', type: 'button', onclick: () => ctx.act('end_interpretation') }, t('timer.end_now')) : null,
  ];
  const flat = lyingFlat() && !compact;
  const box = h('section', { id: 'sand-timer', class: `sand-timer${compact ? ' compact' : ''}${small ? ' small' : ''}${flat ? ' flat' : ''}${guided ? ' guided' : ''}`, 'aria-label': t('timer.label') },
    hourglass(),
    flat ? h('div', { class: 'digits across', 'aria-hidden': 'true' }, formatTime(ms)) : null,
    h('div', { id: 'timer-digits', class: 'digits', role: 'timer' }, formatTime(ms)),
    // Séance stopped while the sand ran (a crash, a closed window): it waits where it was.
    clock.interrupted ? h('p', { id: 'timer-interrupted', class: 'timer-note', role: 'status' },
      t(controls ? 'timer.interrupted' : 'timer.interrupted_phone')) : null,
    controls ? h('div', { class: 'timer-controls' }, buttons) : null);
  // Paint the sand and the state as soon as the box is in the page.
  queueMicrotask(() => paint(left()));
  return box;
}
