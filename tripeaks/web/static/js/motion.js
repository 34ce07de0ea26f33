// Motion: what an action did, played out with transform and opacity only. The server's `last` (a Turn)
// says what moved (from, to, pos, revealed, covered); this module only shows it. Cards in flight are
// ghosts (aria-hidden copies in a fixed layer over the page), so the real cards are already where the
// state puts them and the focus, the names and the tests see the state at once. With the Animation setting
// (or the system's reduced motion) at "reduced" nothing flies: the cards that changed fade in, briefly; at
// "off" every change is instant.

import { $, afterFrame, h, motionLevel } from "./dom.js";
import { cards, isWide, paintFace, placeOf } from "./cards.js";
import { sound } from "./sound.js";
import { state } from "./state.js";

export const FLIGHT = 300; // ms, a card from one place to another
const TURN = 260; // ms, a card turning over
const EASE = "cubic-bezier(.25,.75,.3,1)";
const P = "perspective(900px)";

export const still = () => motionLevel() !== "full" || !Element.prototype.animate;
const FADE = 140; // ms, a changed card fading in under reduced motion

let layer = null;
export function motionLayer() {
  if (!layer || !layer.isConnected) {
    layer = h("div", { className: "motion-layer", "aria-hidden": "true" });
    document.body.append(layer);
  }
  return layer;
}

/** An aria-hidden copy of a card (its face or its back) at a place on the screen. */
function ghost(rect, source = null, card = null) {
  const g = h("div", { className: "card ghost" });
  if (card) paintFace(g, card);
  else if (source && !source.classList.contains("back") && !source.classList.contains("stock")) {
    g.className = `${source.className} ghost`;
    g.append(...[...source.childNodes].map((n) => n.cloneNode(true)));
  } else g.classList.add("back");
  g.classList.remove("free", "hinted", "pressed", "shake", "stock", "discard-slot", "turning");
  g.classList.toggle("wide-card", isWide(rect.width));
  g.style.cssText = `left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px;--cw:${rect.width}px;--pw:${rect.width}px`;
  motionLayer().append(g);
  return g;
}

// where a card, the stock or the discard is: cards.js keeps their places (no layout read between writes)
const rectOf = (el) => {
  if (!el || el.hidden) return null;
  const r = placeOf(el);
  return r.width ? r : null;
};

/** Keyframes of a flight from rect a to rect b for an element drawn at b; `spin` turns it over on the way
 * (degrees at the start and the end), lifted off its place first when `lift`. */
function flightFrames(a, b, { spin = null, lift = false } = {}) {
  // between the centres: the ghost scales about its centre
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const s = a.width / b.width;
  const arc = Math.min(60, Math.hypot(dx, dy) * 0.18);
  const r = (deg) => (spin ? ` ${P} rotateY(${deg}deg)` : "");
  const [r0, r1] = spin || [0, 0];
  const frames = [{ offset: 0, transform: `translate(${dx}px, ${dy}px) scale(${s})${r(r0)}` }];
  if (lift) frames.push({ offset: 0.22, transform: `translate(${dx}px, ${dy - 10}px) scale(${s * 1.08})${r(r0)}` });
  frames.push({
    offset: lift ? 0.6 : 0.5,
    transform: `translate(${dx * 0.45}px, ${dy * 0.45 - arc}px) scale(${(s + 1) / 2 + 0.06})${r(r0 + (r1 - r0) * 0.75)}`,
  });
  frames.push({ offset: 1, transform: `translate(0px, 0px) scale(1)${r(r1)}` });
  return frames;
}

const running = new Set();
function track(animation, ...cleanup) {
  running.add(animation);
  const done = () => {
    running.delete(animation);
    for (const c of cleanup) c();
    animation.cancel(); // a filled animation would otherwise stay in effect (and in getAnimations)
  };
  animation.finished.then(done, done);
  return animation;
}

/** A card turning over where it lies: `backRect` shows its back turning away while the real element's
 * face turns in (or, `down`, its face turning away and the back coming in). */
function turnOver(el, { delay = 0, down = false, face = null } = {}) {
  const rect = rectOf(el);
  if (!rect) return;
  const leaving = down ? ghost(rect, face) : ghost(rect);
  leaving.classList.add("turning");
  el.classList.add("turning");
  const timing = { duration: TURN, delay, easing: "ease-in-out", fill: "both" };
  const away = down ? -180 : 180;
  track(leaving.animate([{ transform: `${P} rotateY(0deg)` }, { transform: `${P} rotateY(${away}deg)` }], timing), () =>
    leaving.remove(),
  );
  track(el.animate([{ transform: `${P} rotateY(${-away}deg)` }, { transform: `${P} rotateY(0deg)` }], timing), () =>
    el.classList.remove("turning"),
  );
  setTimeout(() => sound("turn"), delay + TURN / 2);
}

