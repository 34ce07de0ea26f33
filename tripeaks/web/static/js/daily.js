// The deal of the day's window: today's deal (play it, or go on with it), the player's result with the
// share text, the day's board, the daily streak and a month calendar, and the name shown on the board.
// Every figure and the share text are the server's (docs/api.md, "The deal of the day"); loaded when
// first opened (main.js).

import { get, write } from "./api.js";
import { closeDialog, openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { startGame } from "./game.js";
import { longDay, number, t } from "./i18n.js";
import { announce, toast } from "./live.js";
import { state } from "./state.js";

const seconds = (value) => (value === null || value === undefined ? t("web.stats.none") : t("web.daily.seconds", { n: number(value, { maximumFractionDigits: 0 }) }));

async function play(code = null, day = null) {
  closeDialog($("#dlg-daily"));
  const error = code ? await startGame({ code }) : await startGame({}, "/api/daily", day);
  if (error) toast(error);
}

/** What the player can do with today's deal, and their result once it is over; for a past day, the
 * result and the deal itself (its code is everyone's now), to play as an ordinary game. */
function today(board, isToday) {
  const me = board.me;
  const parts = [];
  if (!isToday && (!me || !me.finished)) {
    parts.push(h("p", {}, t("web.daily.not_played")));
  } else if (!me) {
    parts.push(h("p", {}, t("web.daily.rules_text")));
    parts.push(h("button", { type: "button", className: "btn primary", id: "daily-play" }, t("web.daily.play")));
  } else if (!me.finished && me.ended) {
    parts.push(h("p", {}, t("web.daily.left")));
    if (isToday) parts.push(h("p", { className: "help-text" }, t("web.daily.tomorrow")));
  } else if (!me.finished) {
    parts.push(h("p", {}, t("web.daily.under_way")));
    parts.push(h("button", { type: "button", className: "btn primary", id: "daily-play" }, t("web.daily.continue")));
  } else {
    const rank = me.too_fast
      ? t("web.daily.too_fast_rank")
      : me.rank
        ? t("web.daily.rank", { rank: number(me.rank), players: number(board.players) })
        : "";
    const list = h(
      "dl",
      { className: "daily-me" },
      ...[
        ["web.daily.your_rank", rank],
        ["web.score", number(me.score)],
        ["web.moves", number(me.moves)],
        ["web.daily.time", seconds(me.seconds)],
        // the deal's best score is shown once the day is over (docs/api.md, "The deal of the day")
        ...(board.best_score === null ? [] : [["web.daily.best", number(board.best_score)]]),
      ].flatMap(([key, value]) => [h("dt", {}, t(key)), h("dd", {}, value)]),
    );
    parts.push(h("p", { className: "result" }, t(me.won ? "web.daily.you_won" : "web.daily.you_lost")), list);
    if (me.too_fast) parts.push(h("p", { className: "help-text", id: "daily-too-fast" }, t("web.daily.too_fast")));
    if (me.share) {
      const copy = h("button", { type: "button", className: "btn", id: "daily-copy" }, t("web.daily.copy"));
      copy.addEventListener("click", () => copyShare(me.share));
      parts.push(h("p", { className: "daily-share", id: "daily-share" }, me.share), copy);
    }
    if (isToday) parts.push(h("p", { className: "help-text" }, t("web.daily.tomorrow")));
  }
  if (!isToday && board.code) {
    parts.push(h("p", {}, t("web.daily.past_code", { code: board.code })));
    parts.push(h("button", { type: "button", className: "btn", id: "daily-play-code", "data-code": board.code }, t("web.daily.play_past")));
  }
  return parts;
}

async function copyShare(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    return toast(t("web.daily.copy_failed"));
  }
  toast(t("web.copied"));
  announce(t("web.copied"));
}

function boardTable(board) {
  if (!board.shown) return h("p", { className: "muted" }, t("web.daily.board_hidden"));
  if (!board.top.length) return h("p", { className: "muted" }, t("web.daily.board_empty"));
  const table = h("table", { className: "stats-grid daily-board" });
  const heads = ["web.daily.col_rank", "web.daily.col_name", "web.score", "web.moves", "web.daily.time"];
  table.createTHead().append(h("tr", {}, ...heads.map((key) => h("th", { scope: "col" }, t(key)))));
  const body = table.createTBody();
  for (const row of board.top) {
    body.append(
      h(
        "tr",
        {},
        h("td", {}, number(row.rank)),
        h("th", { scope: "row" }, row.name),
        h("td", {}, number(row.score)),
        h("td", {}, number(row.moves)),
        h("td", {}, seconds(row.seconds)),
      ),
    );
  }
  return table;
}

/** How a played day's ranked attempt came out: won, lost (stuck), unfinished (left, or its day closed
 * before its end) or still open. */
const outcome = (d) => (d.won ? "won" : d.finished ? "lost" : d.ended ? "unfinished" : "open");

