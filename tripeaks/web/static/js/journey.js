// The journey's windows: the map of levels along a path, a level's start, the achievements, and carrying
// the player's progress to another browser with a one-time code. Every figure is the server's (GET
// /api/journey, GET /api/achievements, the transfer routes: docs/api.md, "The journey"); the page judges
// nothing. Loaded when first opened (main.js).

import { get, write } from "./api.js";
import { optionWords } from "./board.js";
import { layoutPicture } from "./cards.js";
import { closeDialog, openDialog } from "./dialogs.js";
import { $, $$, h } from "./dom.js";
import { startLevel, startOver } from "./game.js";
import { number, plural, t } from "./i18n.js";
import { fillStars, goalSentence, goalShort, starNeeds, stars, starsText } from "./level.js";
import { announce, toast } from "./live.js";
import { state } from "./state.js";

let journey = null; // the last GET /api/journey

async function load() {
  const { status, data } = await get("/api/journey");
  if (status !== 200 || !data || !Array.isArray(data.levels)) return null;
  journey = data;
  return data;
}

const layoutName = (id) => t(`layout.${id}`);

/** "Classic · joker" (the header's words) or "Classic (king and ace separate) · joker" (`full`). */
function rulesOf(level, full = false) {
  const rules = t(full ? `rules.${level.rules}` : `web.rules.${level.rules}_short`);
  const options = optionWords(level.variant);
  return options ? `${rules} · ${options}` : rules;
}

/** A level's accessible name: "Level 3, Valley, Classic, 2 of 3 stars"; a locked one says so. */
function levelName(level, next) {
  const values = { n: number(level.number), layout: layoutName(level.layout), rules: rulesOf(level), stars: starsText(level.stars) };
  if (level.state === "locked") return t("web.journey.level_locked", values);
  return t(next ? "web.journey.level_next" : "web.journey.level", values);
}

// ---- The map --------------------------------------------------------------------------------------

/** Where a level stands across its row, 0 to 1: the path winds from side to side, eight levels a turn. */
const across = (i) => (1 - Math.cos((i * Math.PI) / 4)) / 2;

function levelButton(level, i, next) {
  const locked = level.state === "locked";
  const node = h("span", { className: "lv-node" }, number(level.number));
  if (locked) node.append(icon("i-lock", "lv-lock"));
  const text = h(
    "span",
    { className: "lv-text" },
    h("span", { className: "lv-layout" }, layoutName(level.layout)),
    h("span", { className: "lv-rules" }, rulesOf(level)),
  );
  // the goal is the button's description: read after its name ("…, 2 of 3 stars", then "Goal: a run of 17 cards")
  if (level.goal) text.append(h("span", { className: "lv-goal", id: `lv-goal-${level.number}` }, ...goalFlag(level)));
  const button = h(
    "button",
    {
      type: "button",
      className: `lv ${level.state}${next ? " next" : ""}`,
      tabIndex: next ? 0 : -1,
      "aria-label": levelName(level, next),
      "data-n": String(level.number),
    },
    node,
    stars(level.stars, "stars lv-stars"),
    text,
  );
  if (locked) button.setAttribute("aria-disabled", "true");
  if (level.goal) button.setAttribute("aria-describedby", `lv-goal-${level.number}`);
  button.style.setProperty("--x", across(i).toFixed(3));
  return h("li", {}, button);
}

/** "Goal: a run of 17 cards", with a check mark once met (read as "met"). */
function goalFlag(level) {
  const words = t("web.level.header_goal", { goal: goalShort(level.goal) });
  if (!level.goal_met) return [words];
  return [words, " ", h("span", { "aria-hidden": "true" }, "✓"), h("span", { className: "sr" }, `(${t("web.journey.goal_met")})`)];
}

function icon(id, className = "") {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  if (className) svg.setAttribute("class", className);
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#${id}`);
  svg.append(use);
  return svg;
}