// ---- A tap felt at once ---------------------------------------------------------------------

let pending = null; // a play shown before the server answered: {pos, ghost, card, animation, landed}
let readied = null; // the ghost of the card under the finger, made before its click: {el, ghost, b}

/** After a finger's (or the mouse's) down on a card the last state lists in `playable`: its flight's
 * ghost, made and hidden, so that the click's frame only shows it and starts its animation (the copy's
 * style and layout are done in a frame between the down and the click). Whatever the click does, the
 * next down or the next state drops it. */
function ready(el) {
  dropReady();
  const game = state.game;
  if (still() || pending || !game || game.status !== "playing") return;
  if (!game.playable.includes(Number(el.dataset.pos))) return;
  const b = rectOf(document.getElementById("discard"));
  if (!b || !rectOf(el)) return;
  const g = ghost(b, el);
  g.style.visibility = "hidden";
  readied = { el, ghost: g, b };
}

function dropReady() {
  if (readied) readied.ghost.remove();
  readied = null;
}

/** Start the flight of the card at `pos` before the server answers (the last state listed it in
 * `playable`). The reply confirms it (render adopts the flight) or puts it back (settle(false)). */
export function launch(pos, discard) {
  if (still() || pending) return false;
  const el = cards[pos];
  const a = rectOf(el);
  const b = rectOf(discard);
  const r = readied;
  readied = null;
  const made = r && b && r.el === el && r.b.left === b.left && r.b.top === b.top && r.b.width === b.width;
  if (r && !made) r.ghost.remove();
  if (!a || !b) return false;
  const g = made ? r.ghost : ghost(b, el);
  g.style.visibility = "";
  el.style.opacity = "0";
  const animation = g.animate(flightFrames(a, b), { duration: FLIGHT, easing: EASE, fill: "forwards" });
  pending = { pos, ghost: g, el, animation, under: null };
  running.add(animation);
  animation.finished.then(
    () => {
      running.delete(animation);
      sound("place", state.game && state.game.streak);
      if (pending && pending.animation === animation && pending.confirmed) endPending();
      else if (!pending || pending.animation !== animation) animation.cancel();
    },
    () => {},
  );
  return true;
}

function endPending() {
  const p = pending;
  pending = null;
  p.el.style.opacity = "";
  p.animation.cancel();
  p.ghost.remove();
  if (p.under) p.under.remove();
}

/** The server's answer to a launched play: confirmed (its reply was drawn) or refused (put back). */
export function settle(confirmed) {
  const p = pending;
  if (!p || confirmed) return;
  pending = null;
  const now = getComputedStyle(p.ghost).transform;
  p.animation.cancel();
  running.delete(p.animation);
  p.el.style.opacity = "";
  const a = rectOf(p.el);
  const b = p.ghost.getBoundingClientRect();
  if (!a) {
    p.ghost.remove();
    return;
  }
  // the ghost is drawn at the discard: it flies from where it is now back to its place
  p.el.style.opacity = "0";
  const home = `translate(${a.left + a.width / 2 - b.left - b.width / 2}px, ${a.top + a.height / 2 - b.top - b.height / 2}px) scale(${a.width / b.width})`;
  const back = p.ghost.animate([{ transform: now === "none" ? "translate(0px, 0px) scale(1)" : now }, { transform: home }], {
    duration: FLIGHT * 0.7,
    easing: EASE,
    fill: "forwards",
  });
  track(back, () => {
    p.el.style.opacity = "";
    p.ghost.remove();
  });
}

// ---- Playing out the server's Turn ----------------------------------------------------------

/** Before the reply is painted: what the cards looked like and where they were. */
export function capture(turn, place, discard) {
  dropReady(); // made from the state before: the card may have gone, or turned
  if (!turn || still()) return null;
  const source = place(turn.from, turn.pos);
  return {
    from: rectOf(source),
    fromEl: source,
    top: rectOf(discard) && ghostSource(discard),
    covered: turn.covered.map((pos) => ghostSource(cards[pos])),
  };
}

/** A detached copy of an element's look, to make a ghost of later. */
function ghostSource(el) {
  if (!el) return null;
  const copy = el.cloneNode(true);
  copy.removeAttribute("id");
  return copy;
}

