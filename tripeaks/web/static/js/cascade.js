// The win's cascade: the cards thrown from their places one after another, falling and bouncing on the
// bottom of the screen with a fading trail, in the spirit of the classic solitaire win. Loaded when a game
// is won (celebrate.js fetches it during the moment the cleared table shows), so it is not part of the
// first load.
//
// What keeps it cheap per frame: the cards are made a few at a time, each frame those due next; each card
// and each of its two echoes is one element moved by a composited transform; the path's keyframes are
// parsed once per card (its echoes copy the parsed effect), and an echo carries only the card's corner
// index, not its whole face.

import { isWide } from "./board.js";
import { h } from "./dom.js";
import { motionLayer } from "./motion.js";

const ECHOES = [
  [2, 0.16],
  [1, 0.33],
];

/** Throw `sources` ([element to copy, its rectangle] each); `pause(ms)` is an animation on the page's
 * clock. Resolves when the cascade is over or skipped (a tap's click or a key). */
export async function cascade(sources, pause) {
  const layer = motionLayer();
  const animations = [];
  const W = innerWidth;
  const H = innerHeight;
  const n = sources.length;
  const stagger = Math.min(90, 1400 / n);
  const gravity = 2600 * Math.max(0.6, H / 800);
  const timer = pause(2950);
  const lead = 120; // ms: a card is made this long before it is thrown
  const thrown = [];
  const start = (g, effect) => {
    const a = new Animation(effect, document.timeline);
    a.play();
    animations.push(a);
    thrown.push(a.finished.catch(() => {}));
    a.finished.then(
      () => g.remove(),
      () => g.remove(),
    );
  };
  const throwCard = ([el, r], i, now) => {
    if (!r || !r.width) return;
    const frames = path(r, W, H, gravity, i);
    // the carrier moves; its card (the face, or for an echo its corner index only) is drawn inside it
    const carrier = (deep) => {
      const card = h("div", { className: `${el.className} cascade-card` });
      card.classList.remove("free", "hinted", "pressed", "discard-slot", "turning", "ghost");
      card.classList.toggle("wide-card", isWide(r.width));
      if (deep) card.append(...[...el.childNodes].map((c) => c.cloneNode(true)));
      else {
        const index = el.querySelector(".idx");
        if (index) card.append(h("span", { className: "face" }, index.cloneNode(true)));
      }
      const g = h("div", { className: "ghost cascade" }, card);
      g.style.cssText = `left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;--cw:${r.width}px`;
      return [g, card];
    };
    const [g] = carrier(true);
    const effect = new KeyframeEffect(g, frames.keyframes, {
      duration: frames.duration,
      delay: Math.max(0, i * stagger - now),
      easing: "linear",
    });
    for (const [echo, opacity] of ECHOES) {
      const [e, card] = carrier(false);
      card.style.opacity = String(opacity);
      layer.append(e);
      const copy = new KeyframeEffect(effect);
      copy.target = e;
      copy.updateTiming({ delay: Math.max(0, i * stagger + echo * 40 - now) });
      start(e, copy);
    }
    layer.append(g);
    start(g, effect);
  };
  let next = 0;
  let ended = false;
  let end = () => {};
  const throwDue = () => {
    if (ended) return;
    const now = timer.currentTime || 0;
    while (next < n && next * stagger <= now + lead) {
      throwCard(sources[next], next, now);
      next += 1;
    }
    if (next < n) requestAnimationFrame(throwDue);
    else Promise.all(thrown).then(() => end());
  };
  document.body.dataset.celebrating = "true";
  throwDue();
  await new Promise((resolve) => {
    // skipped by a tap's click (the last event of a tap, so that its own focus change comes before the
    // window's) or by a key, which then does nothing else
    const byKey = (event) => {
      event.preventDefault();
      event.stopPropagation();
      end();
    };
    end = () => {
      if (ended) return;
      ended = true;
      removeEventListener("click", end, true);
      removeEventListener("keydown", byKey, true);
      for (const a of [timer, ...animations]) a.cancel();
      delete document.body.dataset.celebrating;
      resolve();
    };
    timer.finished.then(end, () => {});
    addEventListener("click", end, true);
    addEventListener("keydown", byKey, true);
    if (next >= n) Promise.all(thrown).then(end);
  });
}

/** The bouncing path of one card, as keyframes: thrown sideways, falling, bouncing on the bottom of the
 * screen, until it leaves the screen or 1.5 s have passed. Seen only while it runs (opacity 1 in every
 * keyframe over the carrier's 0), so a card made before its time does not show early. */
function path(r, W, H, gravity, i) {
  const random = mulberry(i + 1);
  // mostly towards the farther side, so that a card bounces across the screen
  const side = r.left + r.width / 2 < W / 2 ? 1 : -1;
  const dir = random() < 0.8 ? side : -side;
  let vx = dir * W * (0.3 + random() * 0.35);
  let vy = -(150 + random() * 500);
  const spin = (random() - 0.5) * 120;
  let x = 0;
  let y = 0;
  const floor = H - r.top - r.height;
  const keyframes = [];
  const dt = 1 / 30;
  let t = 0;
  for (; t < 1.5; t += dt) {
    keyframes.push({ t, transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) rotate(${(spin * t).toFixed(1)}deg)` });
    if (r.left + x > W || r.left + x + r.width < 0) break;
    vy += gravity * dt;
    x += vx * dt;
    y += vy * dt;
    if (y > floor) {
      y = floor;
      vy = -vy * 0.68;
      vx *= 0.98;
    }
  }
  const duration = Math.max(keyframes[keyframes.length - 1].t, dt) * 1000;
  return {
    duration,
    keyframes: keyframes.map((k) => ({ offset: Math.min(1, (k.t * 1000) / duration), transform: k.transform, opacity: 1 })),
  };
}

function mulberry(seed) {
  let a = seed * 2654435761;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