/** The path drawn under the levels, through each one's node (measured: rows grow with their words). */
function drawLine(list) {
  const nodes = $$(".lv-node", list);
  if (!nodes.length || !list.isConnected) return;
  const box = list.getBoundingClientRect();
  const points = nodes.map((node) => {
    const r = node.getBoundingClientRect();
    return `${(r.left + r.width / 2 - box.left).toFixed(1)},${(r.top + r.height / 2 - box.top).toFixed(1)}`;
  });
  let svg = $("svg.lv-line", list);
  if (!svg) {
    svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "lv-line");
    svg.setAttribute("aria-hidden", "true");
    svg.append(document.createElementNS("http://www.w3.org/2000/svg", "polyline"));
    list.prepend(svg);
  }
  svg.setAttribute("width", String(Math.round(box.width)));
  svg.setAttribute("height", String(Math.round(box.height)));
  svg.firstChild.setAttribute("points", points.join(" "));
}

let lined = null;
function watchLine(list) {
  if (lined) lined.disconnect();
  let width = 0;
  lined = new ResizeObserver(() => {
    const w = list.clientWidth;
    if (w !== width && $("#dlg-journey").open) {
      width = w;
      drawLine(list);
    }
  });
  lined.observe(list);
}

function drawMap(data) {
  $("#journey-total-text").textContent = t("web.journey.total", { stars: number(data.stars), max: number(data.max_stars) });
  $("#journey-total").setAttribute("aria-label", t("web.journey.total", { stars: number(data.stars), max: number(data.max_stars) }));
  const list = h("ol", { className: "levels", "aria-labelledby": "journey-title" });
  list.append(...data.levels.map((level, i) => levelButton(level, i, level.number === data.next)));
  // no level open and not done (all done): the first is the one the roving focus starts on
  if (!$(".lv[tabindex='0']", list) && list.firstChild) $(".lv", list).tabIndex = 0;
  $("#journey-path").replaceChildren(list);
  $("#journey-note").textContent = "";
  return list;
}

/** The map's roving focus: one Tab stop; arrows, Home, End, Page Up and Page Down move along the path. */
function onMapKey(event) {
  const here = event.target.closest && event.target.closest(".lv");
  if (!here) return;
  const all = $$("#journey-path .lv");
  const i = all.indexOf(here);
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, PageDown: 8, PageUp: -8, Home: -Infinity, End: Infinity }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  const j = Math.max(0, Math.min(all.length - 1, i + step));
  moveTo(all[j]);
}

function moveTo(button) {
  for (const other of $$("#journey-path .lv[tabindex='0']")) other.tabIndex = -1;
  button.tabIndex = 0;
  button.focus();
}

function onMapClick(event) {
  const button = event.target.closest && event.target.closest(".lv");
  if (!button) return;
  const n = Number(button.dataset.n);
  moveTo(button);
  const level = journey && journey.levels.find((l) => l.number === n);
  if (!level) return;
  if (level.state === "locked") {
    const note = t("web.level.locked", { n: number(n), previous: number(n - 1) });
    $("#journey-note").textContent = note; // role="status": said as it appears
    return;
  }
  openLevel(n, true);
}

/** The map: every level along the path, the next one ready (focused, in view), the total of stars. */
export async function openJourney() {
  const dialog = $("#dlg-journey");
  const data = await load();
  if (!data) {
    announce(t("web.error.network"));
    return;
  }
  const list = drawMap(data);
  closeDialog($("#dlg-win"));
  closeDialog($("#dlg-level"));
  const ready = $(".lv[tabindex='0']", list);
  openDialog(dialog, null);
  drawLine(list);
  watchLine(list);
  if (ready) {
    ready.scrollIntoView({ block: "center" });
    ready.focus({ preventScroll: true });
  }
}

// ---- A level's start ------------------------------------------------------------------------------

let shown = null; // the level the start window shows

/** A level's start: its number, table and rules, its goal, the stars so far and what each needs; Play.
 * From the map its figures are the map's; from elsewhere (Next level) they are asked for again. */
