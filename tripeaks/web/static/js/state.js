// The one state the page holds. board.js draws everything from it; what the player does goes to the server
// (game.js), and the reply's state replaces `game` as it is: the page keeps no rule and no copy of its own.

export const LANGS = ["en", "fi", "ca"];

export const state = {
  game: null, // the GameState as last sent by the server (docs/api.md)
  rules: null, // GET /api/rules: the start score, the scoring table, the undo limit
  layouts: [], // GET /api/layouts: every layout, its id, size, groups and places
  layout: [], // the places of the layout on the table (cards.js useLayout): where each tableau position is drawn
  lang: "en",
  messages: {}, // the catalog of `lang`: GET /api/i18n/{lang}
  settings: { hints: true, theme: "system", rules: "easy", winnable: false },
  hint: null, // the server's suggested action, outlined until the next state comes
  review: null, // {id, version, data}: GET /api/games/{id}/review of the game on screen once it is over
  replay: null, // {game}: while the replay view is open, the replay's step the board draws instead of `game`
  saving: false, // a write waits for the server to take it (503 or no reply): the notice shows
};

// localStorage, under these names; it may be unavailable (private mode): settings then last for this visit.
const KEYS = {
  game: "tripeaks.game",
  lang: "tripeaks.lang",
  theme: "tripeaks.theme",
  hints: "tripeaks.hints",
  rules: "tripeaks.rules",
  winnable: "tripeaks.winnable",
  scoring: "tripeaks.scoring", // "ours" | "traditional": the New game window's choice
  open_peaks: "tripeaks.open_peaks", // "1" | "0", and the two below: the options chosen last
  empty_discard: "tripeaks.empty_discard",
  joker: "tripeaks.joker",
  deck: "tripeaks.deck", // "two" | "four" colours (looks.js)
  back: "tripeaks.back", // card back: "blue" | "red" | "gold"
  felt: "tripeaks.felt", // table colour: "green" | "blue" | "red"
  guide: "tripeaks.guide", // "done" once the first game's guide was closed: never shown again
  sound: "tripeaks.sound", // "1" | "0": the synthesized sounds (sound.js), on by default
  motion: "tripeaks.motion", // "full" | "reduced" | "off": the Animation setting; unset, the system's
  vibrate: "tripeaks.vibrate", // "1" | "0": a short vibration on a refused tap, on by default
  hint_kind: "tripeaks.hint_kind", // "fair" (the default) | "perfect": sent as `kind` with every hint
  difficulty: "tripeaks.difficulty", // "any" | "gentle" | "medium" | "hard": the New game window's grade
  layout: "tripeaks.layout", // a layout's id (GET /api/layouts): the New game window's choice
  replay_speed: "tripeaks.replay_speed", // "slow" | "normal" | "fast": the replay view's speed
};

export function stored(name, fallback = null) {
  try {
    const value = localStorage.getItem(KEYS[name]);
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

export function store(name, value) {
  try {
    localStorage.setItem(KEYS[name], value);
  } catch {
    /* the value lasts for this visit only */
  }
}

export function loadSettings() {
  state.settings = {
    hints: stored("hints", "1") === "1",
    theme: stored("theme", "system"),
    rules: stored("rules", "easy"),
    winnable: stored("winnable", "0") === "1",
    scoring: stored("scoring", "ours"),
    open_peaks: stored("open_peaks", "0") === "1",
    empty_discard: stored("empty_discard", "0") === "1",
    joker: stored("joker", "0") === "1",
    sound: stored("sound", "1") === "1",
    motion: oneOf(stored("motion", "system"), ["system", "full", "reduced", "off"]),
    vibrate: stored("vibrate", "1") === "1",
    hint_kind: stored("hint_kind", "fair") === "perfect" ? "perfect" : "fair",
    difficulty: oneOf(stored("difficulty", "any"), ["any", "gentle", "medium", "hard"]),
    layout: stored("layout", ""), // sent only while it is offered (dialogs.js layoutChoice)
    replay_speed: oneOf(stored("replay_speed", "normal"), ["slow", "normal", "fast"]),
  };
}

/** A stored choice that is one of ``values``, else the first (a value from an older page, or edited). */
const oneOf = (value, values) => (values.includes(value) ? value : values[0]);

export function setSetting(name, value) {
  state.settings[name] = value;
  store(name, typeof value === "boolean" ? (value ? "1" : "0") : value);
}
