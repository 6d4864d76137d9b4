// The table's sound: one AudioContext, a master volume and mute, cues that can be turned
// off one by one, and the ambience. It plays what it is told; the rules decide when.
// The context exists only once a sound is asked for (a tap, as browsers require), and is
// suspended again when all is quiet, so an idle screen costs no audio processing.

import * as synth from './synth.js';

let ctx = null;
let master = null;
let stopAmbience = null;
let quietTimer = null;
let sound = { volume: 0.8, muted: false, ambience: true, cues: { hour: true, timer: true, knocks: true, ending: true } };

/** Which setting turns each cue off. */
const SWITCH = { knock: 'knocks', strike: 'hour', tick: 'timer', ring: 'timer', win: 'ending', loss: 'ending' };

function context() {
  if (!ctx) {
    ctx = new AudioContext();
    master = ctx.createGain();
    master.connect(ctx.destination);
  }
  master.gain.value = sound.muted ? 0 : sound.volume;
  clearTimeout(quietTimer);
  ctx.resume();
  return ctx;
}

/** Suspends the context once `end` (in context seconds) has passed, unless ambience plays. */
function quietAfter(end) {
  clearTimeout(quietTimer);
  const wait = Math.max(0, end - ctx.currentTime) * 1000 + 1000;
  quietTimer = setTimeout(() => { if (!stopAmbience) ctx.suspend(); }, wait);
}

/** Whether the browser holds sound back until the next tap. */
export function blocked() {
  return ctx?.state === 'suspended' && !quietTimer;
}

/** The table's sound settings, as the server keeps them. */
export function configure(next) {
  sound = next;
  if (master) master.gain.setTargetAtTime(sound.muted ? 0 : sound.volume, ctx.currentTime, 0.05);
  if (!sound.ambience) mood(null);
}

/** Plays a cue now, unless it is turned off: knock (1 or 2), strike (the hour), tick, ring, win, loss. */
export function cue(name, arg) {
  if (!sound.cues[SWITCH[name]]) return;
  const c = context();
  const at = c.currentTime + 0.02;
  const end = {
    knock: () => synth.knock(c, master, at, arg),
    strike: () => synth.strike(c, master, at, arg),
    tick: () => synth.tick(c, master, at),
    ring: () => synth.ring(c, master, at),
    win: () => synth.stinger(c, master, at, 'win'),
    loss: () => synth.stinger(c, master, at, 'loss'),
  }[name]();
  quietAfter(end);
}

/** Starts the ambience in a mood (seance, tension, reveal), or stops it with null. */
export function mood(name) {
  stopAmbience?.();
  stopAmbience = null;
  if (name && sound.ambience) stopAmbience = synth.ambience(context(), master, name);
  else if (ctx) quietAfter(ctx.currentTime + 2);
}

export function ambiencePlaying() {
  return stopAmbience !== null;
}
