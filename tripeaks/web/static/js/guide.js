// The first game ever: a guide in three steps (a card that can be played, the stock, the score). It stands
// in the notices' place, so it covers no card, and rings what it speaks of. Skip, Done or Escape ends it,
// and it is never shown again (localStorage, state.js). Loaded only when it is to be shown (game.js).

import { get } from "./api.js";
import { currentRover, focusBoard } from "./board.js";
import { cards } from "./cards.js";
import { $, h } from "./dom.js";
import { points, t } from "./i18n.js";
import { announce } from "./live.js";
import { state, store } from "./state.js";

const STEPS = ["card", "stock", "score"];
let step = -1;
let panel = null;

/** What the current step speaks of: a card the server says can be played, the stock, the score. */
function target() {
  const game = state.game;
  if (STEPS[step] === "card") return game && game.playable.length ? cards[game.playable[0]] : null;
  if (STEPS[step] === "stock") return $("#stock");
  return $("#score").parentElement;
}

function words() {
  const name = STEPS[step];
  if (name === "card" && !target()) return t("web.guide.card_none");
  if (name !== "score") return t(`web.guide.${name}`);
  const rules = state.rules;
  const of = (event) => rules.scoring.find((row) => row.event === event).points;
  return t("web.guide.score", { start: rules.start, move: points(of("remove")), peak: points(of("peak")) });
}

function ring() {
  for (const el of document.querySelectorAll(".guided")) el.classList.remove("guided");
  const el = step >= 0 ? target() : null;
  if (el) el.classList.add("guided");
}

function show() {
  const last = step === STEPS.length - 1;
  $("#guide-step").textContent = t("web.guide.step", { n: step + 1, total: STEPS.length });
  $("#guide-text").textContent = words();
  $("#guide-next").textContent = t(last ? "web.guide.done" : "web.guide.next");
  $("#guide-skip").hidden = last;
  ring();
}

function end() {
  step = -1;
  store("guide", "done");
  ring();
  panel.remove();
  panel = null;
  document.removeEventListener("keydown", onEscape);
  focusBoard(currentRover());
}

function onEscape(event) {
  if (event.key === "Escape" && panel && !document.querySelector("dialog[open]")) {
    event.preventDefault();
    end();
  }
}

/** Open the guide and give it the focus. */
export async function startGuide() {
  if (panel) return;
  if (!state.rules) {
    const { status, data } = await get("/api/rules");
    if (status !== 200 || !data) return; // without the scoring, next time
    state.rules = data;
  }
  const next = h("button", { type: "button", className: "btn primary", id: "guide-next" });
  const skip = h("button", { type: "button", className: "btn", id: "guide-skip" }, t("web.guide.skip"));
  const title = h("h2", { id: "guide-title" }, t("web.guide.title"));
  panel = h(
    "section",
    { className: "notice guide", id: "guide", role: "dialog", "aria-labelledby": "guide-title", "aria-describedby": "guide-text" },
    h("div", { className: "guide-top" }, title, h("p", { className: "guide-step", id: "guide-step" })),
    h("p", { id: "guide-text" }),
    h("div", { className: "row" }, skip, next),
  );
  next.addEventListener("click", () => {
    if (step === STEPS.length - 1) end();
    else {
      step += 1;
      show();
      announce(`${$("#guide-step").textContent}. ${$("#guide-text").textContent}`); // the focus stays on Next
    }
  });
  skip.addEventListener("click", end);
  document.addEventListener("keydown", onEscape);
  $("#table .notices").prepend(panel);
  step = 0;
  show();
  next.focus();
}

/** A new state was drawn: ring the step's target again (a played card is gone; another can be played). */
export function followGuide() {
  if (!panel) return;
  $("#guide-title").textContent = t("web.guide.title");
  $("#guide-skip").textContent = t("web.guide.skip");
  show();
}
