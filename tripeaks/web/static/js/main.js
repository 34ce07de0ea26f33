// TriPeaks in the browser: boot and wiring. The page draws the state the server sends (board.js) and
// sends what the player meant (input.js → game.js); the rules, the score and what a move turned over all
// come from the server (docs/ui.md).

import { get, watchSaving } from "./api.js";
import { render } from "./board.js";
import { boardSized } from "./cards.js";
import { applyTheme, openNewGame, openSettings, warmWin, wireDialogs } from "./dialogs.js";
import { $, applyMotion } from "./dom.js";
import * as game from "./game.js";
import { firstLanguage, loadCatalog, t } from "./i18n.js";
import { listen } from "./input.js";
import { announce, toast } from "./live.js";
import { loadLooks, wireLooks } from "./looks.js";
import { wireMenu } from "./menu.js";
import { prepareSound } from "./sound.js";
import { loadSettings, state } from "./state.js";

// The help and the statistics are loaded when first opened: they are not part of the first load.
const later = (path, name) => () =>
  import(path).then(
    (module) => module[name](),
    () => toast(t("web.error.network")),
  );

const intents = {
  play: game.play,
  draw: game.draw,
  undo: game.undo,
  redo: game.redo,
  hint: game.hint,
  read: game.readBoard,
  copy: game.copyCode,
  new: openNewGame,
  help: later("./help.js", "openHelp"),
  stats: later("./stats.js", "openStats"),
  daily: later("./daily.js", "openDaily"),
  journey: later("./journey.js", "openJourney"),
  achievements: later("./journey.js", "openAchievements"),
  settings: openSettings,
};

async function boot() {
  loadSettings();
  applyTheme(state.settings.theme);
  applyMotion(state.settings.motion);
  loadLooks();
  listen((intent, arg) => intents[intent](arg));
  wireDialogs({ start: game.startGame, language: game.changeLanguage });
  wireMenu();
  wireLooks();
  watchSaving((waiting) => {
    state.saving = waiting;
    if (waiting) announce(t("web.saving_retry"));
    render(state);
  });
  // every layout's places, once: the tableau is built for the layout of each game that comes (cards.js)
  const [layouts] = await Promise.all([get("/api/layouts"), loadCatalog(firstLanguage())]);
  state.layouts = (layouts.data && layouts.data.layouts) || [];
  await game.resume();
  $("#loading").remove();
  document.querySelector("main").removeAttribute("aria-busy");
  // ready once the board has its size (a frame after it is built): a script that reads the board then
  // finds it laid out, as the player first sees it, not at no size at all
  await boardSized();
  document.body.dataset.ready = "true";
  prepareSound();
  warmWin();
}

// A level's end and its stuck notice: "Next level" shows the next level's start (its goal, before its deal),
// "Replay level" deals the same level again (docs/ui.md, "The journey").
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-level-go]");
  const game = state.game;
  if (!button || !game || !game.level) return;
  const next = button.dataset.levelGo === "next";
  const n = next ? game.level_result && game.level_result.next_level : game.level.number;
  if (!n) return;
  import("./journey.js").then(
    (module) => (next ? module.openLevel(n) : module.replayLevel(n)),
    () => toast(t("web.error.network")),
  );
});

boot();
