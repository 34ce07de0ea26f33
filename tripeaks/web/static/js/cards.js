// The cards and their places: the page's low layer. The tableau's elements built where GET /api/layouts puts
// the cards of the game's layout (built again when a game of another layout comes), the table's shape and
// sizes, where each card, the stock and the discard are on screen (measured once per change of size), and
// painting a card's face or back. It knows no game: render and the focus (board.js), the motion (motion.js)
// and the celebrations (celebrate.js, cascade.js) are built on it.

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { state } from "./state.js";

/** The tableau's buttons, by position (of the layout built last). */
export const cards = [];

let built = null; // the id of the layout the tableau holds

/** The tableau of the layout ``id`` (one of GET /api/layouts), built unless it is the one on the table already;
 * true when it was built now. An id the page was not told of leaves the table as it is. */
export function useLayout(id) {
  if (!id || id === built) return false;
  const layout = state.layouts.find((l) => l.id === id);
  if (!layout) return false;
  build(layout.places);
  built = id;
  state.layout = layout.places;
  return true;
}

/** A layout's size in card widths and rows: ``cols`` wide (its places' x run from 0) and ``rows`` steps of a row
 * down from its top row to its lowest (a card is then as tall as a card below that). */
export function shapeOf(places) {
  return { cols: Math.max(...places.map((p) => p.x)) + 1, rows: Math.max(...places.map((p) => p.y)) };
}

/** Draw the places of a layout on the table, in place of the ones there. */
function build(layout) {
  const tableau = $("#tableau");
  tableau.replaceChildren();
  cards.length = 0;
  grid.clear();
  buildTableau(tableau, layout, true).forEach((el, pos) => (cards[pos] = el));
  ({ cols, rows } = shapeOf(layout));
  for (const p of layout) if (cards[p.pos]) grid.set(cards[p.pos], p);
  places = null;
  // a table of the same size resizes nothing: its cards take the faces of the width it had
  if (tableauWidth) wideFaces(cards, tableauWidth / cols);
  if (!sizes) watchSizes();
}

let sizes = null;
let tableauWidth = 0;
let firstSize = null;
/** Resolves once the built board's table has had its size written (shapeTable): until then app.css sizes
 * its cards from no size at all. At once when no board was built. */
export const boardSized = () => firstSize || Promise.resolve();
function watchSizes() {
  let sized;
  firstSize = new Promise((resolve) => (sized = resolve));
  sizes = new ResizeObserver((entries) => {
    const table = entries.find((entry) => entry.target.id === "table");
    if (table) shapeTable(table.target, table.contentBoxSize[0]);
    // a new table size sizes the board anew: its places are measured when next asked for (or at its own
    // resize); otherwise layout is clean here, and this read costs nothing
    places = table ? null : measure();
    for (const entry of entries) {
      const width = entry.borderBoxSize[0].inlineSize;
      if (entry.target.id === "tableau") {
        tableauWidth = width;
        wideFaces(cards, width / cols);
      } else if (entry.target.id === "stock") wideFaces([$("#stock"), $("#discard")], width);
    }
    if (table) sized();
  });
  for (const el of [$("#table"), $("#tableau"), $("#stock"), $(".notices")]) if (el) sizes.observe(el);
}

// The table's size and shape, for app.css to size the board from: what a CSS size container would give,
// written once per change of size. As a container, the table had its cards' styles resolved inside its
// layout at every change, which doubled the layout time of a game (docs/ui.md, "Long tasks").
function shapeTable(table, { inlineSize: width, blockSize: height }) {
  table.style.setProperty("--tw", `${width}px`);
  table.style.setProperty("--th", `${height}px`);
  const shape = {
    upright: width <= height,
    landscape: width >= height,
    tall: width <= height * 0.6,
    short: height <= 560,
    side: width >= height * 2.4,
    narrow: width <= 480,
  };
  for (const [name, on] of Object.entries(shape)) table.classList.toggle(name, on);
}

// A card's face has two looks, small and large (.wide-card: app.css), chosen by its width: set here once
// per change of size (a ResizeObserver, no layout read), not by a size container on every card.
let cols = 10;
let rows = 3;
// The large look from an inner width of 88 px: its corner rank (24 % of it) is then at least the 21 px rank of a
// 390 px phone's small faces; from 70 px, a tablet's cards had 17 px ranks (docs/ui.md, Layout).
const WIDE = 88;
export const isWide = (width) => width - 2 >= WIDE;
function wideFaces(elements, width) {
  const wide = isWide(width);
  for (const el of elements) if (el) el.classList.toggle("wide-card", wide);
}

