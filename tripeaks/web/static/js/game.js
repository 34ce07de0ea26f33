// The player's intents become requests; each reply's state replaces state.game and is drawn as it is.

import { enqueue, get, requestId, write } from "./api.js";
import { firstControl, focusBoard, render, resultLine, reviewOf } from "./board.js";
import { cards } from "./cards.js";
import { celebrate } from "./celebrate.js";
import { deal, launch, settle, shake } from "./motion.js";
import { buzz } from "./sound.js";
import { closeDialog, confirm, layoutChoice, randomDeal, showWin } from "./dialogs.js";
import { $, afterFrame } from "./dom.js";
import { LANGS, state, store, stored } from "./state.js";
import { loadCatalog, longDay, t } from "./i18n.js";
import { labelKeys } from "./keys.js";
import { levelAnnouncement, unlockedSentence } from "./level.js";
import { announce, toast } from "./live.js";

let guide = null; // guide.js, loaded for the first game ever only

/** The first game ever shows the guide (once: it stores that it was seen), once the deal's cards have landed:
 * opened during the deal, its panel had cards flying over it. */
async function firstGuide() {
  if (stored("guide")) return;
  const flights = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
  await Promise.race([Promise.allSettled(flights.map((a) => a.finished)), new Promise((done) => setTimeout(done, 2000))]);
  import("./guide.js").then((module) => {
    guide = module;
    module.startGuide();
  });
}

const shownUnlocked = new Set(); // "game id achievement id": each unlocking is shown and said once
/** The achievements a reply unlocked (GameState `unlocked`: only on the reply of the action that counted
 * a game, and on its retry): named in the result window after a win, else in a toast; returns the sentence
 * for the live region, "" when none is new. */
function unlocked(game) {
  const line = $("#win-unlocked");
  if (line.dataset.game !== game.id) {
    line.hidden = true;
    delete line.dataset.game;
  }
  const fresh = (game.unlocked || []).filter((a) => !shownUnlocked.has(`${game.id} ${a.id}`));
  if (!fresh.length) return "";
  for (const a of fresh) shownUnlocked.add(`${game.id} ${a.id}`);
  const sentence = unlockedSentence(fresh);
  if (game.status === "won") {
    line.dataset.game = game.id;
    line.textContent = sentence;
    line.hidden = false;
  } else {
    toast(sentence, 5000);
  }
  return sentence;
}

/** Take a state from the server and draw it; `animate` when it is the reply to the player's action,
 * `again` to show the win screen or the left notice even when the state on screen already said so.
 * Returns the sentence of the achievements it unlocked ("" for none), for the caller's announcement. */
function accept(game, { animate = false, again = false } = {}) {
  const previous = state.game;
  const news = again || !previous || previous.id !== game.id || previous.status !== game.status;
  state.game = game;
  state.hint = null;
  const unlocking = unlocked(game);
  render(state, { animate });
  if (guide) guide.followGuide();
  if (news && game.status === "won") {
    // the reply to the winning move: the celebration first (celebrate.js), then the result window
    // the window opens a frame after the cascade ends: in the cascade's last frame, opening a modal window
    // (which restyles the whole page) made one task of both
    (animate ? celebrate().then(afterFrame) : Promise.resolve()).then(() => {
      if (state.game && state.game.id === game.id && state.game.status === "won") showWin(animate);
    });
  }
  if (news && game.status === "left") $("#left [data-action='new']").focus();
  if ((game.status === "won" || game.status === "stuck") && !game.result) awaitVerdict(game);
  if (game.status !== "playing" && game.id) askReview(game);
  return unlocking;
}

const reviewed = new Set(); // "id version": each ending of a game is reviewed once
/** Once a game is over (won, stuck, left), the server's review of it: the deal's grade, a sentence and
 * a line to replay (docs/api.md, "Explaining"). Nothing waits for it: a failed or slow review shows
 * nothing more. A stuck game undone and stuck again is another ending, so it is asked again. A stuck
 * game that an undo can still save is reviewed only when the player ``asked``: the server counts that
 * review as a perfect hint. */
