// The win's cascade: the cards thrown from their places one after another, falling and bouncing on the
// bottom of the screen, each leaving the trail of every place it passed, in the spirit of the classic
// solitaire win. Loaded when a game is won (celebrate.js fetches it during the moment the cleared table
// shows), so it is not part of the first load.
//
// Why a canvas: the classic's trail is a picture of a card drawn again at each step without clearing.
// Drawn as page elements (a card and its echoes, each an animated layer) the cascade cost a style, layout,
// paint and commit of ~90 layers in every frame: tasks of 60-230 ms in Chromium slowed 4x. Here each card is
// laid out once by the page's own CSS (so it looks as it does on the table), read back, painted once into
// a small picture, and each frame only stamps those pictures where the cards now are.

import { isWide } from "./cards.js";
import { h, idle } from "./dom.js";
import { motionLayer } from "./motion.js";

const STEP = 1000 / 60; // ms between two stamps of a card's trail

/** Throw `sources` ([element to copy, its rectangle] each) once `moment` (an animation: the cleared table
 * shown) ends, then call `thrown()`; `pause(ms)` makes an animation on the page's clock, which the throws
 * follow, so pausing the animations holds the cascade still. The cards' pictures are made one a frame
 * during the moment, so that no frame waits on many. Resolves when the cascade is over or skipped (a tap's
 * click or a key, from the moment on). */
export async function cascade(sources, pause, moment, thrown) {
  const layer = motionLayer();
  const W = innerWidth;
  const H = innerHeight;
  const dpr = Math.min(2, devicePixelRatio || 1);
  const canvas = h("canvas", { className: "cascade", "aria-hidden": "true" });
  canvas.width = Math.round(W * dpr);
  canvas.height = Math.round(H * dpr);
  const host = h("div", { className: "cascade-host" }); // where the cards are laid out to be read
  layer.append(canvas, host);
  const ctx = canvas.getContext("2d");
  document.body.dataset.celebrating = "true";
  const n = sources.length;
  const stagger = Math.min(90, 1400 / n);
  const gravity = 2600 * Math.max(0.6, H / 800);
  const throws = sources.map(([el, r], i) => ({ el, r, at: i * stagger, path: path(r, W, H, gravity, i), drawn: -1 }));
  let courts = null;
  let timer = null; // the throws' clock, from the end of the moment
  let made = 0; // throws whose picture is being made or made
  let ended = false;
  let end = () => {};
  const frame = () => {
    if (ended) return;
    if (courts && made < n) {
      pictures([throws[made]], host, courts, dpr);
      made += 1;
    }
    if (timer) {
      const now = timer.currentTime || 0;
      let over = made === n;
      for (const t of throws.slice(0, made)) {
        if (!t.picture) {
          over = false; // its bitmap is on its way: its trail catches up when it comes
          continue;
        }
        const last = Math.min(t.path.length - 1, Math.floor((now - t.at) / STEP));
        for (let k = t.drawn + 1; k <= last; k += 1) stamp(ctx, dpr, t, t.path[k]);
        t.drawn = Math.max(t.drawn, last);
        if (t.drawn < t.path.length - 1) over = false;
      }
      if (over) return end();
    }
    requestAnimationFrame(frame);
  };
  await new Promise((resolve) => {
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
      moment.cancel();
      if (timer) timer.cancel();
      canvas.remove();
      host.remove();
      delete document.body.dataset.celebrating;
      resolve();
    };
    addEventListener("click", end, true);
    addEventListener("keydown", byKey, true);
    courtPictures(sources).then((pictures) => (courts = pictures));
    moment.finished.then(() => {
      if (ended) return;
      timer = pause(2950);
      timer.finished.then(end, () => {});
      thrown();
    }, end);
    frame();
  });
}

/** One stamp of a card's picture at a point of its path, on whole device pixels: a copy, no resampling. */
function stamp(ctx, dpr, t, [x, y]) {
  const { r, picture } = t;
  ctx.drawImage(picture, Math.round((r.left + x) * dpr), Math.round((r.top + y) * dpr));
}

// ---- A card's picture: the page lays it out, the canvas copies it -----------------------------------

/** Make the pictures of these throws: their cards are laid out together (one style and layout), read,
 * then drawn, each into a canvas of its own. */
