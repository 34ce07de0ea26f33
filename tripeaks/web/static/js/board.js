// The board. render(state) draws the game from the state object and nothing else: the counters, the code,
// the tableau of the game's layout, the stock, the discard and the notices; it moves the cards as the
// server's `last` says. It holds no rule: faces, what is face up, what can be played, the score and what a
// move turned over all come in the server's state.

import { cards, nearest, paintFace, paintTableau, paintVacant, placeOf, useLayout } from "./cards.js";
import { $, $$, h } from "./dom.js";
import { longDay, t } from "./i18n.js";
import { capture, run } from "./motion.js";
import { burst, paintStreak, remember } from "./celebrate.js";
import { paintLevelEnd, paintLevelHeader } from "./level.js";
import { state } from "./state.js";

let rover = null; // the one board control in the tab order

// ---- Rendering ---------------------------------------------------------------------------

/**
 * Draw everything from the state object. `animate` when its game state is the reply to the player's
 * action: the card then moves as the server's `last` says (from, to, revealed, covered).
 */
export function render(s, { animate = false } = {}) {
  // The replay view (replay.js) draws its step through this same path; the game itself waits in s.game.
  const game = s.replay ? s.replay.game : s.game;
  // a game of another layout than the one on the table: its tableau is built first (cards.js); the focus
  // was on a card of the old one, or on a window's button
  if (game && useLayout(game.layout)) rover = null;
  // The focus never falls to the page: a card this state removes hands it, before anything is written (so
  // that neither the focus move nor hiding the focused card makes the browser lay out the page first), to
  // the nearest card that can be played, else to the stock when it can be drawn from, else to the nearest
  // card left.
  const focused = document.activeElement;
  if (game && cards.includes(focused)) {
    const gone = new Set(game.tableau.filter((slot) => slot.slot === "removed").map((slot) => cards[slot.pos]));
    if (gone.has(focused)) {
      const from = placeOf(focused);
      const next = nearest(from, game.playable.map((pos) => cards[pos]));
      const left = [...cards.filter((el) => el && !gone.has(el)), $("#stock")];
      focusBoard(next || (game.can_draw ? $("#stock") : nearest(from, left)), left);
    }
  }
  $("#saving").hidden = !s.saving;
  if (!game) return;
  const stock = $("#stock");
  const discard = $("#discard");
  const place = (where, pos) => (where === "tableau" ? cards[pos] : where === "stock" ? stock : discard);
  const turn = animate ? game.last : null;
  const before = capture(turn, place, discard);

  $("#score").textContent = String(game.score);
  $("#moves").textContent = String(game.moves);
  $("#code").textContent = game.code || t("web.daily.code_hidden_short");
  $("#code-rules").textContent = game.daily ? t(game.ranked ? "web.daily.rules_ranked" : "web.daily.rules", { day: longDay(game.daily) }) : rulesLine(game);
  paintLevelHeader(game); // a level game: its number and goal over and under the rules (level.js)

  stock.setAttribute("aria-label", game.stock_label);
  $("#stock-count").textContent = String(game.stock_size);
  stock.classList.toggle("empty", game.stock_size === 0);
  if (!game.discard) {
    if (!discard.classList.contains("vacant")) paintVacant(discard);
    discard.setAttribute("aria-label", t("web.discard_empty"));
  } else {
    if (discard.dataset.card !== game.discard.label) paintFace(discard, game.discard);
    discard.setAttribute("aria-label", t("web.discard_now", { card: game.discard.name }));
  }
  paintTableau(cards, game.tableau, true, game.blocked);
  for (const b of $$("[data-action='undo']")) b.disabled = !game.can_undo;
  for (const b of $$("[data-action='redo']")) b.disabled = !game.can_redo;
  // nothing of a day's deal is told before the day is over: the server says whether hints are answered,
  // and a game sent without its code has no "same deal" (docs/api.md, "The deal of the day")
  for (const b of $$("[data-action='hint']")) b.disabled = !game.can_hint;
  for (const b of $$("[data-again='same']")) b.hidden = !game.code || Boolean(game.level);
  for (const b of $$("[data-daily-board]")) b.hidden = !game.daily;
  // The loudest colour is for the action the moment calls for: Undo when stuck with a move to take back,
  // New game when the game is over and nothing can be undone; none while the game goes on.
  const over = game.status !== "playing";
  $("#tools [data-action='undo']").classList.toggle("loud", game.status === "stuck" && game.can_undo);
  $("#tools [data-action='new']").classList.toggle("loud", over && !(game.status === "stuck" && game.can_undo));

  // A game left for another one is only shown: its notice offers a new game instead.
  const left = game.status === "left";
  $("#board").classList.toggle("closed", left);
  for (const el of [...cards, stock]) {
    if (left) el.setAttribute("aria-disabled", "true");
    else el.removeAttribute("aria-disabled");
  }
  $("#left").hidden = !left;

  for (const el of $$(".hinted")) el.classList.remove("hinted");
  const hint = s.replay ? null : s.hint;
  const hinted = hint && (hint.kind === "draw" ? stock : cards[hint.pos]);
  if (hinted) hinted.classList.add("hinted");

  $("#stuck").hidden = game.status !== "stuck";
  paintReview(s.replay ? null : reviewOf(s));
  // a stuck game that an undo can save is reviewed only when asked (it counts as a hint: game.js)
  $("#stuck-ask-review").hidden = !(game.status === "stuck" && game.can_undo && game.id && !reviewOf(s));
  $("#stuck-result").textContent = game.status === "stuck" ? resultLine(game) : "";
  if (game.status === "won") {
    $("#win-score").textContent = t("web.win.score", { score: game.score });
    paintParts(game);
    $("#win-result").textContent = resultLine(game);
    const streak = $("#win-streak");
    if (streak) streak.textContent = t("web.win.streak", { streak: game.longest_streak });
    paintLevelEnd(game);
  }

  // motion.js plays the Turn out; the streak counter and the burst of a group emptied (celebrate.js)
  run(turn, before, place, discard);
  paintStreak(game, turn);
  remember(game, animate ? game.last : null);
  if (turn && turn.kind === "play" && turn.peak !== null && turn.peak !== undefined) burst(turn.peak, turn.peak_points);

  if (!rover || rover.hidden || !rover.isConnected) setRover(firstControl(game));
}