/** The month of ``days`` (newest first, today's month) as a calendar: a week a row, Monday first. */
function calendar(history) {
  const [y, m] = history.today.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1, 1));
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const byDay = new Map(history.days.map((d) => [d.day, d]));
  const weekday = new Intl.DateTimeFormat(state.lang, { weekday: "narrow", timeZone: "UTC" });
  const month = new Intl.DateTimeFormat(state.lang, { month: "long", year: "numeric", timeZone: "UTC" });
  const table = h("table", { className: "daily-month" });
  table.append(h("caption", {}, month.format(first)));
  const monday = new Date(Date.UTC(2024, 0, 1)); // a Monday
  table.createTHead().append(
    h("tr", {}, ...[0, 1, 2, 3, 4, 5, 6].map((i) => h("th", { scope: "col" }, weekday.format(new Date(monday.getTime() + i * 864e5))))),
  );
  const body = table.createTBody();
  let row = h("tr");
  for (let i = 0; i < (first.getUTCDay() + 6) % 7; i++) row.append(h("td"));
  for (let d = 1; d <= length; d++) {
    const day = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    const seen = byDay.get(day);
    const mark = !seen || !seen.played ? "none" : outcome(seen);
    const label = `${longDay(day)}: ${t(`web.daily.day_${mark}`)}`;
    row.append(h("td", { className: `d-${mark}${day === history.today ? " today" : ""}` }, h("span", { "aria-label": label, role: "img" }, String(d))));
    if (row.children.length === 7) {
      body.append(row);
      row = h("tr");
    }
  }
  if (row.children.length) body.append(row);
  return table;
}

function nameForm(name) {
  // a name is for a player who has played (PUT /api/player/name makes no player): until then, say so
  if (name && name.name === null) {
    return h("div", { className: "field daily-name" }, h("h3", {}, t("web.daily.name")), h("p", { className: "muted", id: "daily-name-later" }, t("web.daily.name_after_play")));
  }
  // the generated name is what the board shows until the player picks one: a placeholder, not a value
  const input = h("input", { id: "daily-name", type: "text", maxLength: 40, autocomplete: "nickname", value: name && name.chosen ? name.name : "" });
  if (name && !name.chosen && name.name) input.placeholder = name.name;
  input.setAttribute("aria-describedby", "daily-name-error");
  const error = h("p", { className: "error", id: "daily-name-error", role: "alert" });
  const save = h("button", { type: "submit", className: "btn" }, t("web.daily.name_save"));
  const form = h("form", { className: "field daily-name" }, h("label", { htmlFor: "daily-name" }, t("web.daily.name")), h("div", { className: "row" }, input, save), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { status, data } = await write("PUT", "/api/player/name", { name: input.value });
    if (status === 200 && data) {
      input.value = data.name;
      error.textContent = "";
      toast(t("web.daily.name_saved"));
      announce(t("web.daily.name_saved"));
      fill();
    } else {
      error.textContent = (data && data.error && data.error.message) || t("web.error.network");
    }
  });
  return form;
}

/** The days played among the last 30, newest first: each shows that day's board. */
function lastDays(history, shown) {
  const played = history.days.filter((d) => d.played).slice(0, 30);
  if (!played.length) return [];
  const list = h("ul", { className: "recent daily-days" });
  for (const d of played) {
    const said = t(`web.daily.day_${outcome(d)}`);
    const figures = d.finished ? ` · ${number(d.score)}${d.rank ? ` · ${t("web.daily.rank_short", { rank: number(d.rank) })}` : ""}` : "";
    const button = h("button", { type: "button", className: "btn" }, h("span", {}, longDay(d.day)), h("span", { className: "muted" }, said + figures));
    if (d.day === shown) button.setAttribute("aria-current", "date");
    button.addEventListener("click", () => fill(d.day === history.today ? null : d.day));
    list.append(h("li", {}, button));
  }
  return [h("h3", {}, t("web.daily.last_days")), list];
}

async function fill(day = null) {
  const body = $("#daily-body");
  const boardPath = day ? `/api/daily/board?day=${encodeURIComponent(day)}` : "/api/daily/board";
  const [board, history, name] = await Promise.all([get(boardPath), get("/api/daily/history"), get("/api/player/name")]);
  if (board.status !== 200 || history.status !== 200 || !board.data || !history.data) {
    body.textContent = t("web.error.network");
    return;
  }
  const b = board.data;
  const hist = history.data;
  const isToday = b.day === hist.today;
  const parts = [
    h("p", { className: "daily-day" }, longDay(b.day)),
    ...(isToday ? [] : [h("button", { type: "button", className: "btn quiet", id: "daily-back" }, t("web.daily.back_today"))]),
    ...today(b, isToday),
    h("h3", {}, t(isToday ? "web.daily.board_title" : "web.daily.board_title_past", { players: number(b.players) })),
    boardTable(b),
    h("h3", {}, t("web.daily.streak_title")),
    h("p", {}, t("web.daily.streak", { streak: number(hist.streak), best: number(hist.best_streak) })),
    calendar(hist),
    ...lastDays(hist, b.day),
    nameForm(name.status === 200 ? name.data : null),
  ];
  body.replaceChildren(...parts);
  const playButton = $("#daily-play", body);
  if (playButton) playButton.addEventListener("click", () => play(null, b.day));
  const pastButton = $("#daily-play-code", body);
  if (pastButton) pastButton.addEventListener("click", () => play(pastButton.dataset.code));
  const back = $("#daily-back", body);
  if (back) back.addEventListener("click", () => fill());
}

export async function openDaily() {
  await fill();
  const dialog = $("#dlg-daily");
  openDialog(dialog, $("#daily-play", dialog) || $("[data-close]", dialog));
}
