// The help window, built from help.po: "How to play" with a picture of the start of a real deal, then
// sections that open on demand (the rules in full, a worked example, scoring with both its tables from
// GET /api/rules, undo, codes, our choices, variants, the layouts with a picture of each, keys, sources). The pictures are the engine's boards
// (GET /api/preview), captioned in words for people. The options are named as everywhere else
// (option.* of the catalog, like the header's rules line). Loaded when first opened (main.js).

import { get, loadRules } from "./api.js";
import { buildTableau, layoutPicture, paintFace, paintTableau } from "./cards.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { number, t } from "./i18n.js";
import { oursRows, traditionalRows } from "./scoring.js";
import { state } from "./state.js";

// "How to play" comes first and stays open; the other sections open on demand.
const SECTIONS = ["rules", "example", "scoring", "undo", "codes", "choices", "variants", "layouts", "keys", "sources"];
const KEYS = ["arrows", "enter", "d", "u", "r", "n", "h", "j", "help", "b", "esc"];
/** The keys of a game's replay (replay.js), which replace the board's while it shows. */
const REPLAY_KEYS = ["replay_space", "replay_arrows", "replay_esc"];
const EXAMPLE = "TP1-E-AAAAAAB"; // rules.md §6: its start, and after K♣, A♦ and K♥
const EXAMPLE_LINE = "play 21,play 19,play 22";
const VARIANTS = ["open_peaks", "empty_discard", "joker"]; // the New game window's order
const CARDS = 28; // on the table: the best traditional run plays them all

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

function row(label, value) {
  return h("tr", {}, h("td", {}, label), h("td", { className: "num" }, value));
}

/** A scoring's table in the help: each event and its points (scoring.js). */
function eventsTable(id, rows) {
  const table = h("table", { id });
  headRow(table, "help.scoring.event", "help.scoring.points");
  table.createTBody().append(...rows.map(([label, value]) => row(label, value)));
  return table;
}

/** Our scoring table as GET /api/rules gives it: each event and its points. */
function scoringTable(rules) {
  return eventsTable("help-scoring-ours", oursRows(rules, "help.scoring"));
}

/** The traditional scoring's table from GET /api/rules `traditional`: the start, a run, a draw, each peak. */
function traditionalTable(rules) {
  return eventsTable("help-scoring-traditional", traditionalRows(rules));
}

/** The figures the traditional scoring's sentences quote, from the same reply as its table. */
function traditionalFigures(rules) {
  const trad = rules && rules.traditional;
  if (!trad) return {};
  return { start: number(trad.start), best: number(trad.best), bonus: number(trad.peaks.reduce((a, b) => a + b, 0)), cards: number(CARDS) };
}

/** An option's name as the header's rules line and the API name it (option.*), as a heading. */
function optionName(name) {
  const word = t(`option.${name}`);
  return word.charAt(0).toLocaleUpperCase(state.lang) + word.slice(1);
}

function scoringBody(rules) {
  const figures = traditionalFigures(rules);
  return [
    ...paragraphs(t("help.scoring.intro")),
    h("h4", { id: "help-scoring-ours-title" }, t("help.scoring.ours")),
    ...paragraphs(t("help.scoring.body")),
    scoringTable(rules),
    ...paragraphs(t("help.scoring.after")),
    h("h4", { id: "help-scoring-traditional-title" }, optionName("traditional")),
    ...paragraphs(t("help.scoring.traditional", figures)),
    traditionalTable(rules),
    ...paragraphs(t("help.scoring.traditional_after", figures)),
  ];
}

/** Each variant under its name, then what they share and what is not offered. */
function variantsBody() {
  const each = VARIANTS.flatMap((name) => [h("h4", { id: `help-variant-${name}` }, optionName(name)), ...paragraphs(t(`help.variants.${name}`))]);
  return [...paragraphs(t("help.variants.body")), ...each, ...paragraphs(t("help.variants.after"))];
}

/** The layouts section: what is the same on every table, then each layout offered (GET /api/layouts) with its
 * picture (as in the New game window), its name and its size. */
function layoutsBody() {
  const list = h(
    "ul",
    { className: "layouts-list" },
    ...state.layouts
      .filter((layout) => layout.offered)
      .map((layout) =>
        h(
          "li",
          {},
          layoutPicture(layout.places),
          h(
            "span",
            {},
            h("strong", {}, t(`layout.${layout.id}`)),
            h("span", {}, t("help.layouts.size", { cards: number(layout.cards), stock: number(layout.stock), groups: number(layout.groups) })),
          ),
        ),
      ),
  );
  return [...paragraphs(t("help.layouts.body")), list];
}

function keysTable(keys) {
  const table = h("table");
  const body = table.createTBody();
  for (const key of keys) {
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
  // the example's layout (its code's), not the table's: the help shows the same picture whatever is played
  const layout = state.layouts.find((l) => l.id === data.layout) || state.layouts[0];
  if (!layout) return [];
  paintTableau(buildTableau(tableau, layout.places, false), data.tableau, false);
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
  const bodies = {
    example: [...paragraphs(t("help.example.body")), ...after, ...paragraphs(t("help.example.after"))],
    scoring: scoringBody(state.rules),
    variants: variantsBody(),
    layouts: layoutsBody(),
    keys: [...paragraphs(t("help.keys.body")), keysTable(KEYS), ...paragraphs(t("help.keys.replay")), keysTable(REPLAY_KEYS)],
  };
  const more = SECTIONS.map((name) => disclosure(name, bodies[name] || paragraphs(t(`help.${name}.body`))));
  $("#help-body").replaceChildren(howto, h("p", { className: "help-text help-open" }, t("help.open")), ...more);
  builtFor = state.rules ? state.lang : null; // without the rules, built again next time
}

export async function openHelp() {
  await build();
  openDialog($("#dlg-help"), $("#dlg-help [data-close]"));
}