async function askReview(game, asked = false) {
  if (game.status === "stuck" && game.can_undo && !asked) return;
  if (!game.can_hint) return; // a deal of the day is explained once its day is over
  const key = `${game.id} ${game.version}`;
  if (reviewed.has(key)) return;
  reviewed.add(key);
  const { status, data } = await get(`/api/games/${encodeURIComponent(game.id)}/review`);
  const now = state.game;
  if (status !== 200 || !data || !now || now.id !== game.id || now.version !== game.version) return;
  state.review = { id: game.id, version: game.version, data };
  render(state);
}

/** A game this tab no longer plays (left for another, or over) while the stored game is another one: the
 * player went on elsewhere, so that game is loaded. */
async function continuedElsewhere(game) {
  const id = stored("game");
  if (!id || id === game.id) return false;
  const { status, data } = await get(`/api/games/${encodeURIComponent(id)}`);
  if (status !== 200 || !data) return false;
  accept(data);
  toast(t("web.continued_elsewhere"), 4000);
  announce(t("web.continued_elsewhere"));
  focusBoard(firstControl(data));
  return true;
}

/** What the live region adds to the server's sentence for a play: the peak it cleared and its points, the
 * streak once it is longer than 2 (docs/ui.md, "Spoken, not only shown"). */
function turnSentences(last) {
  if (last.kind !== "play") return [];
  const said = [];
  if (last.peak !== null && last.peak !== undefined) said.push(t("web.announce.peak", { points: last.peak_points }));
  if (last.streak > 2) said.push(t("web.announce.run", { n: last.streak }));
  return said;
}

const spokenVerdicts = new Set(); // "id version": each ending's verdict is said once
/** The solver's verdict on an ended game ("This deal could have been won…"), the first time it is known
 * for this ending; "" otherwise. A game opened already over says nothing (its ending is old news), not
 * even when its verdict comes after it opened: that ending is marked said at once. */
function verdictSentence(game, { silent = false } = {}) {
  if (game.status !== "won" && game.status !== "stuck") return "";
  const key = `${game.id} ${game.version}`;
  if (spokenVerdicts.has(key) || (!silent && !game.result)) return "";
  spokenVerdicts.add(key);
  return silent ? "" : resultLine(game);
}

/** The solver's verdict may come after the reply that ended the game: ask again a few times. */
async function awaitVerdict(ended, tries = 8) {
  for (let i = 0; i < tries; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    if (state.game !== ended) return;
    const { status, data } = await get(`/api/games/${ended.id}`);
    if (state.game !== ended) return;
    if (status === 200 && data && data.version === ended.version && data.result) {
      accept(data);
      const verdict = verdictSentence(data);
      if (verdict) announce(verdict);
      return;
    }
  }
}

/** play, draw, undo or redo, sent with the version of the state on screen. */
async function act(kind, extra = {}) {
  const game = state.game;
  if (!game || !game.id) return;
  const body = { ...extra, version: game.version, request_id: requestId() };
  const { status, data } = await write("POST", `/api/games/${game.id}/${kind}`, body);
  if (status === 200 && data) {
    const unlocking = accept(data, { animate: true });
    settle(true);
    // The server's sentence already says what turned over, and a win or a stuck game; the page adds a
    // peak cleared, a streak past 2, at the end the solver's verdict, and an achievement unlocked: one
    // announcement, short.
    const said = data.last ? [data.last.announcement, ...turnSentences(data.last), verdictSentence(data), unlocking] : [unlocking];
    if (said.some(Boolean)) announce(said.filter(Boolean).join(" "));
    return;
  }
  settle(false); // a flight begun at the tap goes back
  const over = data && data.error && data.error.reason === "game_over";
  if (data && data.state) {
    if ((over || data.state.status === "left") && (await continuedElsewhere(data.state))) return;
    accept(data.state, { again: over });
  }
  const message = data && data.error && data.error.message;
  if (status === 422 && (kind === "play" || kind === "draw")) {
    shake(kind === "play" ? cards[extra.pos] : $("#stock"));
    buzz();
  }
  if (status === 422 && message && state.settings.hints) {
    toast(message);
    announce(message);
  } else if (status !== 409 && status !== 422 && message) {
    toast(message, 4000); // not the rules: the server's own trouble, said as it says it
    announce(message);
  }
}

let waiting = 0; // actions sent or queued that the server has not answered yet
const queued = (task) => {
  waiting += 1;
  return enqueue(task).finally(() => (waiting -= 1));
};

