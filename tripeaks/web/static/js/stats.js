// The statistics window: both rule sets side by side, then each kind of game with options played (kept
// apart: a joker or the traditional scoring changes what a win rate or a score means), the recent games
// (each one replays its deal), reset.
// Loaded when first opened (main.js).

import { get, write } from "./api.js";
import { rulesLine } from "./board.js";
import { closeDialog, confirm, openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { startGame } from "./game.js";
import { longDay, number, t } from "./i18n.js";
import { announce, toast } from "./live.js";
import { state } from "./state.js";

const RULES = ["easy", "classic"];
const ROWS = [
  ["played", {}],
  ["won", {}],
  ["win_rate", { style: "percent", maximumFractionDigits: 0 }],
  ["current_streak", {}],
  ["best_streak", {}],
  ["longest_card_streak", {}],
  ["best_score", {}],
  ["average_winning_score", { maximumFractionDigits: 0 }],
  // the honest figures: luck set apart by the solver's verdict on each deal, and hints apart
  ["winnable_won", (s) => t("web.stats.of", { n: number(s.winnable_won), m: number(s.winnable_played) })],
  ["best_share", { style: "percent", maximumFractionDigits: 0 }],
  ["won_without_hints", {}],
  ["won_with_hints", {}],
  // the wins with hints, told apart: a perfect hint knows every card, a fair one only what is seen
  ["won_with_fair_hints", {}],
  ["won_with_perfect_hints", {}],
  // the win rate of each difficulty grade (counted since the grade is kept with each game), and how
  // many deals that could not be won were played
  ["grade_gentle", (s) => gradeRate(s, "gentle")],
  ["grade_medium", (s) => gradeRate(s, "medium")],
  ["grade_hard", (s) => gradeRate(s, "hard")],
  ["grade_unwinnable", (s) => number(s.by_grade && s.by_grade.unwinnable ? s.by_grade.unwinnable.played : null)],
];

/** "60% (3 of 5)": the share of the grade's deals won; a dash while none was played. */
function gradeRate(stats, grade) {
  const g = stats.by_grade && stats.by_grade[grade];
  if (!g || !g.played) return t("web.stats.none");
  const rate = number(g.won / g.played, { style: "percent", maximumFractionDigits: 0 });
  return t("web.stats.grade_rate", { rate, n: number(g.won), m: number(g.played) });
}

/** A table of the statistics' rows, a column per [heading, Stats]. */
function grid(columns) {
  const table = h("table", { className: "stats-grid" });
  table.createTHead().append(h("tr", {}, h("td"), ...columns.map(([head]) => h("th", { scope: "col" }, head))));
  const rows = table.createTBody();
  for (const [key, options] of ROWS) {
    const cell = (stats) => (typeof options === "function" ? options(stats) : number(stats[key], options));
    rows.append(h("tr", {}, h("th", { scope: "row" }, t(`web.stats.${key}`)), ...columns.map(([, stats]) => h("td", {}, cell(stats)))));
  }
  return table;
}

async function fill() {
  const body = $("#stats-body");
  const { status, data } = await get("/api/stats");
  if (status !== 200 || !data) {
    body.textContent = t("web.error.network");
    return;
  }
  const table = grid(RULES.map((r) => [t(`web.rules.${r}_short`), data[r]]));
  const kinds = (data.variants || []).map((kind) => grid([[rulesLine(kind), kind.stats]]));
  const when = new Intl.DateTimeFormat(state.lang, { dateStyle: "medium", timeStyle: "short" });
  const recent = h("ul", { className: "recent" });
  for (const game of data.recent || []) {
    const finished = game.finished_at ? new Date(game.finished_at) : null;
    // a deal of the day comes without its code until its day is over: shown, not replayable yet
    const button = h(
      game.code ? "button" : "div",
      game.code ? { type: "button", className: "btn" } : { className: "btn secret" },
      game.code ? h("code", {}, game.code) : h("span", {}, t("web.stats.daily_secret", { day: longDay(game.daily) })),
      h("span", {}, `${t(`web.stats.outcome.${game.outcome}`)} · ${number(game.score)}`),
      h("span", { className: "muted" }, finished && !Number.isNaN(finished.getTime()) ? when.format(finished) : ""),
    );
    if (game.code) button.addEventListener("click", async () => {
      closeDialog($("#dlg-stats"));
      const error = await startGame({ code: game.code });
      if (error) toast(error);
    });
    recent.append(h("li", {}, button));
  }
  const parts = [table, ...kinds, h("h3", {}, t("web.stats.recent"))];
  if (recent.children.length) parts.push(h("p", { className: "help-text" }, t("web.stats.replay")), recent);
  else parts.push(h("p", { className: "muted" }, t("web.stats.recent_empty")));
  body.replaceChildren(...parts);
}

export async function openStats() {
  await fill();
  openDialog($("#dlg-stats"), $("#dlg-stats [data-close]"));
}

async function reset() {
  const yes = await confirm({
    title: t("web.confirm.reset.title"),
    text: t("web.confirm.reset.text"),
    yes: t("web.confirm.reset.yes"),
    no: t("web.cancel"),
  });
  if (!yes) return;
  await write("DELETE", "/api/stats");
  await fill();
  announce(t("web.stats.reset_done"));
  $("#stats-reset").focus();
}

$("#stats-reset").addEventListener("click", reset);