/** After the reply is painted: play the Turn out. */
export function run(turn, before, place, discard) {
  if (!turn) return;
  if (!before) {
    // reduced motion: the sounds, and the cards that changed fade in (off: not even that)
    if (turn.kind === "play" || turn.undone === "play") sound("place", state.game && state.game.streak);
    if (turn.kind === "draw" || turn.undone === "draw") sound("draw");
    if (turn.revealed.length) sound("turn");
    if (motionLevel() === "reduced" && Element.prototype.animate) {
      const changed = [place(turn.to, turn.pos), ...turn.revealed.map((pos) => cards[pos]), ...turn.covered.map((pos) => cards[pos])];
      for (const el of changed) if (el) el.animate([{ opacity: 0.25 }, { opacity: 1 }], { duration: FADE, easing: "ease-out" });
    }
    return;
  }
  const target = place(turn.to, turn.pos);
  const b = rectOf(target);
  const a = before.from;
  if (turn.kind === "play" && pending && pending.pos === turn.pos) {
    // the flight began at the tap: keep the old top visible under it until it lands
    const p = pending;
    p.confirmed = true;
    if (p.animation.playState === "finished") endPending();
    else if (before.top && b) {
      p.under = ghost(b, before.top);
      p.ghost.before(p.under);
    }
    p.el.style.opacity = "";
    revealAll(turn, FLIGHT * 0.35);
    return;
  }
  revealAll(turn, turn.kind === "undo" ? FLIGHT * 0.55 : FLIGHT * 0.35);
  if (!a || !b) return;
  const toDiscard = turn.to === "discard";
  const under = toDiscard && before.top ? ghost(b, before.top) : null;
  let g;
  let spin = null;
  if (turn.kind === "draw") spin = [0, 180];
  else if (turn.undone === "draw") spin = [0, -180];
  if (spin) {
    // two sides turning together: the back first, then the face (or the other way for an undone draw)
    const back = ghost(b);
    const face = ghost(b, null, turn.card);
    back.classList.add("turning");
    face.classList.add("turning");
    const backSpin = turn.kind === "draw" ? [0, 180] : [-180, 0];
    const faceSpin = turn.kind === "draw" ? [-180, 0] : [0, 180];
    const timing = { duration: FLIGHT + 80, easing: EASE, fill: "forwards" };
    track(back.animate(flightFrames(a, b, { spin: backSpin, lift: turn.kind === "draw" }), timing), () => back.remove());
    g = face;
    track(face.animate(flightFrames(a, b, { spin: faceSpin, lift: turn.kind === "draw" }), timing), () => {
      face.remove();
      if (under) under.remove();
    });
    sound("draw");
  } else {
    g = ghost(b, before.fromEl && before.fromEl.classList.contains("stock") ? null : before.fromEl, turn.card);
    const hideTarget = !toDiscard && target !== discard;
    const anim = g.animate(flightFrames(a, b), { duration: FLIGHT, easing: EASE, fill: "forwards" });
    if (hideTarget) target.style.opacity = "0";
    track(anim, () => {
      g.remove();
      if (under) under.remove();
      if (hideTarget) target.style.opacity = "";
      sound("place", state.game && state.game.streak);
    });
  }
  turn.covered.forEach((pos, i) => {
    const el = cards[pos];
    if (el) turnOver(el, { delay: FLIGHT * 0.7, down: true, face: before.covered[i] });
  });
}

function revealAll(turn, delay) {
  turn.revealed.forEach((pos, i) => cards[pos] && turnOver(cards[pos], { delay: delay + i * 60 }));
}

// ---- A new deal ---------------------------------------------------------------------------------

/** Cards fly from the stock to their places and the bottom row turns over; under 1.2 s; a tap (or a key)
 * skips to the end. Resolves once the flights' first frame is drawn (the focus waits for it).
 *
 * In two frames: the task that drew the new board hides it (the peaks at opacity 0, the faces dealt face
 * up not drawn), so the first frame styles and lays out the new board alone; the flights start in a task
 * after it, and the second frame makes their layers. One frame doing both was a long task at 4x in a third
 * of the deals (docs/ui.md, "The new deal in two frames"). */
