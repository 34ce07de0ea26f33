// A level of the journey in words and stars: its goal, what each star and the next one need, the stars
// earned; the header's line during a level game and the end of one in the result window. Every figure is
// the server's (GET /api/journey, GameState `level` and `level_result`: docs/api.md, "The journey"): the
// page judges no star and no goal.

import { $, $$, h, motionLevel } from "./dom.js";
import { number, plural, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function star(on) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", on ? "star on" : "star");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", "#i-star");
  svg.append(use);
  return svg;
}

/** Three stars, the first `n` lit, in `box` (aria-hidden: the words beside them say it). */
export function fillStars(box, n) {
  box.replaceChildren(star(n > 0), star(n > 1), star(n > 2));
}

export function stars(n, className = "stars") {
  const box = h("span", { className, "aria-hidden": "true" });
  fillStars(box, n);
  return box;
}

/** "2 of 3 stars" */
export const starsText = (n) => plural("web.level.stars_of", n);

/** The goal as a sentence, for a level's start ("Win with at most 13 draws."). */
export function goalSentence(goal) {
  if (!goal) return t("web.goal.none");
  if (goal.kind === "group_first") return t("web.goal.group_first", { group: number(goal.n + 1) });
  if (goal.kind === "no_undo") return t("web.goal.no_undo");
  return plural(`web.goal.${goal.kind}`, goal.n);
}

/** The goal in a few words, for the header and the result ("at most 13 draws"); "" without one. */
export function goalShort(goal) {
  if (!goal) return "";
  if (goal.kind === "group_first") return t("web.goal.short.group_first", { group: number(goal.n + 1) });
  if (goal.kind === "no_undo") return t("web.goal.short.no_undo");
  return plural(`web.goal.short.${goal.kind}`, goal.n);
}

/** What the next star needs (the server's NextStar), or that three stars are the best there is. */
export function nextStarSentence(next) {
  if (!next) return t("web.level.next.none");
  if (next.kind === "draws_at_most" || next.kind === "score_at_least") return plural(`web.level.next.${next.kind}`, next.n);
  return t("web.level.next.win");
}

/** What each star of a level needs, from its figures: one a win; two within the documented margin
 * (docs/journey.md, "Stars"), said in words; three the best score, with the fewest draws under ours. */
export function starNeeds(traditional, best, fewest) {
  return [
    [1, t("web.level.need.one")],
    [2, t(traditional ? "web.level.need.two_traditional" : "web.level.need.two_ours")],
    [3, traditional ? t("web.level.need.three_traditional", { best: number(best) }) : plural("web.level.need.three_ours", fewest, { best: number(best) })],
  ];
}

/** The announcement of a level game's start: its number and its goal. */
export const levelAnnouncement = (level) =>
  t("web.level.announce", { n: number(level.number), goal: goalSentence(level.goal) });

const put = (el, text) => {
  if (el.textContent !== text) el.textContent = text;
};

/** The header during a level game: a line under the counters names the level and its goal. */
export function paintLevelHeader(game) {
  const level = game.level;
  const line = $("#level-line");
  const name = level ? t("web.level.title", { n: number(level.number) }) : "";
  put(line, level && level.goal ? `${name} · ${t("web.level.header_goal", { goal: goalShort(level.goal) })}` : name);
  line.hidden = !level;
  // a level's own buttons (replay, the map) instead of the same deal as an ordinary game
  for (const b of $$("[data-level-go='same'], [data-level-only]")) b.hidden = !level;
}

/** A won level game's part of the result window: its stars, the score beside the best possible, the
 * goal, what the next star needs and "Next level" (GameState `level_result`, judged by the server). */
export function paintLevelEnd(game) {
  const result = game.level && game.level_result;
  $("#win-level").hidden = !result;
  $("#dlg-win").classList.toggle("level", Boolean(result));
  $("#win-result").hidden = Boolean(result); // the level's own line says the best score
  $("#win-again").hidden = Boolean(game.level);
  put($("#win-title"), result ? t("web.level.won", { n: number(game.level.number) }) : t("web.win.title"));
  for (const id of ["#win-level-score", "#win-level-goal", "#win-level-next"]) $(id).hidden = !result;
  $("#win-next").hidden = !(result && result.next_level);
  if (!result) return;
  const box = $("#win-stars");
  if (box.dataset.n !== String(result.stars) || box.dataset.game !== game.id) {
    box.dataset.n = String(result.stars);
    box.dataset.game = game.id;
    fillStars(box, result.stars);
  }
  const earlier = result.best_stars > result.stars ? ` ${t("web.level.best_stars", { stars: starsText(result.best_stars) })}` : "";
  put($("#win-stars-text"), starsText(result.stars) + earlier);
  put($("#win-level-score"), t("web.level.score", { score: number(result.score), best: number(result.best_score) }));
  const goal = game.level.goal;
  $("#win-level-goal").hidden = result.goal_met === null || result.goal_met === undefined || !goal;
  if (goal) put($("#win-level-goal"), t(result.goal_met ? "web.level.goal_met" : "web.level.goal_missed", { goal: goalShort(goal) }));
  put($("#win-level-next"), nextStarSentence(result.next));
}

const STAR_STEP = 320; // ms between two stars lit
/** The stars of a level's end lit one after another as the window opens (full motion only: under reduced
 * motion, or none, they are shown at once). Their words are there from the start for a screen reader. */
export function countStars() {
  const lit = $$("#win-stars .star.on");
  if (motionLevel() !== "full" || !lit.length || $("#win-level").hidden) return;
  for (const el of lit) el.classList.replace("on", "waiting");
  lit.forEach((el, i) =>
    setTimeout(() => {
      el.classList.replace("waiting", "on");
      el.classList.add("pop");
    }, STAR_STEP * (i + 1)),
  );
}

/** Achievements a reply unlocked, by name, for the result window ("Achievement unlocked: First win"). */
export function unlockedSentence(list) {
  const names = list.map((a) => t(`achievement.${a.id}.name`)).join(", ");
  return plural("web.achievements.new", list.length, { names });
}
