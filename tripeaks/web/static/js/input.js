// Pointer and keyboard → the player's intent: intent("play", pos), intent("draw"), intent("undo"), intent("redo"),
// intent("hint"), intent("read"), intent("copy"), intent("new" | "help" | "stats" | "settings") to open a
// window. Nothing here knows a rule: a tap on any card is "play pos", and the server says whether it fits.
// The arrow keys move the focus over the board as it is drawn (the layout's geometry).

import { controls, currentRover, focusBoard, setRover } from "./board.js";
import { cards, centre, placeOf } from "./cards.js";
import { $, $$ } from "./dom.js";
import { state } from "./state.js";

const LETTERS = { d: "draw", u: "undo", r: "redo", n: "new", h: "hint", j: "journey", "?": "help", b: "read" };
const MOVES = { play: 1, draw: 1, undo: 1, redo: 1, hint: 1 };

export function listen(emit) {
  // A board drawn as only shown (a game left for another) takes no move; nor does the replay view, whose
  // own controls and keys are replay.js's.
  const intent = (name, arg) => {
    if (state.replay) return;
    if (!(name in MOVES && $("#board").classList.contains("closed"))) emit(name, arg);
  };
  $("#tableau").addEventListener("click", (event) => {
    const el = event.target.closest("[data-pos]");
    if (el) intent("play", Number(el.dataset.pos));
  });
  $("#stock").addEventListener("click", () => intent("draw"));
  $("#board").addEventListener("focusin", (event) => {
    if (event.target === $("#stock") || cards.includes(event.target)) setRover(event.target);
  });
  $("#copy").addEventListener("click", () => intent("copy"));
  for (const button of $$("[data-action]")) button.addEventListener("click", () => intent(button.dataset.action));
  document.addEventListener("keydown", (event) => onKey(event, intent));
}

function onKey(event, intent) {
  if ($("dialog[open]") || state.replay) return; // a window's own keys: dialogs.js; the replay's: replay.js
  const target = event.target;
  if (target && (target.matches("input, select, textarea") || target.isContentEditable)) return;
  const key = event.key;
  // Ctrl+Z undoes; Ctrl+Y and Ctrl+Shift+Z redo (Cmd on a Mac)
  const lower = key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && !event.altKey && (lower === "z" || lower === "y")) {
    event.preventDefault();
    intent(lower === "y" || event.shiftKey ? "redo" : "undo");
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (key.startsWith("Arrow")) {
    event.preventDefault();
    const current = controls().includes(target) ? target : currentRover();
    if (current !== target) focusBoard(current);
    else focusBoard(neighbour(current, key));
    return;
  }
  const action = LETTERS[key.length === 1 ? key.toLowerCase() : key];
  if (action) {
    event.preventDefault();
    intent(action);
  }
}

/** The board control in a direction. Sideways keys stay in a row (leaving it only when it has nothing more
 * that way); up and down go to the nearest row, then the nearest card in it. */
function neighbour(from, direction) {
  const box = placeOf(from);
  const c = centre(box);
  const tolerance = box.height * 0.25;
  const vertical = direction === "ArrowUp" || direction === "ArrowDown";
  let best = null;
  let bestScore = Infinity;
  for (const el of controls()) {
    if (el === from) continue;
    const d = centre(placeOf(el));
    const dx = d.x - c.x;
    const dy = d.y - c.y;
    const [along, across] = {
      ArrowRight: [dx, dy],
      ArrowLeft: [-dx, dy],
      ArrowDown: [dy, dx],
      ArrowUp: [-dy, dx],
    }[direction];
    if (along <= 2) continue;
    const otherRow = Math.abs(across) > tolerance ? 10000 : 0;
    const score = vertical ? 2 * along + Math.abs(across) : otherRow + along + 2.5 * Math.abs(across);
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  return best;
}