export async function openLevel(n, fromMap = false) {
  const data = fromMap && journey ? journey : await load();
  shown = data && data.levels.find((l) => l.number === n);
  if (!shown) return;
  paintLevel(shown);
  closeDialog($("#dlg-journey"));
  closeDialog($("#dlg-win"));
  const play = $("#level-play");
  openDialog($("#dlg-level"), play.disabled ? $("#level-map") : play);
}

function paintLevel(level) {
  $("#level-title").textContent = t("web.level.title", { n: number(level.number) });
  const layout = state.layouts.find((l) => l.id === level.layout);
  const mark = level.goal && level.goal.kind === "group_first" ? level.goal.n : null;
  $("#level-pic").replaceChildren(...(layout ? [layoutPicture(layout.places, mark)] : []));
  $("#level-layout").textContent = layoutName(level.layout);
  $("#level-rules").textContent = rulesOf(level, true);
  $("#level-grade").textContent = t(`web.review.grade.${level.grade}`);
  $("#level-goal-text").textContent = goalSentence(level.goal);
  fillStars($("#level-stars"), level.stars);
  const so = level.stars ? t("web.level.stars_so_far", { stars: starsText(level.stars) }) : t("web.level.no_stars");
  $("#level-stars-text").textContent = level.goal_met && level.goal ? `${so} ${t("web.level.goal_done")}` : so;
  const traditional = level.variant && level.variant.scoring === "traditional";
  $("#level-needs").replaceChildren(
    ...starNeeds(traditional, level.best_score, level.fewest_draws).map(([k, words]) =>
      h("li", { className: k <= level.stars ? "have" : "" }, stars(k, "stars small"), h("span", {}, words)),
    ),
  );
  const locked = level.state === "locked";
  $("#level-play").disabled = locked;
  $("#level-error").textContent = locked ? t("web.level.locked", { n: number(level.number), previous: number(level.number - 1) }) : "";
}

async function play() {
  if (!shown || shown.state === "locked") return;
  const button = $("#level-play");
  if (button.dataset.busy) return;
  button.dataset.busy = "1";
  $("#level-error").textContent = "";
  try {
    const error = await startLevel(shown.number);
    if (error === null) closeDialog($("#dlg-level"));
    else if (error) $("#level-error").textContent = error; // the server's message, as sent
  } finally {
    delete button.dataset.busy;
  }
}

/** "Replay level" at a level's end or on its stuck notice: the same level dealt again at once. */
export async function replayLevel(n) {
  const error = await startLevel(n);
  if (error) {
    announce(error);
    toast(error, 4000);
  }
}

// ---- Achievements ---------------------------------------------------------------------------------

function achievementItem(a) {
  const name = h("h3", { id: `ach-${a.id}` }, t(`achievement.${a.id}.name`));
  const count = h("span", { className: "ach-count", id: `ach-${a.id}-count` }, t("web.stats.of", { n: number(a.progress), m: number(a.target) }));
  const bar = h("progress", { max: a.target, value: Math.min(a.progress, a.target), "aria-labelledby": `ach-${a.id}`, "aria-describedby": `ach-${a.id}-count` });
  const when = a.unlocked
    ? h("p", { className: "ach-when" }, icon("i-star", "ach-check"), a.unlocked_at ? t("web.achievements.unlocked_on", { day: day(a.unlocked_at) }) : t("web.achievements.unlocked"))
    : null;
  return h(
    "li",
    { className: `ach${a.unlocked ? " unlocked" : ""}` },
    icon(a.unlocked ? "i-trophy" : "i-lock", "ach-icon"),
    h("div", { className: "ach-body" }, name, h("p", { className: "ach-text" }, t(`achievement.${a.id}.text`)), h("div", { className: "ach-progress" }, bar, count), ...(when ? [when] : [])),
  );
}

function day(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : new Intl.DateTimeFormat(state.lang, { dateStyle: "long" }).format(date);
}