// ---- Where the cards are: measured once per change of size ---------------------------------
// The places of the layout's cards (removed ones too), the stock and the discard, as screen rectangles: three
// reads after a change of size of the table, the peaks, the piles or the notices (which move the board),
// then kept. The motion reads them without making the browser recompute style and layout between its
// writes. They are the untransformed boxes: a pressed, turning or shaking card's place, not its shape.
const grid = new Map(); // tableau element -> its layout position {x, y}
let places = null;

function box(el) {
  const r = el.getBoundingClientRect();
  const width = el.offsetWidth;
  const height = el.offsetHeight;
  // a transform (pressed, shaking) moves the drawn box about its centre; the place is the box untransformed
  return { left: r.left + r.width / 2 - width / 2, top: r.top + r.height / 2 - height / 2, width, height };
}

function measure() {
  const map = new Map();
  const tableau = $("#tableau");
  const stock = $("#stock");
  const discard = $("#discard");
  if (!tableau || !stock || !discard) return map;
  const t = tableau.getBoundingClientRect();
  const s = box(stock);
  map.set(stock, s);
  map.set(discard, box(discard));
  const cw = t.width / cols;
  const ch = s.width ? (cw * s.height) / s.width : cw * 1.4; // the piles have the cards' proportions
  const sy = rows ? (t.height - ch) / rows : 0;
  for (const [el, p] of grid) map.set(el, { left: t.left + p.x * cw, top: t.top + p.y * sy, width: cw, height: ch });
  return map;
}

/** Where an element is drawn, without a layout read for the cards, the stock and the discard (see above). */
export function placeOf(el) {
  if (!places) places = measure();
  const place = places.get(el);
  if (place) return place;
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

export function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

export function nearest(rect, candidates) {
  const c = centre(rect);
  let best = null;
  let bestDistance = Infinity;
  for (const el of candidates) {
    const d = centre(placeOf(el));
    const distance = Math.hypot(d.x - c.x, d.y - c.y);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = el;
    }
  }
  return best;
}

/** How many cards lie on a place, one on another: 0 for a card nothing covers. */
function depths(positions) {
  const by = new Map(positions.map((p) => [p.pos, p]));
  const memo = new Map();
  const depth = (pos) => {
    if (!memo.has(pos)) memo.set(pos, Math.max(-1, ...(by.get(pos).covered_by || []).map(depth)) + 1);
    return memo.get(pos);
  };
  for (const p of positions) depth(p.pos);
  return memo;
}

/** A card comes after every card it covers, so that it lies over them: the deepest first, then by rows and from
 * the left, whichever way a layout's cards cover each other. */
function drawnOrder(positions, depth = depths(positions)) {
  return [...positions].sort((a, b) => depth.get(b.pos) - depth.get(a.pos) || a.y - b.y || a.x - b.x);
}

export function buildTableau(container, positions, interactive) {
  const board = container.closest(".board");
  const { cols, rows } = shapeOf(positions);
  board.style.setProperty("--cols", String(cols));
  board.style.setProperty("--rows", String(rows));
  const elements = [];
  for (const p of drawnOrder(positions)) {
    const el = interactive ? h("button", { type: "button", tabIndex: -1 }) : h("div", { "aria-hidden": "true" });
    el.className = "card back";
    el.style.setProperty("--x", String(p.x));
    el.style.setProperty("--y", String(p.y));
    el.dataset.pos = String(p.pos);
    container.append(el);
    elements[p.pos] = el;
  }
  return elements;
}

/** A small picture of a layout (the New game window): its cards as little rectangles where the table puts
 * them, each over the cards it covers, those that nothing covers (face up at the start) lighter. */
export function layoutPicture(positions, mark = null) {
  const { cols, rows } = shapeOf(positions);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${cols * 10} ${rows * 7 + 14}`);
  svg.setAttribute("class", "layout-pic");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const depth = depths(positions);
  for (const p of drawnOrder(positions, depth)) {
    const rect = document.createElementNS(SVG, "rect");
    for (const [name, value] of Object.entries({ x: p.x * 10 + 0.6, y: p.y * 7 + 0.6, width: 8.8, height: 12.8, rx: 1.2 })) {
      rect.setAttribute(name, String(value));
    }
    // `mark`: a group drawn apart (a level's goal "this group first": level.js)
    const names = [!depth.get(p.pos) && "up", mark !== null && p.group === mark && "mark"].filter(Boolean);
    if (names.length) rect.setAttribute("class", names.join(" "));
    svg.append(rect);
  }
  return svg;
}

/** The tableau's cards as the state has them; ``blocked`` (open peaks): face up, still covered. */
export function paintTableau(elements, tableau, interactive, blocked = []) {
  const covered = new Set(blocked);
  for (const slot of tableau) {
    const el = elements[slot.pos];
    if (!el) continue;
    const removed = slot.slot === "removed";
    if (el.hidden !== removed) el.hidden = removed; // only what changed is written
    const under = covered.has(slot.pos);
    el.classList.toggle("free", slot.slot === "face_up" && !under);
    el.classList.toggle("blocked", under);
    if (slot.slot === "face_up" && slot.card) {
      if (el.dataset.card !== slot.card.label) paintFace(el, slot.card);
      if (interactive) label(el, under ? t("card.covered", { card: slot.card.name }) : slot.card.name);
    } else {
      if (!el.classList.contains("back")) paintBack(el);
      if (interactive) label(el, t("card.hidden"));
    }
  }
}

const label = (el, text) => el.getAttribute("aria-label") !== text && el.setAttribute("aria-label", text);

/** A face-up card: corner indexes from the server's label, a pip, a large ace or a court figure (J, Q, K:
 * our own drawings, the symbols #f-11, #f-12, #f-13 of index.html). */
const SUITS = { clubs: "s-c", diamonds: "s-d", hearts: "s-h", spades: "s-s" };
const SVG = "http://www.w3.org/2000/svg";

function courtArt(rank) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 40 52");
  svg.setAttribute("preserveAspectRatio", "xMidYMax meet");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#f-${rank}`);
  svg.append(use);
  return h("span", { className: "court-art" }, svg);
}

