// The help window, built from help.po: "How to play" with a picture of the start of a real deal, then
// sections that open on demand (the rules in full, a worked example, scoring with its table from
// GET /api/rules, undo, codes, our choices, variants, keys, sources). The pictures are the engine's boards
// (GET /api/preview), captioned in words for people. Loaded when first opened (main.js).

import { get, loadRules } from "./api.js";
import { buildTableau, paintFace, paintTableau } from "./board.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { points, t } from "./i18n.js";
import { state } from "./state.js";

// "How to play" comes first and stays open; the other sections open on demand.
const SECTIONS = ["rules", "example", "scoring", "undo", "codes", "choices", "variants", "keys", "sources"];
const KEYS = ["arrows", "enter", "d", "u", "n", "h", "help", "b", "esc"];
const EXAMPLE = "TP1-E-AAAAAAB"; // rules.md §6: its start, and after K♣, A♦ and K♥
const EXAMPLE_LINE = "play 21,play 19,play 22";

let builtFor = null;

/** Blocks separated by blank lines; a block whose lines all start with "- " is a list. */
function paragraphs(text) {
  const out = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((line) => line.trim());
    if (!lines.length) continue;
    if (lines.every((line) => line.startsWith("- "))) out.push(h("ul", {}, ...lines.map((line) => linkify(h("li"), line.slice(2)))));
    else out.push(linkify(h("p"), lines.join(" ")));
  }
  return out;
}

function linkify(el, text) {
  for (const part of text.split(/(https?:\/\/\S+[^\s.,;])/)) {
    if (/^https?:\/\//.test(part)) el.append(h("a", { href: part, rel: "noopener noreferrer", target: "_blank" }, part));
    else if (part) el.append(part);
  }
  return el;
}

function headRow(table, ...ids) {
  table.createTHead().append(h("tr", {}, ...ids.map((id) => h("th", { scope: "col" }, t(id)))));
}

/** The scoring table as GET /api/rules gives it: each event and its points. */
function scoringTable(rules) {
  const table = h("table");
  headRow(table, "help.scoring.event", "help.scoring.points");
  const body = table.createTBody();
  for (const row of rules ? rules.scoring : []) {
    body.append(h("tr", {}, h("td", {}, t(`help.scoring.${row.event}`)), h("td", { className: "num" }, points(row.points))));
  }
  return table;
}

function keysTable() {
  const table = h("table");
  const body = table.createTBody();
  for (const key of KEYS) {
    body.append(h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, t(`web.keys.${key}.key`))), h("td", {}, t(`web.keys.${key}`))));
  }
  return table;
}

/** A board of GET /api/preview (the code after `actions`), drawn like the table, captioned for people. */
async function figure(actions, caption) {
  const { status, data } = await get(`/api/preview?${new URLSearchParams({ code: EXAMPLE, actions })}`);
  if (status !== 200 || !data) return [];
  const tableau = h("div", { className: "tableau" });
  const stock = h("div", { className: "card back" });
  const discard = h("div", { className: "card" });
  stock.style.position = discard.style.position = "relative";
  const board = h("div", { className: "board", "aria-hidden": "true" }, tableau, h("div", { className: "piles" }, stock, discard));
  paintTableau(buildTableau(tableau, state.layout, false), data.tableau, false);
  paintFace(discard, data.discard);
  return [h("figure", { className: "example" }, board, h("figcaption", {}, t(caption)))];
}

/** A section that opens on demand: its heading holds a button that shows or hides the body. */
function disclosure(name, body) {
  const button = h("button", { type: "button", id: `help-${name}-title`, "aria-expanded": "false", "aria-controls": `help-${name}-body` }, t(`help.${name}.title`));
  const panel = h("div", { id: `help-${name}-body`, className: "help-panel", hidden: true }, ...body);
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
  });
  return h("section", { id: `help-${name}`, className: "help-more" }, h("h3", {}, button), panel);
}

async function build() {
  if (builtFor === state.lang) return;
  await loadRules();
  const [start, after] = await Promise.all([figure("", "help.howto.figure"), figure(EXAMPLE_LINE, "help.example.figure")]);
  const howtoTitle = h("h3", { id: "help-howto-title" }, t("help.howto.title"));
  const [lead, ...rest] = paragraphs(t("help.howto.body")); // the picture comes after the first sentence
  const howto = h("section", { id: "help-howto", "aria-labelledby": howtoTitle.id }, howtoTitle, lead, ...start, ...rest);
  const extra = {
    example: after.concat(paragraphs(t("help.example.after"))),
    scoring: [scoringTable(state.rules), ...paragraphs(t("help.scoring.after"))],
    keys: [keysTable()],
  };
  const more = SECTIONS.map((name) => disclosure(name, [...paragraphs(t(`help.${name}.body`)), ...(extra[name] || [])]));
  $("#help-body").replaceChildren(howto, h("p", { className: "help-text help-open" }, t("help.open")), ...more);
  builtFor = state.rules ? state.lang : null; // without the rules, built again next time
}

export async function openHelp() {
  await build();
  openDialog($("#dlg-help"), $("#dlg-help [data-close]"));
}
