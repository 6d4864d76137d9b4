// Séance's sounds, made on the spot with Web Audio: no files. Each function schedules
// onto any BaseAudioContext — the live one at the table, or an OfflineAudioContext in the
// tests — and returns when its sound ends.

/** Seconds between the two knocks of a "no". */
export const KNOCK_GAP = 0.32;
/** Seconds between the strikes of the clock. */
export const STRIKE_GAP = 1.8;

/** A decaying tone: a sine from `from` (gliding to `to`) with an instant attack. */
function tone(ctx, out, when, { from, to = from, peak, decay, type = 'sine' }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, when);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, when + decay * 0.6);
  gain.gain.setValueAtTime(0, when);
  gain.gain.linearRampToValueAtTime(peak, when + 0.004);
  gain.gain.exponentialRampToValueAtTime(0.0001, when + decay);
  osc.connect(gain).connect(out);
  osc.start(when);
  osc.stop(when + decay + 0.02);
  return when + decay;
}

/** White noise from a fixed seed, so every rendering is the same; `rate` samples a second. */
function noise(ctx, seconds, rate = ctx.sampleRate) {
  const buffer = ctx.createBuffer(1, Math.ceil(rate * seconds), rate);
  const data = buffer.getChannelData(0);
  let seed = 20151031;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 16807) % 2147483647;
    data[i] = seed / 1073741823.5 - 1;
  }
  return buffer;
}

/** A short burst of filtered noise: the wood of a knock, the click of a tick. */
function burst(ctx, out, when, { frequency, peak, decay }) {
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = noise(ctx, decay + 0.05);
  filter.type = 'bandpass';
  filter.frequency.value = frequency;
  filter.Q.value = 3;
  gain.gain.setValueAtTime(peak, when);
  gain.gain.exponentialRampToValueAtTime(0.0001, when + decay);
  source.connect(filter).connect(gain).connect(out);
  source.start(when);
  return when + decay;
}

/** The ghost knocks: once for yes, twice for no. */
export function knock(ctx, out, when, times = 1) {
  let end = when;
  for (let k = 0; k < times; k++) {
    const t = when + k * KNOCK_GAP;
    tone(ctx, out, t, { from: 150, to: 60, peak: 0.8, decay: 0.16 });
    end = burst(ctx, out, t, { frequency: 900, peak: 0.5, decay: 0.05 });
  }
  return Math.max(end, when + (times - 1) * KNOCK_GAP + 0.16);
}

/** A bell of a few inharmonic partials, as a clock's. */
function bell(ctx, out, when, base, decay, peak) {
  const partials = [[1, 1], [2.01, 0.5], [2.76, 0.35], [5.4, 0.15]];
  for (const [ratio, level] of partials) {
    tone(ctx, out, when, { from: base * ratio, peak: peak * level, decay: decay / ratio ** 0.3 });
  }
  return when + decay;
}

/** The clock strikes `hours` times. */
export function strike(ctx, out, when, hours) {
  let end = when;
  for (let k = 0; k < hours; k++) end = bell(ctx, out, when + k * STRIKE_GAP, 196, 1.5, 0.35);
  return end;
}

/** One tick of the sand timer's last seconds. */
export function tick(ctx, out, when) {
  return burst(ctx, out, when, { frequency: 2400, peak: 0.35, decay: 0.03 });
}

/** The sand timer has run out. */
export function ring(ctx, out, when) {
  bell(ctx, out, when, 660, 2.2, 0.3);
  return bell(ctx, out, when + 0.35, 880, 2.2, 0.25);
}

/** A phone's chime: two high, short bell notes. */
export function chime(ctx, out, when) {
  bell(ctx, out, when, 1046.5, 0.6, 0.3);
  return bell(ctx, out, when + 0.14, 1318.5, 0.7, 0.25);
}