function pictures(throws, host, courts, dpr) {
  const copies = throws.map(({ el, r }) => {
    const card = h("div", { className: el.className });
    card.classList.remove("free", "hinted", "pressed", "discard-slot", "turning", "ghost");
    card.classList.toggle("wide-card", isWide(r.width));
    card.append(...[...el.childNodes].map((c) => c.cloneNode(true)));
    card.style.cssText = `width:${r.width}px;height:${r.height}px;--cw:${r.width}px`;
    host.append(card);
    return card;
  });
  const looks = copies.map(read); // every read before any drawing: one layout for all
  host.replaceChildren();
  // stamped as a bitmap: a canvas would be stamped by replaying its drawing, text and all, at every stamp
  throws.forEach((t, i) =>
    createImageBitmap(draw(looks[i], t.r, courts, dpr)).then(
      (bitmap) => (t.picture = bitmap),
      () => {},
    ),
  );
}

/** What a laid-out card shows: its colours and edge, each glyph with its box and font, its court figure. */
function read(card) {
  const base = card.getBoundingClientRect();
  const cs = getComputedStyle(card);
  const boxOf = (el) => {
    const b = el.getBoundingClientRect();
    return { x: b.left - base.left, y: b.top - base.top, w: b.width, h: b.height };
  };
  const glyphs = [];
  for (const el of card.querySelectorAll(".idx .r, .idx .s, .face > .pip, .pips .p")) {
    const box = boxOf(el);
    if (!box.w) continue; // not shown at this size
    const g = getComputedStyle(el);
    const turned = Boolean(el.closest(".idx.br")) || el.classList.contains("low");
    glyphs.push({ text: el.textContent, box, font: g.font, color: g.color, spacing: g.letterSpacing, turned });
  }
  const art = card.querySelector(".court-art");
  let court = null;
  if (art) {
    const a = getComputedStyle(art);
    court = {
      box: boxOf(art),
      svg: boxOf(art.querySelector("svg")),
      fill: a.backgroundColor,
      edge: a.borderTopColor,
      edgeWidth: parseFloat(a.borderTopWidth) || 0,
      radius: parseFloat(a.borderTopLeftRadius) || 0,
      key: courtKey(card),
    };
  }
  return {
    fill: cs.backgroundColor,
    edge: cs.borderTopColor,
    edgeWidth: parseFloat(cs.borderTopWidth) || 0,
    radius: parseFloat(cs.borderTopLeftRadius) || 0,
    glyphs,
    court,
  };
}

function draw(look, r, courts, dpr) {
  const picture = document.createElement("canvas");
  picture.width = Math.ceil(r.width * dpr);
  picture.height = Math.ceil(r.height * dpr);
  const ctx = picture.getContext("2d");
  ctx.scale(dpr, dpr);
  const e = look.edgeWidth;
  ctx.beginPath();
  ctx.roundRect(e / 2, e / 2, r.width - e, r.height - e, Math.max(0, look.radius - e / 2));
  ctx.fillStyle = look.fill;
  ctx.fill();
  if (e) {
    ctx.lineWidth = e;
    ctx.strokeStyle = look.edge;
    ctx.stroke();
  }
  if (look.court) drawCourt(ctx, look.court, courts.get(look.court.key));
  for (const g of look.glyphs) {
    ctx.save();
    ctx.font = g.font;
    ctx.fillStyle = g.color;
    ctx.letterSpacing = g.spacing === "normal" ? "0px" : g.spacing;
    const m = ctx.measureText(g.text);
    const ascent = m.fontBoundingBoxAscent;
    const content = ascent + m.fontBoundingBoxDescent;
    // the text's content area is centred in its line box, as the page draws it
    ctx.translate(g.box.x + g.box.w / 2, g.box.y + g.box.h / 2);
    if (g.turned) ctx.rotate(Math.PI);
    ctx.fillText(g.text, -g.box.w / 2, (content > 0 ? -content / 2 : -g.box.h / 2) + ascent, g.box.w + 1);
    ctx.restore();
  }
  return picture;
}