/** Every achievement with its name, text and progress; the unlocked ones marked, with their day. */
export async function openAchievements() {
  const { status, data } = await get("/api/achievements");
  if (status !== 200 || !data || !Array.isArray(data.achievements)) {
    announce(t("web.error.network"));
    return;
  }
  const list = data.achievements;
  const done = list.filter((a) => a.unlocked).length;
  $("#achievements-count").textContent = t("web.achievements.count", { n: number(done), total: number(list.length) });
  $("#achievements-list").replaceChildren(...list.map(achievementItem));
  openDialog($("#dlg-achievements"), $("#dlg-achievements [data-close]"));
}

// ---- Carrying progress to another browser ----------------------------------------------------------

const message = (data) => (data && data.error && data.error.message) || t("web.error.network");

export function openTransfer() {
  $("#transfer-made").hidden = true;
  $("#transfer-make-error").textContent = "";
  $("#transfer-error").textContent = "";
  $("#transfer-done").textContent = "";
  $("#transfer-input").value = "";
  $("#transfer-input").removeAttribute("aria-invalid");
  openDialog($("#dlg-transfer"), $("#transfer-make"));
}

async function makeCode() {
  $("#transfer-make-error").textContent = "";
  const { status, data } = await write("POST", "/api/player/transfer");
  if (status !== 201 || !data || !data.code) {
    $("#transfer-made").hidden = true;
    $("#transfer-make-error").textContent = message(data);
    return;
  }
  const until = new Date(data.expires_at);
  const time = Number.isNaN(until.getTime()) ? "" : new Intl.DateTimeFormat(state.lang, { timeStyle: "short" }).format(until);
  const minutes = Math.max(1, Math.round((data.seconds || 0) / 60));
  $("#transfer-code").replaceChildren(h("span", { className: "k" }, t("web.transfer.your_code")), " ", h("code", {}, data.code));
  $("#transfer-expires").textContent = plural("web.transfer.expires", minutes, { time });
  $("#transfer-made").hidden = false;
  announce(`${t("web.transfer.your_code")} ${data.code.split("").join(" ")}. ${$("#transfer-expires").textContent}`);
}

async function redeem(event) {
  event.preventDefault();
  const input = $("#transfer-input");
  const error = $("#transfer-error");
  error.textContent = "";
  $("#transfer-done").textContent = "";
  const code = input.value.trim();
  if (!code) {
    error.textContent = t("web.transfer.empty");
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  const { status, data } = await write("POST", "/api/player/transfer/redeem", { code });
  if (status !== 200 || !data) {
    error.textContent = message(data); // the server's words, as sent
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  input.removeAttribute("aria-invalid");
  input.value = "";
  $("#transfer-done").textContent = t("web.transfer.done", { name: data.name });
  journey = null;
  await startOver(); // the game on screen was the old player's
  $("#transfer-done").closest("dialog").querySelector("[data-close]").focus();
}

// ---- Wiring, once: this module is loaded when first wanted ----------------------------------------

/** A window opened from the map or another window gives the focus back to the button that opened it. */
function stacked(dialog, opener) {
  dialog.addEventListener("close", () => {
    const back = $(opener);
    if (back && back.closest("dialog") && back.closest("dialog").open) back.focus();
  });
}

$("#journey-path").addEventListener("keydown", onMapKey);
$("#journey-path").addEventListener("click", onMapClick);
$("#journey-achievements").addEventListener("click", openAchievements);
$("#journey-transfer").addEventListener("click", openTransfer);
stacked($("#dlg-achievements"), "#journey-achievements");
stacked($("#dlg-transfer"), "#journey-transfer");
$("#level-play").addEventListener("click", play);
$("#level-map").addEventListener("click", () => {
  closeDialog($("#dlg-level"));
  openJourney();
});
$("#transfer-make").addEventListener("click", makeCode);
$("#transfer-form").addEventListener("submit", redeem);