/** The score's parts under it in the result window (the server's `score_parts`: the start, the cards played,
 * the draws, the peaks; under the traditional scoring the streaks instead of the cards played), each with its
 * points, so a player sees why a win scored 757. dialogs.js counts the score up through them. */
function paintParts(game) {
  const list = $("#win-parts");
  const parts = game.score_parts || [];
  list.hidden = !parts.length;
  list.replaceChildren(
    ...parts.map((p) =>
      h("li", { className: `part ${p.part}` },
        h("span", { className: "what" }, p.part === "start" || p.part === "floor" ? t(`web.parts.${p.part}`) : `${t(`web.parts.${p.part}`)} ×${p.count}`),
        h("span", { className: "pts" }, p.part === "start" ? String(p.points) : signed(p.points)),
      ),
    ),
  );
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** The server's review of the game on screen, once it is over and for this very position. */
export function reviewOf(s) {
  const r = s.review;
  return r && s.game && r.id === s.game.id && r.version === s.game.version ? r.data : null;
}

/** The review in the result window and the stuck and left notices: the grade ("Medium deal"), the
 * server's sentence, and the button to the replay when there is a line to show. */
function paintReview(review) {
  const grade = review && review.grade ? t(`web.review.grade.${review.grade}`) : "";
  const message = (review && review.message) || "";
  const text = [grade && `${grade}.`, message].filter(Boolean).join(" ");
  for (const el of $$("[data-review]")) {
    if (el.dataset.text === text) continue; // only what changed is written
    el.dataset.text = text;
    el.replaceChildren(...(grade ? [h("strong", {}, `${grade}.`), " "] : []), message);
    el.hidden = !text;
  }
  for (const b of $$("[data-replay]")) b.hidden = !(review && review.replay && review.replay.steps && review.replay.steps.length > 1);
}

/** The layout, when it is not the one a game is dealt on unless another is asked for (the first of GET
 * /api/layouts), then the rules, then the options the game is played with ("Diamonds · Easy · joker,
 * traditional scoring"); also the statistics' name of a kind of game (anything with ``rules``, ``variant``
 * and ``layout``). */
export function rulesLine(game) {
  const layout = game.layout && state.layouts.length && game.layout !== state.layouts[0].id ? `${t(`layout.${game.layout}`)} · ` : "";
  return layout + optionsLine(game);
}

function optionsLine(game) {
  const options = optionWords(game.variant);
  const rules = t(`web.rules.${game.rules}_short`);
  return options ? `${rules} · ${options}` : rules;
}

/** The options of a variant in the header's words and order ("joker, traditional scoring"); "" for none. */
export function optionWords(variant) {
  const v = variant || {};
  return [
    v.empty_discard && "option.empty_discard",
    v.joker && "option.joker",
    v.open_peaks && "option.open_peaks",
    v.scoring === "traditional" && "option.traditional",
  ]
    .filter(Boolean)
    .map((key) => t(key))
    .join(", ");
}

/** Where the focus starts on a board: a card that can be played, else the stock. */
export function firstControl(game) {
  return (game && game.playable.length && cards[game.playable[0]]) || $("#stock");
}

/** The solver's line about the deal, once the game is over. Under the traditional scoring the best
 * score is of any ending, so a stuck game can reach it too, and a lost deal still has one. */
export function resultLine(game) {
  const r = game.result;
  if (!r) return "";
  if (r.best_reached) return t("web.result.best_reached");
  const best = r.best_score != null ? { best: r.best_score } : null;
  if (game.status === "won") return r.best_reached === false && best ? t("web.result.best", best) : "";
  if (game.variant.scoring === "traditional" && best) {
    return t(r.winnable ? "web.result.could_win_traditional" : "web.result.unwinnable_traditional", best);
  }
  if (r.winnable && best) return t("web.result.could_win", best);
  return r.winnable ? "" : t("web.result.unwinnable");
}

// ---- The board's focus: one Tab stop (a roving tabindex) ------------------------------------

/** The cards in the page and the stock, in the order they are drawn. */
export function controls() {
  return [...cards.filter((el) => el && !el.hidden), $("#stock")];
}

// Only the tabindex values that change are written: writing one on the focused element makes the browser
// lay out the page at once (to know whether it can still have the focus).
const tabStop = (el, n) => el.getAttribute("tabindex") !== String(n) && (el.tabIndex = n);

export function setRover(el, shown = controls()) {
  if (!el) return;
  for (const other of shown) tabStop(other, other === el ? 0 : -1);
  for (const other of cards) if (other && (other.hidden || !shown.includes(other))) tabStop(other, -1);
  rover = el;
}

export const currentRover = () => (rover && !rover.hidden ? rover : $("#stock"));

export function focusBoard(el, shown = controls()) {
  if (!el) return;
  setRover(el, shown);
  el.focus();
}
