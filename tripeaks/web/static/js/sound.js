// Sound and touch: short sounds of our own, synthesized with the Web Audio API (no sound file, no request),
// and a short vibration on a refused tap. The AudioContext is made at the first tap or key after the page
// loads (browsers refuse to start sound without a gesture), and only when Sound is on.

import { idle } from "./dom.js";
import { setSetting, state } from "./state.js";

let ctx = null;
const noises = new WeakMap();

/** One second of white noise per context: the papery part of every card sound. */
function noiseOf(c) {
  let noise = noises.get(c);
  if (!noise) {
    noise = c.createBuffer(1, c.sampleRate, c.sampleRate);
    const data = noise.getChannelData(0);
    let seed = 7;
    for (let i = 0; i < data.length; i += 1) {
      seed = (seed * 16807) % 2147483647;
      data[i] = (seed / 2147483647) * 2 - 1;
    }
    noises.set(c, noise);
  }
  return noise;
}

function context() {
  if (!state.settings.sound) return null;
  if (!ctx) {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return null;
    try {
      ctx = new Audio({ latencyHint: "interactive" });
    } catch {
      return null;
    }
  }
  if (unlocked && ctx.state === "suspended") ctx.resume();
  return ctx;
}

let unlocked = false;
/** Making an AudioContext takes a long moment (200 ms measured on a busy machine), and so does its second
 * of noise: both are made while the page is idle after it loads (the context then waits, suspended, as
 * browsers keep sound off until a gesture), not in the frame that answers the first tap or during its
 * flight. The first tap or key only resumes it. */
export function prepareSound() {
  idle(
    () => {
      const c = context();
      if (c) noiseOf(c);
    },
    { timeout: 2000 },
  );
}
function unlock() {
  if (unlocked) return;
  unlocked = true;
  if (ctx) {
    if (state.settings.sound && ctx.state === "suspended") ctx.resume();
    return;
  }
  idle(() => context(), { timeout: 600, fallback: 50 });
}
addEventListener("pointerdown", unlock, { capture: true, passive: true });
addEventListener("keydown", unlock, { capture: true, passive: true });

/** A burst of filtered noise: a card touching felt or another card. */
function rustle(c, at, { length, freq, q = 1.2, gain = 0.5, sweep = null, type = "bandpass" }) {
  const src = c.createBufferSource();
  src.buffer = noiseOf(c);
  const filter = c.createBiquadFilter();
  filter.type = type;
  filter.frequency.setValueAtTime(freq, at);
  if (sweep) filter.frequency.exponentialRampToValueAtTime(sweep, at + length);
  filter.Q.value = q;
  const env = c.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.004);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  src.connect(filter).connect(env).connect(c.destination);
  src.start(at, Math.random() * 0.5, length + 0.02);
}

/** A plain tone with a quick attack and a soft tail. */
function tone(c, at, { freq, length, gain = 0.18, type = "sine", to = null }) {
  const osc = c.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  const env = c.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env).connect(c.destination);
  osc.start(at);
  osc.stop(at + length + 0.05);
}

const SOUNDS = {
  // a card set down on the discard: a soft slap and a low knock, a little brighter with each card of a streak
  place(c, at, streak = 0) {
    rustle(c, at, { length: 0.07, freq: 1400 + Math.min(streak, 10) * 90, q: 0.9, gain: 0.55 });
    tone(c, at, { freq: 180 + Math.min(streak, 10) * 12, to: 90, length: 0.08, gain: 0.22, type: "triangle" });
  },
  // a card turned over: a quick, light flick
  turn(c, at) {
    rustle(c, at, { length: 0.045, freq: 3200, sweep: 5200, q: 1.4, gain: 0.28, type: "bandpass" });
  },
  // a card slid off the stock: a longer swish rising in pitch
  draw(c, at) {
    rustle(c, at, { length: 0.13, freq: 700, sweep: 2600, q: 1.1, gain: 0.4 });
    rustle(c, at + 0.11, { length: 0.05, freq: 1500, q: 0.9, gain: 0.35 });
  },
  // a refused tap: two low, dull knocks going down
  refused(c, at) {
    tone(c, at, { freq: 196, length: 0.09, gain: 0.16, type: "square", to: 185 });
    tone(c, at + 0.1, { freq: 147, length: 0.13, gain: 0.16, type: "square", to: 139 });
  },
  // a peak emptied: a bright rising chime
  peak(c, at) {
    [659.25, 830.61, 987.77, 1318.5].forEach((f, i) =>
      tone(c, at + i * 0.06, { freq: f, length: 0.35, gain: 0.12, type: "triangle" }),
    );
    tone(c, at + 0.24, { freq: 2637, length: 0.4, gain: 0.04 });
  },
  // the win: a short fanfare over a warm chord
  win(c, at) {
    const notes = [523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5, 1318.5];
    const times = [0, 0.12, 0.24, 0.36, 0.56, 0.68, 0.8];
    notes.forEach((f, i) => tone(c, at + times[i], { freq: f, length: i === 6 ? 0.9 : 0.22, gain: 0.13, type: "triangle" }));
    for (const f of [261.63, 329.63, 392]) tone(c, at + 0.8, { freq: f, length: 1.1, gain: 0.06 });
  },
};

/** Play a sound by name ("place", "turn", "draw", "refused", "peak", "win") when Sound is on. */
export function sound(name, arg) {
  if (!state.settings.sound) return;
  if (!unlocked) return;
  const c = context();
  if (!c || c.state !== "running") return;
  try {
    SOUNDS[name](c, c.currentTime + 0.005, arg);
  } catch {
    /* a sound is never worth an error */
  }
}

/** A sound rendered offline, not heard: its samples, for checking what each one sounds like. */
export async function renderSound(name, arg, seconds = 2.5, rate = 44100) {
  const c = new OfflineAudioContext(1, Math.round(seconds * rate), rate);
  SOUNDS[name](c, 0, arg);
  return (await c.startRendering()).getChannelData(0);
}

/** A refused tap on a phone: a short buzz when Vibration is on. */
export function buzz() {
  if (state.settings.vibrate && navigator.vibrate) navigator.vibrate(35);
}

/** The Sound switch of Settings and of the toolbar's menu (one setting, remembered), and Vibration. */
export function wireSound() {
  const menuItem = document.getElementById("menu-sound");
  const paint = () => {
    if (menuItem) menuItem.setAttribute("aria-checked", String(state.settings.sound));
    const box = document.getElementById("set-sound");
    if (box) box.checked = state.settings.sound;
  };
  const setSound = (on) => {
    setSetting("sound", on);
    paint();
    if (on) {
      unlocked = true;
      sound("turn");
    } else if (ctx) ctx.suspend();
  };
  const box = document.getElementById("set-sound");
  if (box) box.addEventListener("change", () => setSound(box.checked));
  if (menuItem) menuItem.addEventListener("click", () => setSound(!state.settings.sound));
  const vibrate = document.getElementById("set-vibrate");
  if (vibrate) {
    vibrate.addEventListener("change", () => {
      setSetting("vibrate", vibrate.checked);
      if (vibrate.checked) buzz();
    });
  }
  paint();
}
