// The table's sound: one AudioContext, a master volume and mute, cues that can be turned
// off one by one, and the ambience. It plays what it is told; the rules decide when.
// The context exists only once a sound is asked for (a tap, as browsers require), and is
// suspended again when all is quiet, so an idle screen costs no audio processing.

import * as synth from './synth.js';

let ctx = null;
let master = null;
let stopAmbience = null;
let quietTimer = null;
const DEFAULTS = {
  volume: 0.8, muted: false, ambience: true, music: 0.6, shuffle: false,
  cues: { hour: true, timer: true, knocks: true, ending: true },
};
let sound = DEFAULTS;

/** Seconds over which one track fades into the next. */
export const CROSSFADE = 4;
/** How far the music dips under a cue. */
const DUCK = 0.25;

const music = { tracks: [], order: [], at: 0, playing: false, decks: [], live: 0, bus: null };
let musicChanged = () => {};

/** Tells `listener` when the music starts, stops or changes track. */
export function onMusicChange(listener) {
  musicChanged = listener;
}

/** Which setting turns each cue off. */
const SWITCH = { knock: 'knocks', strike: 'hour', tick: 'timer', ring: 'timer', win: 'ending', loss: 'ending' };

function context() {
  if (!ctx) {
    ctx = new AudioContext();
    master = ctx.createGain();
    master.connect(ctx.destination);
    // Whether sound really comes out, said on the page's root (for the tests, in every engine).
    const said = () => { document.documentElement.dataset.audio = ctx.state; };
    ctx.addEventListener('statechange', said);
    said();
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
  quietTimer = setTimeout(() => { if (!stopAmbience && !music.playing) ctx.suspend(); }, wait);
}

/** Dips the music under a cue that ends at `end`, then brings it back. */
function duck(end) {
  if (!music.bus) return;
  const g = music.bus.gain;
  const now = ctx.currentTime;
  g.cancelScheduledValues(now);
  g.setTargetAtTime(sound.music * DUCK, now, 0.05);
  g.setTargetAtTime(sound.music, end, 0.3);
}

/** Lets sound out, from a tap (browsers allow audio to start only then). */
export function unlock() {
  context();
  quietAfter(ctx.currentTime);
}

/** Whether the browser holds sound back until the next tap. */
export function blocked() {
  return ctx?.state === 'suspended' && !quietTimer;
}

/** The table's sound settings, as the server keeps them. */
export function configure(next) {
  // Merged over the defaults, so a setting the server does not send cannot silence anything.
  sound = { ...DEFAULTS, ...next, cues: { ...DEFAULTS.cues, ...next?.cues } };
  if (master) master.gain.setTargetAtTime(sound.muted ? 0 : sound.volume, ctx.currentTime, 0.05);
  if (music.bus) music.bus.gain.setTargetAtTime(sound.music, ctx.currentTime, 0.05);
  if (!sound.ambience) mood(null);
}

/** The last cues played, oldest first: `{ name, arg, at }` (at: epoch ms). */
const played = [];

/** Keeps a cue among the last played, said on the page's root too (for the tests, which
 * read what a page has played there in every engine). */
function heard(name, arg) {
  played.push({ name, arg: arg ?? null, at: performance.timeOrigin + performance.now() });
  if (played.length > 50) played.shift();
  document.documentElement.dataset.cues = JSON.stringify(played);
}

/** Plays a cue now, unless it is turned off: knock (1 or 2), strike (the hour), tick, ring, win, loss. */
export function cue(name, arg) {
  if (!sound.cues[SWITCH[name]]) return;
  heard(name, arg);
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
  duck(end);
  quietAfter(end);
}

/** How long a held-back context may take to start before the chime counts as unheard (some
 * devices take several hundred milliseconds to resume one). */
const START_WITHIN = 1000;

/** A phone's chime, that tells its player something is for them where it cannot buzz: the
 * phone's own sound (its switch is on the phone), whatever the table's volume or cues.
 * Resolves to whether it sounded: only a running context plays, and a browser holds one
 * back until the page's first tap (a page reloaded, or opened from a camera). */
export async function chime() {
  const c = context();
  if (c.state !== 'running') await Promise.race([c.resume(), new Promise((r) => { setTimeout(r, START_WITHIN); })]);
  if (c.state !== 'running') {
    // Started later after all, it is let go again once quiet.
    quietAfter(c.currentTime);
    return false;
  }
  heard('chime');
  const end = synth.chime(c, c.destination, c.currentTime + 0.02);
  quietAfter(end);
  return true;
}

let moodNow = null;

/** The ambience's mood now, or null when none plays. */
export function currentMood() {
  return stopAmbience ? moodNow : null;
}

/** Starts the ambience in a mood (seance, tension, reveal), or stops it with null. */
export function mood(name) {
  stopAmbience?.();
  stopAmbience = null;
  moodNow = name;
  if (name && sound.ambience) stopAmbience = synth.ambience(context(), master, name);
  else if (ctx) quietAfter(ctx.currentTime + 2);
  document.documentElement.dataset.mood = currentMood() ?? '';
}

export function ambiencePlaying() {
  return stopAmbience !== null;
}

/** Audio files only, by type or by name (some systems give no type). */
function isAudio(file) {
  return file.type.startsWith('audio/') || /\.(mp3|ogg|oga|opus|flac|wav|m4a|aac)$/i.test(file.name);
}

function shuffled(n) {
  const order = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** Sets the playlist from chosen files (kept in memory only, never copied). */
export function setTracks(files) {
  stopMusic();
  for (const t of music.tracks) URL.revokeObjectURL(t.url);
  music.tracks = [...files].filter(isAudio)
    .sort((a, b) => (a.webkitRelativePath || a.name).localeCompare(b.webkitRelativePath || b.name))
    .map((f) => ({ name: f.name, url: URL.createObjectURL(f) }));
  music.order = sound.shuffle ? shuffled(music.tracks.length) : [...music.tracks.keys()];
  music.at = 0;
  return music.tracks.length;
}

/** Two decks, so one track can fade into the next. */
function decks() {
  if (music.decks.length) return music.decks;
  music.bus = ctx.createGain();
  music.bus.gain.value = sound.music;
  music.bus.connect(master);
  music.decks = [0, 1].map(() => {
    const audio = new Audio();
    const gain = ctx.createGain();
    ctx.createMediaElementSource(audio).connect(gain).connect(music.bus);
    audio.addEventListener('timeupdate', () => crossfadeIfDue(audio));
    audio.addEventListener('ended', () => { if (music.decks[music.live].audio === audio) nextTrack(); });
    return { audio, gain };
  });
  return music.decks;
}

function load(deck, track, fadeIn) {
  deck.audio.src = track.url;
  deck.gain.gain.cancelScheduledValues(ctx.currentTime);
  deck.gain.gain.setValueAtTime(fadeIn ? 0 : 1, ctx.currentTime);
  if (fadeIn) deck.gain.gain.linearRampToValueAtTime(1, ctx.currentTime + CROSSFADE);
  musicChanged();
  return play(deck.audio);
}

/** Plays a deck. A play cut short by a pause or by the next track (AbortError) is what was
 *  asked for; any other refusal (a file the engine cannot play) stops the music, and the
 *  screen shows it stopped. */
async function play(audio) {
  try {
    await audio.play();
  } catch (error) {
    if (error.name === 'AbortError') return;
    music.playing = false;
    musicChanged();
  }
}

function crossfadeIfDue(audio) {
  const live = music.decks[music.live];
  if (!music.playing || live.audio !== audio || music.tracks.length < 2) return;
  if (audio.duration - audio.currentTime <= CROSSFADE && audio.duration > 2 * CROSSFADE) nextTrack(true);
}

/** Plays the playlist from where it stands, looping at its end. */
export async function playMusic() {
  if (!music.tracks.length) return;
  context();
  const deck = decks()[music.live];
  music.playing = true;
  if (deck.audio.src && deck.audio.paused && deck.audio.currentTime > 0) return play(deck.audio);
  return load(deck, music.tracks[music.order[music.at]], false);
}

export function pauseMusic() {
  music.playing = false;
  for (const d of music.decks) d.audio.pause();
  if (ctx) quietAfter(ctx.currentTime);
  musicChanged();
}

function stopMusic() {
  pauseMusic();
  for (const d of music.decks) d.audio.removeAttribute('src');
}

/** The next track (fading across when `fade`), back to the first after the last. */
export function nextTrack(fade = false) {
  if (!music.tracks.length) return;
  music.at = (music.at + 1) % music.tracks.length;
  if (music.at === 0 && sound.shuffle) music.order = shuffled(music.tracks.length);
  if (!music.playing) return;
  const old = music.decks[music.live];
  music.live = 1 - music.live;
  if (fade) {
    old.gain.gain.setValueAtTime(old.gain.gain.value, ctx.currentTime);
    old.gain.gain.linearRampToValueAtTime(0, ctx.currentTime + CROSSFADE);
    setTimeout(() => old.audio.pause(), CROSSFADE * 1000);
  } else {
    old.audio.pause();
  }
  load(music.decks[music.live], music.tracks[music.order[music.at]], fade);
}

/** What the music is doing, for the screen. */
export function musicState() {
  const live = music.decks[music.live];
  return {
    tracks: music.tracks.map((t) => t.name),
    current: music.tracks.length ? music.order[music.at] : null,
    playing: music.playing,
    position: live ? live.audio.currentTime : 0,
  };
}
