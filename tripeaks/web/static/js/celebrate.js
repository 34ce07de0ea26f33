// Streaks, groups and the win: the streak counter (from the state's `streak`), the burst over a group of the
// layout (a peak of Three Peaks) a play emptied (the Turn's `peak`, with what it earned: `peak_points`) and the
// win's cascade
// of bouncing cards before the result window. Every number shown is the server's.

import { cards, paintFace, placeOf } from "./cards.js";
import { $, afterFrame, h } from "./dom.js";
import { number, points } from "./i18n.js";
import { motionLayer, still } from "./motion.js";
import { sound } from "./sound.js";
import { state } from "./state.js";

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

// ---- A group emptied ---------------------------------------------------------------------------

/** Where the cards at these positions are drawn, even when they are removed (hidden): cards.js keeps the
 * places, so that nothing is laid out again to know them. */
function placesOf(positions) {
  return positions.map((pos) => cards[pos]).filter(Boolean).map(placeOf);
}

/** A burst at the top of a group of the layout (its places' `group`: a peak of Three Peaks) with its points
 * rising from it (what the Turn says the group earned): at the middle of the group's topmost cards. */
export function burst(group, earned) {
  const members = state.layout.filter((p) => p.group === group);
  if (!members.length) return;
  sound("peak");
  const high = Math.min(...members.map((p) => p.y));
  const rects = placesOf(members.filter((p) => p.y === high).map((p) => p.pos)).filter((r) => r.width);
  if (!rects.length) return;
  const rect = rects[0];
  const x = (Math.min(...rects.map((r) => r.left)) + Math.max(...rects.map((r) => r.left + r.width))) / 2;
  const y = rect.top + rect.height / 2;
  const size = Math.max(rect.width * 2.2, 90);
  const box = h("div", { className: "burst" });
  box.style.cssText = `left:${x}px;top:${y}px;--size:${size}px`;
  const label = h("span", { className: "burst-points" }, earned ? points(earned) : "");
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
  if (!game.id) return; // a replay's step (no game of the player's): the game's own cards are kept
  if (removedOf !== game.id) {
    removed.clear();
    removedOf = game.id;
  }
  if (!turn) return;
  if (turn.kind === "play") removed.set(turn.pos, turn.card);
  else if (turn.undone === "play") removed.delete(turn.pos);
  if (game.status === "playing" && game.tableau.filter((slot) => slot.slot !== "removed").length <= NEAR) nearWin();
}

// A few cards from a win, the cascade's module is fetched and its court figures made, while the page is
// idle: compiled at the win, in the frame the last card lands, they made one long task of it.
const NEAR = 3;
let cascadeModule = null; // its import, once; tried again at the next win if it failed
const loadCascade = () => (cascadeModule ||= import("./cascade.js").catch(() => (cascadeModule = null)));
function nearWin() {
  if (!still()) loadCascade().then((module) => module && module.prepare());
}

const rowOf = (pos) => (state.layout.find((p) => p.pos === pos) || { y: 99 }).y;

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
 * table (cascade.js, fetched during that moment: it is not part of the first load; at most 3 s; a tap or
 * a key skips it). Resolves when the result window may open. Under reduced motion it resolves at once (the
 * window fades in instead).
 */
export async function celebrate() {
  if (still()) return;
  const moment = pause(750);
  // the cascade's setup reads styles: after the last move's frame, so that it does not lay that out again
  await afterFrame();
  const module = await loadCascade();
  if (!module) return moment.finished.catch(() => {});
  // the cards this page saw played, thrown from the places they were played from, top rows first
  const positions = [...removed.keys()].sort((x, y) => rowOf(x) - rowOf(y) || x - y);
  const rects = placesOf(positions);
  const sources = positions.map((pos, i) => [face(removed.get(pos)), rects[i]]);
  const discard = $("#discard");
  sources.push([discard, placeOf(discard)]);
  await module.cascade(sources, pause, moment, () => sound("win"));
}
