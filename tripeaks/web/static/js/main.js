// TriPeaks in the browser: boot and wiring. The page draws the state the server sends (board.js) and
// sends what the player meant (input.js → game.js); the rules, the score and what a move turned over all
// come from the server (docs/ui.md).

import { get, watchSaving } from "./api.js";
import { build, render } from "./board.js";
import { applyTheme, openNewGame, openSettings, wireDialogs } from "./dialogs.js";
import { $ } from "./dom.js";
import * as game from "./game.js";
import { openHelp } from "./help.js";
import { firstLanguage, loadCatalog, t } from "./i18n.js";
import { listen } from "./input.js";
import { announce } from "./live.js";
import { loadSettings, state } from "./state.js";
import { openStats, wireStats } from "./stats.js";

const intents = {
  play: game.play,
  draw: game.draw,
  undo: game.undo,
  hint: game.hint,
  read: game.readBoard,
  copy: game.copyCode,
  new: openNewGame,
  help: openHelp,
  stats: openStats,
  settings: openSettings,
};

async function boot() {
  loadSettings();
  applyTheme(state.settings.theme);
  listen((intent, arg) => intents[intent](arg));
  wireDialogs({ start: game.startGame, language: game.changeLanguage });
  wireStats(game.startGame);
  watchSaving((waiting) => {
    state.saving = waiting;
    if (waiting) announce(t("web.saving_retry"));
    render(state);
  });
  const [layout] = await Promise.all([get("/api/layout"), loadCatalog(firstLanguage())]);
  state.layout = layout.data.positions;
  build(state.layout);
  await game.resume();
  $("#loading").remove();
  document.body.dataset.ready = "true";
}

boot();
