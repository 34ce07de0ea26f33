// The help window, built from help.po: sections, the scoring table from GET /api/rules, the keys, and a
// worked example whose two boards are the engine's (GET /api/preview). Loaded when first opened (main.js).

import { get } from "./api.js";
import { buildTableau, paintFace, paintTableau } from "./board.js";
import { openDialog } from "./dialogs.js";
import { $, h, reducedMotion } from "./dom.js";
import { points, t } from "./i18n.js";
import { state } from "./state.js";

const SECTIONS = ["rules", "scoring", "undo", "codes", "choices", "variants", "example", "keys", "sources"];
const KEYS = ["arrows", "enter", "d", "u", "n", "h", "help", "b", "esc"];
const EXAMPLE = { code: "TP1-E-AAAAAAB", steps: ["", "play 21,play 19,play 22"] };

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

async function exampleFigures() {
  const figures = [];
  for (const [i, actions] of EXAMPLE.steps.entries()) {
    const { status, data } = await get(`/api/preview?${new URLSearchParams({ code: EXAMPLE.code, actions })}`);
    if (status !== 200 || !data) continue;
    const tableau = h("div", { className: "tableau" });
    const discard = h("div", { className: "card" });
    discard.style.position = "relative";
    const board = h("div", { className: "board", "aria-hidden": "true" }, tableau, h("div", { className: "piles" }, discard));
    const caption = h("figcaption", {}, h("strong", {}, `${t(`help.example.figure${i + 1}`)} `), data.description);
    figures.push(h("figure", { className: "example" }, board, caption));
    paintTableau(buildTableau(tableau, state.layout, false), data.tableau, false);
    paintFace(discard, data.discard);
  }
  return figures;
}

async function build() {
  if (builtFor === state.lang) return;
  if (!state.rules) {
    const { status, data } = await get("/api/rules");
    if (status === 200 && data) state.rules = data;
  }
  const toc = h("ul", { className: "help-toc", "aria-label": t("help.contents") });
  const sections = [];
  for (const name of SECTIONS) {
    const title = h("h3", { id: `help-${name}-title` }, t(`help.${name}.title`));
    const section = h("section", { id: `help-${name}`, "aria-labelledby": title.id }, title, ...paragraphs(t(`help.${name}.body`)));
    if (name === "scoring") section.append(scoringTable(state.rules), ...paragraphs(t("help.scoring.after")));
    if (name === "keys") section.append(keysTable());
    if (name === "example") section.append(...(await exampleFigures()), ...paragraphs(t("help.example.after")));
    sections.push(section);
    const link = h("a", { href: `#${section.id}` }, title.textContent);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      section.scrollIntoView({ behavior: reducedMotion.matches ? "auto" : "smooth" });
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    });
    toc.append(h("li", {}, link));
  }
  $("#help-body").replaceChildren(...paragraphs(t("help.intro")), toc, ...sections);
  builtFor = state.rules ? state.lang : null; // without the rules, built again next time
}

export async function openHelp() {
  await build();
  openDialog($("#dlg-help"), $("#dlg-help [data-close]"));
}