/** A tap on a card the last state lists in `playable` starts its flight at once (motion.js); the reply
 * confirms it or puts it back. With an action still unanswered the state on screen is not the last word,
 * so the card then waits for its reply. */
export const play = (pos) => {
  const game = state.game;
  const flying = !waiting && game && game.status === "playing" && game.playable.includes(pos) && launch(pos, $("#discard"));
  // the request (its body, fetch) goes out once the frame that shows the flight is done, not before it
  return queued(() => (flying ? afterFrame() : Promise.resolve()).then(() => act("play", { pos })));
};

export const draw = () => queued(() => act("draw"));
export const undo = () => queued(() => state.game && state.game.can_undo && act("undo"));
export const redo = () => queued(() => state.game && state.game.can_redo && act("redo"));

export const hint = () =>
  enqueue(async () => {
    const game = state.game;
    if (!game || !game.id) return;
    if (!game.can_hint) {
      toast(t("web.daily.no_hints"));
      announce(t("web.daily.no_hints"));
      return;
    }
    // the kind chosen in Settings: fair (what the player sees) or perfect (every card)
    const { status, data } = await get(`/api/games/${game.id}/hint?kind=${state.settings.hint_kind}`);
    const message = status === 200 && data ? data.message : data && data.error && data.error.message;
    if (status === 200 && data && state.game === game) {
      state.hint = data.action;
      render(state);
    }
    if (message) {
      toast(message, status === 200 ? 3200 : 2200);
      announce(message);
    }
  });

export function readBoard() {
  if (state.game) announce(state.game.description);
}

export async function copyCode() {
  if (!state.game) return;
  if (!state.game.code) {
    toast(t("web.daily.code_hidden"));
    announce(t("web.daily.code_hidden"));
    return;
  }
  try {
    await navigator.clipboard.writeText(state.game.code);
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("#code"));
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      document.execCommand("copy");
    } catch {
      /* the code stays selected for the player to copy */
    }
  }
  toast(t("web.copied"));
  announce(t("web.copied"));
}

/** Start a game (POST /api/games, or /api/daily for the deal of the day, whose day the daily window
 * names); resolves to null, to the server's message for a refused code, or to "" when the player chose
 * to keep the current game. */
export async function startGame(body, path = "/api/games", day = null) {
  const current = state.game;
  // POST /api/daily from that day's game goes on with it (docs/api.md): nothing is left. A game of an
  // earlier day is another game, and leaving it is asked first like any other.
  const resuming = path === "/api/daily" && current && day && current.daily === day && current.status === "playing";
  const ranked = current && current.ranked && current.status === "playing";
  if (current && !resuming && (current.leaving_counts_as_loss || ranked)) {
    const yes = await confirm({
      title: t("web.confirm.abandon.title"),
      // leaving the ranked daily also gives up its place on the day's board, for good
      text: t(state.game.ranked ? "web.daily.abandon" : "web.confirm.abandon.text"),
      yes: t("web.confirm.abandon.yes"),
      no: t("web.confirm.keep"),
    });
    if (!yes) return "";
  }
  const { status, data } = (await enqueue(() => write("POST", path, body))) || { status: 0 };
  if (status !== 201 && status !== 200) return (data && data.error && data.error.message) || t("web.error.network");
  store("game", data.id);
  closeDialog($("#dlg-win"));
  const unlocking = accept(data);
  const dealing = deal($("#stock"), data);
  // a level says its number and goal; leaving a game may have counted it, and unlocked something
  const news = data.level
    ? levelAnnouncement(data.level)
    : data.code
      ? t("web.announce.new", { code: data.code })
      : t("web.daily.announce", { day: longDay(data.daily) });
  announce([news, unlocking].filter(Boolean).join(" "));
  // Focusing a card lays the new board out at once; once the deal's frames have done that, the focus
  // costs nothing, and those frames wait on no forced layout. Not waited for here: the window that asked
  // for the deal closes now, or a key pressed in that frame would fall into it.
  dealing.then(() => {
    if (state.game && state.game.id === data.id) focusBoard(firstControl(data));
  });
  return null;
}

/** Start level `n` of the journey (POST /api/journey/levels/{n}): resolves as startGame does. */
export const startLevel = (n) => startGame({}, `/api/journey/levels/${encodeURIComponent(n)}`);

/** After this browser took another player's progress (a transfer code), the game on screen is the old
 * player's: a new game of the new player's is dealt. */
