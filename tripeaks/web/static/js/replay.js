// The replay view: a line of play the server sent with its review of a finished game (the winning line
// from the last position a lost game could still be won from, or a best win of a won deal), shown on the
// board one step at a time. Each step is a whole GameState made by the engine, drawn through the same
// render path as the game (board.js: state.replay), so its motion and its words are a game's. Nothing is
// sent and nothing stored changes: Close draws the game exactly as it was. Loaded when first wanted.

import { currentRover, focusBoard, render } from "./board.js";
import { openDialog } from "./dialogs.js";
import { $, $$, h } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./live.js";
import { setSetting, state } from "./state.js";

const SPEEDS = { slow: 1600, normal: 900, fast: 400 }; // ms from one step to the next while playing

let view = null; // {steps, index, timer, opener, fromWin, banner, tools, play}

/** The icon and the words of a control of the replay's row (the toolbar's look). The steps' words are
 * only read out on a narrow phone (app.css), where five labels do not fit in one row: their icons say it. */
function tool(id, icon, words, onClick, narrow = false) {
  const button = h(
    "button",
    { type: "button", className: "btn tool", id, title: words },
    svgUse(icon),
    h("span", { className: narrow ? "narrow-hide" : "" }, words),
  );
  button.addEventListener("click", onClick);
  return button;
}

function svgUse(icon) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#i-${icon}`);
  svg.append(use);
  return svg;
}

function counter() {
  const total = view.steps.length - 1;
  return view.index === 0 ? t("web.replay.at_start", { total }) : t("web.replay.step", { n: view.index, total });
}

/** Draw step ``index``: animated when it is the next one (its `last` is the move that led to it). */
function show(index, { animate = false, say = true } = {}) {
  view.index = index;
  state.replay = { game: view.steps[index] };
  render(state, { animate });
  const text = counter();
  $("#replay-step").textContent = text;
  $("#replay-back").disabled = index === 0;
  $("#replay-forward").disabled = index === view.steps.length - 1;
  const last = view.steps[index].last;
  if (say) announce(index > 0 && last && last.announcement ? `${text}. ${last.announcement}` : text);
}

function forward() {
  if (view.index < view.steps.length - 1) show(view.index + 1, { animate: true });
  if (view.index === view.steps.length - 1) pause();
}

function back() {
  pause();
  if (view.index > 0) show(view.index - 1);
}

function playing() {
  return view.timer !== 0;
}

function paintPlay() {
  const on = playing();
  const label = t(on ? "web.replay.pause" : "web.replay.play");
  view.play.replaceChildren(svgUse(on ? "pause" : "play"), h("span", {}, label));
}

function tick() {
  view.timer = setTimeout(() => {
    forward();
    if (playing()) tick();
  }, SPEEDS[state.settings.replay_speed] || SPEEDS.normal);
}

function play() {
  if (playing()) return;
  if (view.index === view.steps.length - 1) show(0); // at the end: from the start again
  view.timer = -1;
  paintPlay();
  tick();
}

function pause() {
  if (!playing()) return;
  clearTimeout(view.timer);
  view.timer = 0;
  paintPlay();
}

function toggle() {
  if (playing()) pause();
  else play();
}

/** Space plays or pauses, the arrow keys step, Escape closes, Tab stays in the controls; no key of the
 * board's does anything here (input.js leaves them while state.replay is set). */
function onKey(event) {
  if (!view || $("dialog[open]")) return;
  const key = event.key;
  if (key === " " || key === "Spacebar") {
    event.preventDefault();
    if (!event.repeat) toggle();
  } else if (key === "ArrowRight") {
    event.preventDefault();
    pause();
    forward();
  } else if (key === "ArrowLeft") {
    event.preventDefault();
    back();
  } else if (key === "Escape") {
    event.preventDefault();
    closeReplay();
  } else if (key === "Tab") {
    const inside = $$("button, select", view.tools).filter((el) => !el.disabled);
    const at = inside.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + (event.shiftKey ? -1 : 1) + inside.length) % inside.length;
    event.preventDefault();
    inside[next].focus();
  }
}

// A Space let through to a focused button would click it as well when the key comes up.
function onKeyUp(event) {
  if (view && (event.key === " " || event.key === "Spacebar")) event.preventDefault();
}

function speedChoice() {
  const select = h("select", { id: "replay-speed" });
  for (const name of Object.keys(SPEEDS)) {
    select.append(h("option", { value: name, selected: state.settings.replay_speed === name }, t(`web.replay.${name}`)));
  }
  select.addEventListener("change", () => {
    setSetting("replay_speed", select.value);
    if (playing()) {
      clearTimeout(view.timer);
      tick();
    }
  });
  return h("label", { className: "btn tool speed" }, h("span", {}, t("web.replay.speed")), select);
}

/** Open the replay of ``replay`` ({start, steps}); ``opener`` gets the focus back when it closes. */
export function openReplay(replay, opener) {
  if (view || !replay || !replay.steps || replay.steps.length < 2) return;
  const win = $("#dlg-win");
  const fromWin = win.open;
  const banner = h(
    "section",
    { className: "notice replay-banner", id: "replay-banner", "aria-labelledby": "replay-title" },
    h("p", { id: "replay-title" }, t("web.replay.banner")),
    h("p", { className: "replay-step", id: "replay-step" }),
  );
  const tools = h("div", { className: "replay-tools", id: "replay-tools", role: "group", "aria-label": t("web.replay.controls") });
  view = { steps: replay.steps, index: 0, timer: 0, opener, fromWin, banner, tools, play: null };
  view.play = tool("replay-play", "play", t("web.replay.play"), toggle);
  tools.append(
    tool("replay-back", "back", t("web.replay.back"), back, true),
    view.play,
    tool("replay-forward", "forward", t("web.replay.forward"), () => {
      pause();
      forward();
    }, true),
    speedChoice(),
    tool("replay-close", "close", t("web.replay.close"), closeReplay),
  );
  if (fromWin) win.close();
  $("#table .notices").prepend(banner);
  $("#tools").append(tools);
  document.documentElement.dataset.replaying = "on";
  for (const el of [$("#tableau"), $("#board .piles")]) el.inert = true; // a tap on a card does nothing
  document.addEventListener("keydown", onKey, true);
  document.addEventListener("keyup", onKeyUp, true);
  show(0, { say: false });
  view.play.focus();
  announce(`${t("web.replay.opened", { total: view.steps.length - 1 })} ${counter()}`);
}

/** Back to the game exactly as it was: the state the server last sent, drawn again. */
export function closeReplay() {
  if (!view) return;
  const { opener, fromWin, banner, tools } = view;
  pause();
  view = null;
  document.removeEventListener("keydown", onKey, true);
  document.removeEventListener("keyup", onKeyUp, true);
  state.replay = null;
  banner.remove();
  tools.remove();
  delete document.documentElement.dataset.replaying;
  for (const el of [$("#tableau"), $("#board .piles")]) el.inert = false;
  render(state);
  announce(t("web.replay.closed"));
  if (fromWin && state.game && state.game.status === "won") openDialog($("#dlg-win"), $("#win-replay"));
  else if (opener && opener.isConnected && !opener.closest("[hidden]")) opener.focus();
  else focusBoard(currentRover());
}
