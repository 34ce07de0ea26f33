// Streaks, peaks and the win: the streak counter (from the state's `streak`), the burst over a peak a play
// emptied (the Turn's `peak`; its points from the scoring table of GET /api/rules) and the win's cascade
// of bouncing cards before the result window. Every number shown is the server's.

import { get } from "./api.js";
import { cards, isWide, paintFace, placeOf } from "./board.js";
import { $, h } from "./dom.js";
import { number, points } from "./i18n.js";
import { motionLayer, still } from "./motion.js";
import { sound } from "./sound.js";
import { state } from "./state.js";

let rulesAsked = null;
/** The scoring table: asked for once, the first time it is needed. */
export function ensureRules() {
  if (state.rules) return Promise.resolve(state.rules);
  if (!rulesAsked) {
    rulesAsked = get("/api/rules").then(({ status, data }) => {
      if (status === 200 && data) state.rules = data;
      else rulesAsked = null;
      return state.rules;
    });
  }
  return rulesAsked;
}

// ---- The streak -----------------------------------------------------------------------------

let shown = 0;
/** "×2", "×3" … from the second removal in a row; it grows with the streak and goes on a draw. */
export function paintStreak(game, turn) {
  const el = $("#streak");
  if (!el) return;
  const n = game.status === "left" ? 0 : game.streak;
  if (n >= 2) {
    const size = 1 + Math.min(n - 2, 10) * 0.07;
    $("#streak-n").textContent = `×${number(n)}`;
    el.dataset.tier = n >= 8 ? "3" : n >= 5 ? "2" : "1";
    el.style.transform = `scale(${size})`;
    el.hidden = false;
    if (turn && n > shown && !still()) {
      el.animate(
        [
          { transform: `scale(${size * 1.5}) rotate(-6deg)`, opacity: 0.4 },
          { transform: `scale(${size * 0.92}) rotate(2deg)`, opacity: 1, offset: 0.6 },
          { transform: `scale(${size})` },
        ],
        { duration: 320, easing: "ease-out" },
      );
    }
  } else if (!el.hidden) {
    if (turn && turn.kind === "draw" && !still()) {
      const fade = el.animate(
        [{ opacity: 1 }, { opacity: 0, transform: `${el.style.transform} translateY(14px)` }],
        { duration: 260, easing: "ease-in" },
      );
      const token = (el.dataset.token = String(Math.random()));
      fade.finished.then(
        () => {
          if (el.dataset.token === token && shown < 2) el.hidden = true;
        },
        () => {},
      );
    } else el.hidden = true;
  }
  shown = n;
}

// ---- A peak emptied ----------------------------------------------------------------------------

/** Where the cards at these positions are drawn, even when they are removed (hidden): board.js keeps the
 * places, so that nothing is laid out again to know them. */
function placesOf(positions) {
  return positions.map((pos) => cards[pos]).filter(Boolean).map(placeOf);
}