/** A short phrase for the end of the game: rising for a win, falling for a loss. */
export function stinger(ctx, out, when, outcome) {
  const notes = outcome === 'win' ? [262, 330, 392, 523] : [392, 311, 262, 185];
  let end = when;
  notes.forEach((f, i) => {
    end = tone(ctx, out, when + i * 0.22, { from: f, peak: 0.22, decay: 0.9, type: 'triangle' });
  });
  return end;
}

/** `count` clicks of a candle's wick, at places drawn from `seed`, in `seconds` of silence. */
function clicks(ctx, seconds, count, seed) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * seconds), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let c = 0; c < count; c++) {
    seed = (seed * 16807) % 2147483647;
    const at = Math.floor((seed / 2147483647) * (data.length - 400));
    for (let i = 0; i < 300; i++) data[at + i] += (i % 2 ? -1 : 1) * 0.3 * Math.exp(-i / 40);
  }
  return buffer;
}

const MOODS = {
  // A low drone, wind, and a candle's crackle.
  seance: { drone: 55, wind: 500, sway: 0.07, crackle: 1 },
  // The last seconds of the sand timer: higher, quicker, more restless.
  tension: { drone: 73.4, wind: 900, sway: 0.4, crackle: 2 },
  // The revelation: a brighter, open fifth.
  reveal: { drone: 82.4, wind: 350, sway: 0.05, crackle: 0.5 },
};

export const MOOD_NAMES = Object.keys(MOODS);

/**
 * Endless generated ambience in a mood; returns a function that fades it out.
 * Everything loops or sustains on the audio thread: nothing is scheduled from script.
 */
export function ambience(ctx, out, mood = 'seance') {
  const m = MOODS[mood] ?? MOODS.seance;
  const bus = ctx.createGain();
  bus.gain.setValueAtTime(0, ctx.currentTime);
  bus.gain.linearRampToValueAtTime(1, ctx.currentTime + 2);
  bus.connect(out);
  const nodes = [];
  const lowpass = ctx.createBiquadFilter();
  lowpass.type = 'lowpass';
  lowpass.frequency.value = 420;
  lowpass.connect(bus);
  for (const [f, level] of [[m.drone, 0.1], [m.drone * 1.005, 0.1], [m.drone * 1.5, 0.05]]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sawtooth';
    osc.frequency.value = f;
    gain.gain.value = level;
    osc.connect(gain).connect(lowpass);
    nodes.push(osc);
  }
  const wind = ctx.createBufferSource();
  // The band-pass keeps the wind's centre under 1.4 kHz: noise at half the usual rate
  // sounds the same there, in half the memory.
  wind.buffer = noise(ctx, 4, 22050);
  wind.loop = true;
  const band = ctx.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = m.wind;
  band.Q.value = 0.8;
  const windGain = ctx.createGain();
  windGain.gain.value = 0.12;
  const sway = ctx.createOscillator();
  const swayDepth = ctx.createGain();
  sway.frequency.value = m.sway;
  swayDepth.gain.value = m.wind * 0.5;
  sway.connect(swayDepth).connect(band.frequency);
  wind.connect(band).connect(windGain).connect(bus);
  nodes.push(wind, sway);
  // The crackle: two loops of sparse clicks, 1.3 and 1.7 s long, each with half of the
  // mood's clicks (two a second at a crackle of 1), whose pattern comes back only every
  // 22.1 s (one loop of 7 s took more than twice the memory, and came back then).
  for (const [seconds, seed] of [[1.3, 7], [1.7, 11]]) {
    const crackle = ctx.createBufferSource();
    crackle.buffer = clicks(ctx, seconds, Math.round(seconds * m.crackle), seed);
    crackle.loop = true;
    crackle.connect(bus);
    nodes.push(crackle);
  }
  for (const node of nodes) node.start();
  return (fade = 1.5) => {
    const now = ctx.currentTime;
    bus.gain.cancelScheduledValues(now);
    bus.gain.setValueAtTime(bus.gain.value, now);
    bus.gain.linearRampToValueAtTime(0, now + fade);
    for (const node of nodes) node.stop(now + fade + 0.05);
  };
}