export async function startOver() {
  store("game", "");
  await resumeGame();
  if (state.game) focusBoard(firstControl(state.game));
}

/** The stored game, else a new one; then the buttons' keys and, for the first game ever, the guide. */
export async function resume() {
  await resumeGame();
  labelKeys();
  if (state.game) firstGuide();
}

/** The stored game, else a new one with the rules and the layout chosen last. */
async function resumeGame() {
  const id = stored("game");
  if (id) {
    const { status, data } = await get(`/api/games/${encodeURIComponent(id)}`);
    if (status === 200 && data) {
      verdictSentence(data, { silent: true });
      accept(data);
      return;
    }
  }
  // A new player's very first deal is a Gentle one, which can always be won (docs/ui.md, Behaviour):
  // a first game that ends stuck with a card left teaches the wrong lesson. Later deals follow the choice.
  const plain = { rules: state.settings.rules, ...layoutChoice() };
  const first = !stored("guide") ? { rules: "easy", winnable_only: true, difficulty: "gentle" } : null;
  let { status, data } = await write("POST", "/api/games", first || plain);
  if (first && status === 503) ({ status, data } = await write("POST", "/api/games", plain)); // none found in time
  if ((status === 201 || status === 200) && data) {
    store("game", data.id);
    accept(data);
    await deal($("#stock"), data); // a game made now is dealt as every later one is; a stored one is not
  }
}

export async function changeLanguage(next) {
  if (next === state.lang || !LANGS.includes(next)) return;
  store("lang", next); // remembered at once, even if the page goes before the words come
  if (!(await loadCatalog(next))) return;
  labelKeys();
  if (state.game && state.game.id) {
    const { status, data } = await get(`/api/games/${state.game.id}`);
    // the review's sentence is in the language it was asked in: a finished game's is asked again
    if (status === 200 && data) reviewed.delete(`${data.id} ${data.version}`);
    if (status === 200 && data) accept(data);
  }
}

// The result window and the stuck notice: "Play again" deals a new game with the same settings (its rules,
// options and layout) at once, "Same deal again" starts the same code again (asking first when leaving counts as a loss).
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-again]");
  if (!button || !state.game) return;
  const body =
    button.dataset.again === "same"
      ? { code: state.game.code }
      : { rules: state.game.rules, ...randomDeal(), ...state.game.variant, layout: state.game.layout };
  // The result window closes at the tap, not in the frame the new deal flies in: closing a modal window
  // restyles the whole page, and that frame has the new board to lay out. It opens again if no deal comes.
  // The deal is then asked for in a task of its own: closing restyles the page (no longer inert) and puts the
  // focus back, and that with the request's making was one long task at the tap.
  const fromWin = Boolean(button.closest("#dlg-win"));
  if (fromWin) closeDialog($("#dlg-win"));
  const ask = () =>
    startGame(body).then((error) => {
      if (fromWin && error !== null && state.game && state.game.status === "won") showWin();
      if (error) {
        toast(error, 4000); // no deal of the difficulty found this time, say: the server's sentence
        announce(error);
      }
    });
  if (fromWin) setTimeout(ask);
  else ask();
});

// "Where was it lost?" on a stuck game an undo can still save: asked first, since seeing where it was
// lost and a win from there counts as a perfect hint (docs/api.md, "Explaining").
document.addEventListener("click", async (event) => {
  const button = event.target.closest && event.target.closest("#stuck-ask-review");
  const game = state.game;
  if (!button || !game || game.status !== "stuck") return;
  const yes = await confirm({
    title: t("web.review.ask_title"),
    text: t("web.review.ask_text"),
    yes: t("web.review.ask_yes"),
    no: t("web.confirm.keep"),
  });
  if (!yes) return;
  await askReview(game, true);
  const shown = $("#stuck [data-replay]");
  if (shown && !shown.hidden) shown.focus();
});

// "Show me" (a lost game: from its last winnable position) and "Show a best win" (a won one): the replay
// view, fetched when first wanted (replay.js). It shows the review's steps and changes nothing stored.
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-replay]");
  const review = reviewOf(state);
  if (!button || !review || !review.replay) return;
  import("./replay.js").then(
    (module) => module.openReplay(review.replay, button),
    () => toast(t("web.replay.failed")),
  );
});