/** The classic pip arrangements of 2 to 10: [column, row] with columns 0–2 and rows 0–6 (top to bottom);
 * CSS places them and turns the lower ones over. Shown only where a card is large enough (app.css). */
const PIPS = (() => {
  const top = [[0, 0], [2, 0]], bottom = [[0, 6], [2, 6]], side = [[0, 3], [2, 3]];
  const four = [...top, ...bottom], six = [...four, ...side];
  return {
    2: [[1, 0], [1, 6]],
    3: [[1, 0], [1, 3], [1, 6]],
    4: four,
    5: [...four, [1, 3]],
    6: six,
    7: [...six, [1, 1.5]],
    8: [...six, [1, 1.5], [1, 4.5]],
    9: [...four, [0, 2], [2, 2], [0, 4], [2, 4], [1, 3]],
    10: [...four, [0, 2], [2, 2], [0, 4], [2, 4], [1, 1], [1, 5]],
  };
})();

function pipLayout(rank, suit) {
  const pips = PIPS[rank].map(([c, r]) => {
    const pip = h("span", { className: r > 3 ? "p low" : "p" }, suit);
    pip.style.setProperty("--c", String(c));
    pip.style.setProperty("--r", String(r));
    return pip;
  });
  return h("span", { className: "pips" }, ...pips);
}

export function paintFace(el, card) {
  if (card.suit === "joker") return paintJoker(el, card);
  const suit = card.label.slice(-1);
  const rank = card.label.slice(0, -1);
  el.classList.remove("back", "vacant", "s-c", "s-d", "s-h", "s-s", "s-j");
  el.classList.add(SUITS[card.suit]);
  el.classList.toggle("ace", card.rank === 1);
  el.classList.toggle("ten", card.rank === 10);
  const corner = (extra) =>
    h("span", { className: `idx${extra}` }, h("span", { className: "r" }, rank), h("span", { className: "s" }, suit));
  const middle = card.rank > 10 ? courtArt(card.rank) : h("span", { className: "pip" }, suit);
  const pips = card.rank > 1 && card.rank <= 10 ? [pipLayout(card.rank, suit)] : [];
  el.replaceChildren(
    h("span", { className: "face", "aria-hidden": "true" }, corner(""), middle, ...pips, corner(" br")),
  );
  el.dataset.card = card.label;
}

/** The joker: a star in its corners and at its heart, and its word (the catalog's) across a large one. */
function paintJoker(el, card) {
  el.classList.remove("back", "vacant", "s-c", "s-d", "s-h", "s-s", "ace", "ten");
  el.classList.add("s-j");
  const corner = (extra) =>
    h("span", { className: `idx${extra}` }, h("span", { className: "r" }, "★"), h("span", { className: "s" }, ""));
  el.replaceChildren(
    h(
      "span",
      { className: "face", "aria-hidden": "true" },
      corner(""),
      h("span", { className: "pip" }, "★"),
      h("span", { className: "joker-word" }, t("card.joker.label")),
      corner(" br"),
    ),
  );
  el.dataset.card = card.label;
}

/** An empty discard (a game whose discard starts empty): the outline of an empty place. */
export function paintVacant(el) {
  el.replaceChildren();
  el.classList.remove("back", "s-c", "s-d", "s-h", "s-s", "s-j", "ace", "ten");
  el.classList.add("vacant");
  delete el.dataset.card;
}

function paintBack(el) {
  el.replaceChildren();
  el.classList.add("back");
  el.classList.remove("s-c", "s-d", "s-h", "s-s", "ace", "ten");
  delete el.dataset.card;
}