function drawCourt(ctx, court, image) {
  const { box, svg } = court;
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(box.x, box.y, box.w, box.h, court.radius);
  ctx.fillStyle = court.fill;
  ctx.fill();
  ctx.clip();
  if (image) {
    // the figure's viewBox 0 0 40 52, fitted as preserveAspectRatio="xMidYMax meet"
    const s = Math.min(svg.w / 40, svg.h / 52);
    ctx.drawImage(image, svg.x + (svg.w - 40 * s) / 2, svg.y + svg.h - 52 * s, 40 * s, 52 * s);
  }
  ctx.restore();
  if (court.edgeWidth) {
    const e = court.edgeWidth;
    ctx.beginPath();
    ctx.roundRect(box.x + e / 2, box.y + e / 2, box.w - e, box.h - e, Math.max(0, court.radius - e / 2));
    ctx.lineWidth = e;
    ctx.strokeStyle = court.edge;
    ctx.stroke();
  }
}

// ---- The court figures (our drawings, the symbols #f-11, #f-12, #f-13 of index.html) as pictures ----

const courtKey = (card) => {
  const rank = [11, 12, 13].find((k) => card.querySelector(`use[href="#f-${k}"]`));
  return `${rank} ${getComputedStyle(card).color}`;
};

/** The text colour of cards of these classes, laid out together (one style for all) and read. */
function coloursOf(classNames) {
  const probe = h("div", { className: "cascade-host" });
  const cards = classNames.map((className) => h("div", { className }));
  probe.append(...cards);
  motionLayer().append(probe);
  const colours = cards.map((card) => getComputedStyle(card).color);
  probe.remove();
  return colours;
}

// "rank colour" -> the promise of its decoded picture (null if it could not be made). Kept for the page's
// later wins; a change of theme or deck changes the suit's colour, and makes new ones. The figures' other
// colours are their own (fill attributes in index.html).
const figures = new Map();
function figure(rank, colour) {
  const key = `${rank} ${colour}`;
  if (!figures.has(key)) figures.set(key, decoded(rank, colour));
  return figures.get(key);
}

async function decoded(rank, colour) {
  const symbol = document.getElementById(`f-${rank}`);
  if (!symbol) return null;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 52" width="160" height="208" ` +
    `style="color:${colour}">${symbol.innerHTML}</svg>`;
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  try {
    await image.decode();
    return image;
  } catch {
    return null; // drawn without its figure: the card's corner still says what it is
  }
}

/** The court figures among the cards, one picture per figure and colour, decoded before the first throw. */
async function courtPictures(sources) {
  const courts = sources.map(([el]) => el).filter((el) => el.querySelector(".court-art"));
  const colours = coloursOf(courts.map((el) => el.className));
  const pictures = new Map();
  await Promise.all(
    courts.map(async (el, i) => {
      const rank = Number((el.querySelector("use").getAttribute("href") || "").replace("#f-", ""));
      const key = `${rank} ${colours[i]}`;
      if (pictures.has(key)) return;
      pictures.set(key, null);
      pictures.set(key, await figure(rank, colours[i]));
    }),
  );
  return pictures;
}

let prepared = false;
/** A few cards before a win (celebrate.js): every suit colour's figures made ahead, one an idle moment, so
 * that the win's first frames do not make them. */
export function prepare() {
  if (prepared) return;
  prepared = true;
  idle(
    () => {
      const colours = [...new Set(coloursOf(["card s-c", "card s-d", "card s-h", "card s-s"]))];
      const todo = [11, 12, 13].flatMap((rank) => colours.map((colour) => [rank, colour]));
      const next = () => {
        const item = todo.shift();
        if (item) figure(item[0], item[1]).then(() => idle(next, { fallback: 50 }));
      };
      next();
    },
    { fallback: 50 },
  );
}

// ---- The throw ----------------------------------------------------------------------------------

/** The bouncing path of one card, one point [x, y] a STEP: thrown sideways, falling, bouncing on the
 * bottom of the screen, until it leaves the screen or 1.5 s have passed. Upright, as the classic's. */
function path(r, W, H, gravity, i) {
  const random = mulberry(i + 1);
  // mostly towards the farther side, so that a card bounces across the screen
  const side = r.left + r.width / 2 < W / 2 ? 1 : -1;
  const dir = random() < 0.8 ? side : -side;
  let vx = dir * W * (0.3 + random() * 0.35);
  let vy = -(150 + random() * 500);
  let x = 0;
  let y = 0;
  const floor = H - r.top - r.height;
  const points = [];
  const dt = STEP / 1000;
  for (let t = 0; t < 1.5; t += dt) {
    points.push([x, y]);
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
  return points;
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