let dealt = 0; // the latest deal: an older one's second step, come late, leaves the table to it
export function deal(stock, game) {
  if (still() || !rectOf(stock)) return afterFrame();
  const tableau = $("#tableau");
  const faces = game.tableau.filter((slot) => slot.slot === "face_up" && cards[slot.pos]).map((slot) => cards[slot.pos]);
  tableau.classList.add("dealing");
  for (const el of faces) el.classList.add("turning", "unshown");
  const mine = ++dealt;
  return afterFrame().then(() => {
    if (mine !== dealt) return null;
    tableau.classList.remove("dealing");
    if (state.game && state.game.id === game.id) {
      fly(stock, game);
      return afterFrame();
    }
    for (const el of faces) el.classList.remove("turning", "unshown"); // another game came meanwhile
    return null;
  });
}

function fly(stock, game) {
  const s = rectOf(stock);
  if (!s) return;
  const animations = [];
  const placed = game.tableau.filter((slot) => cards[slot.pos] && slot.slot !== "removed").map((slot) => cards[slot.pos]);
  // in the order they are drawn: the top rows first, the bottom row last
  placed.sort((x, y) => (x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  const step = 17;
  const flight = 280;
  placed.forEach((el, i) => {
    const r = rectOf(el);
    if (!r) return;
    const delay = i * step;
    const frames = flightFrames(s, r);
    if (el.classList.contains("back")) {
      animations.push(track(el.animate(frames, { duration: flight, delay, easing: EASE, fill: "backwards" })));
    } else {
      // a face-up card travels as its back, then turns over where it lands
      const g = ghost(r);
      // deal() marked it "turning unshown": its face is neither styled nor laid out until it starts
      // turning (face down till then), and the ten faces come one a frame as their turns begin
      const unseen = new Animation(new KeyframeEffect(null, [], { duration: delay + flight }), document.timeline);
      unseen.play();
      animations.push(track(unseen, () => el.classList.remove("unshown")));
      const flip = { duration: 220, delay: delay + flight, easing: "ease-in-out", fill: "both" };
      const total = flight + flip.duration;
      const path = flightFrames(s, r, { spin: [0, 0] }).map((f) => ({ ...f, offset: (f.offset * flight) / total }));
      path.push({ offset: 1, transform: `translate(0px, 0px) scale(1) ${P} rotateY(180deg)` });
      g.classList.add("turning");
      const away = g.animate(path, { duration: total, delay, easing: "ease-in-out", fill: "both" });
      const into = el.animate([{ transform: `${P} rotateY(-180deg)` }, { transform: `${P} rotateY(0deg)` }], flip);
      animations.push(track(away, () => g.remove()), track(into, () => el.classList.remove("turning")));
    }
  });
  setTimeout(() => sound("turn"), placed.length * step + flight);
  const skip = () => {
    for (const a of animations) if (a.playState !== "finished") a.finish();
  };
  const stop = () => {
    removeEventListener("pointerdown", skip, true);
    removeEventListener("keydown", skip, true);
  };
  addEventListener("pointerdown", skip, true);
  addEventListener("keydown", skip, true);
  Promise.all(animations.map((a) => a.finished.catch(() => {}))).then(stop);
}

// ---- Pressed and refused ------------------------------------------------------------------------

/** A refused tap: the card or the stock shakes, clearly. */
export function shake(el) {
  sound("refused");
  if (!el || still()) return;
  track(
    el.animate(
      [
        { transform: "translateX(0)" },
        { transform: "translateX(-9px) rotate(-3deg)" },
        { transform: "translateX(8px) rotate(2.5deg)" },
        { transform: "translateX(-6px) rotate(-1.5deg)" },
        { transform: "translateX(4px) rotate(1deg)" },
        { transform: "translateX(0)" },
      ],
      { duration: 420, easing: "ease-out" },
    ),
  );
}

// The pressed state: set on pointerdown, in the frame of the tap.
const pressable = ".card:not(.discard-slot), .btn";
addEventListener(
  "pointerdown",
  (event) => {
    const el = event.target.closest && event.target.closest(pressable);
    if (el && !el.disabled) el.classList.add("pressed");
    // once the pressed state's frame is made, so as not to slow it (a quick tap's click may come first)
    if (el && el.dataset.pos !== undefined && !state.replay) {
      afterFrame().then(() => ready(el));
    }
  },
  true,
);
// Released two frames after the finger lifts, so that even a tap whose down and up come before the same
// frame (a quick tap, a busy page) shows its pressed state in one frame.
const release = () => {
  const pressed = document.querySelectorAll(".pressed");
  if (!pressed.length) return;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      for (const el of pressed) el.classList.remove("pressed");
    }),
  );
};
for (const type of ["pointerup", "pointercancel", "dragstart"]) addEventListener(type, release, true);