/** A burst at the peak's top with its points rising from it. */
export async function burst(peak) {
  const top = state.layout.find((p) => p.peak === peak && p.row === 1);
  if (!top) return;
  sound("peak");
  const rules = await ensureRules();
  const row = rules && rules.scoring.find((s) => s.event === "peak");
  const [rect] = placesOf([top.pos]);
  if (!rect || !rect.width) return;
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const size = Math.max(rect.width * 2.2, 90);
  const box = h("div", { className: "burst" });
  box.style.cssText = `left:${x}px;top:${y}px;--size:${size}px`;
  const label = h("span", { className: "burst-points" }, row ? points(row.points) : "");
  motionLayer().append(box);
  box.append(label);
  if (still()) {
    setTimeout(() => box.remove(), 1200);
    return;
  }
  const ring = h("span", { className: "burst-ring" });
  box.prepend(ring);
  const all = [
    ring.animate(
      [
        { transform: "translate(-50%, -50%) scale(0.15)", opacity: 1 },
        { transform: "translate(-50%, -50%) scale(1)", opacity: 0 },
      ],
      { duration: 650, easing: "cubic-bezier(.1,.7,.3,1)", fill: "forwards" },
    ),
    label.animate(
      [
        { transform: "translate(-50%, -20%) scale(0.6)", opacity: 0 },
        { transform: "translate(-50%, -90%) scale(1.15)", opacity: 1, offset: 0.25 },
        { transform: "translate(-50%, -130%) scale(1)", opacity: 1, offset: 0.75 },
        { transform: "translate(-50%, -165%) scale(1)", opacity: 0 },
      ],
      { duration: 1150, easing: "ease-out", fill: "forwards" },
    ),
  ];
  for (let i = 0; i < 12; i += 1) {
    const spark = h("span", { className: `spark s${i % 3}` });
    box.prepend(spark);
    const angle = (i / 12) * Math.PI * 2 + 0.2;
    const d = size * (0.45 + (i % 2) * 0.18);
    all.push(
      spark.animate(
        [
          { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
          { transform: `translate(calc(-50% + ${Math.cos(angle) * d}px), calc(-50% + ${Math.sin(angle) * d}px)) scale(0.2)`, opacity: 0 },
        ],
        { duration: 620 + (i % 3) * 60, easing: "cubic-bezier(.15,.8,.3,1)", fill: "forwards" },
      ),
    );
  }
  Promise.all(all.map((a) => a.finished.catch(() => {}))).then(() => {
    for (const a of all) a.cancel();
    box.remove();
  });
}

// ---- The win ------------------------------------------------------------------------------------

const removed = new Map(); // pos -> the Card played from there, as the Turns said, for this game
let removedOf = null;

/** Keep the faces of the cards played (a removed card's element is painted as a back again). */
export function remember(game, turn) {
  if (removedOf !== game.id) {
    removed.clear();
    removedOf = game.id;
  }
  if (!turn) return;
  if (turn.kind === "play") removed.set(turn.pos, turn.card);
  else if (turn.undone === "play") removed.delete(turn.pos);
}

const rowOf = (pos) => (state.layout.find((p) => p.pos === pos) || { row: 9 }).row;

function face(card) {
  const el = h("div", { className: "card" });
  paintFace(el, card);
  return el;
}

/** A pause on the animations' own clock (so that slowing or pausing them, as DevTools and the tests can,
 * slows or pauses the whole celebration with them). */
const pause = (ms) => motionLayer().animate([{ opacity: 1 }, { opacity: 1 }], { duration: ms });

/**
 * The last card lands, the cleared table shows for a moment, then the cards cascade and bounce off the
 * table (at most 3 s; a tap or a key skips it). Resolves when the result window may open. Under reduced
 * motion it resolves at once (the window fades in instead).
 */
export async function celebrate() {
  if (still()) return;
  await pause(750).finished.catch(() => {});
  sound("win");
  // the cards this page saw played, thrown from the places they were played from, top rows first
  const positions = [...removed.keys()].sort((x, y) => rowOf(x) - rowOf(y) || x - y);
  const rects = placesOf(positions);
  const sources = positions.map((pos, i) => [face(removed.get(pos)), rects[i]]);
  const discard = $("#discard");
  sources.push([discard, placeOf(discard)]);
  const layer = motionLayer();
  const animations = [];
  const W = innerWidth;
  const H = innerHeight;
  const n = sources.length;
  const stagger = Math.min(90, 1400 / n);
  const gravity = 2600 * Math.max(0.6, H / 800);
  const timer = pause(2950);
  // One card (and its two echoes) thrown `late` ms after the start (the animations' own clock). The
  // cards are made a few at a time, each frame those due next, not all in one long task: a bounded number
  // of new elements per frame, each moved by a composited transform.
  const lead = 120; // ms: a card is made this long before it is thrown
  const thrown = [];
  const throwCard = ([el, r], i, now) => {
    if (!r || !r.width) return;
    const frames = path(r, W, H, gravity, i);
    const duration = frames.duration;
    const proto = h("div", { className: `${el.className} ghost cascade` });
    proto.classList.remove("free", "hinted", "pressed", "discard-slot", "turning");
    proto.classList.toggle("wide-card", isWide(r.width));
    proto.append(...[...el.childNodes].map((c) => c.cloneNode(true)));
    proto.style.cssText = `left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;--cw:${r.width}px;opacity:0`;
    for (const echo of [2, 1, 0]) {
      const g = echo ? proto.cloneNode(true) : proto; // seen only once thrown (opacity 0 until then)
      const opacity = echo ? 0.5 - echo * 0.17 : 1;
      layer.append(g);
      const keyframes = frames.keyframes.map((k) => ({ ...k, opacity }));
      const delay = Math.max(0, i * stagger + echo * 40 - now);
      const a = g.animate(keyframes, { duration, delay, easing: "linear" });
      animations.push(a);
      thrown.push(a.finished.catch(() => {}));
      a.finished.then(
        () => g.remove(),
        () => g.remove(),
      );
    }
  };
  let next = 0;
  let ended = false;
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
  let end = () => {};
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
 * screen, until it leaves the screen or 1.5 s have passed. */
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
  return { duration, keyframes: keyframes.map((k) => ({ offset: Math.min(1, (k.t * 1000) / duration), transform: k.transform })) };
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
