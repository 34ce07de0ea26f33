// The toolbar's menu (the WAI-ARIA menu button pattern) and the score's scoring table shown for a moment.
// Menu: Enter, Space, ArrowDown or a tap opens it on its first item (ArrowUp: on its last); arrows, Home
// and End move inside it, Escape or Tab closes it and the focus goes back to the Menu button; a tap outside
// closes it. Choosing an item closes it before the item's action runs (input.js), so a window opened
// from the menu gives the focus back to the Menu button.

import { get } from "./api.js";
import { $, $$, h } from "./dom.js";
import { oursRows, traditionalRows } from "./scoring.js";
import { state } from "./state.js";

const items = () => $$("[role^='menuitem']", $("#menu")).filter((el) => !el.hidden && !el.disabled);

export function openMenu(which = "first") {
  const menu = $("#menu");
  menu.hidden = false;
  $("#menu-btn").setAttribute("aria-expanded", "true");
  const list = items();
  const target = which === "last" ? list[list.length - 1] : list[0];
  if (target) target.focus();
}

export function closeMenu({ focusButton = true } = {}) {
  const menu = $("#menu");
  if (menu.hidden) return;
  const inside = menu.contains(document.activeElement);
  menu.hidden = true;
  $("#menu-btn").setAttribute("aria-expanded", "false");
  if (focusButton || inside) $("#menu-btn").focus();
}

function moveIn(current, step) {
  const list = items();
  const i = list.indexOf(current);
  const next = step === "first" ? 0 : step === "last" ? list.length - 1 : (i + step + list.length) % list.length;
  if (list[next]) list[next].focus();
}

export function wireMenu() {
  const button = $("#menu-btn");
  const menu = $("#menu");
  button.addEventListener("click", () => (menu.hidden ? openMenu() : closeMenu()));
  button.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      event.stopPropagation();
      openMenu(event.key === "ArrowUp" ? "last" : "first");
    }
  });
  menu.addEventListener("keydown", (event) => {
    const keys = { ArrowDown: 1, ArrowUp: -1, Home: "first", End: "last" };
    event.stopPropagation(); // the board's letter and arrow keys are not the menu's
    if (event.key in keys) {
      event.preventDefault();
      moveIn(event.target, keys[event.key]);
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      closeMenu();
    }
  });
  // Capture: the menu closes (focus on its button) before the item's own action opens a window.
  menu.addEventListener(
    "click",
    (event) => {
      const item = event.target.closest("[role^='menuitem']");
      if (item && item.getAttribute("role") === "menuitem") closeMenu();
    },
    true,
  );
  document.addEventListener("pointerdown", (event) => {
    if (!menu.hidden && !menu.contains(event.target) && !button.contains(event.target)) closeMenu({ focusButton: false });
    const scoring = $("#scoring");
    if (!scoring.hidden && !scoring.contains(event.target) && !$("#score-btn").contains(event.target)) hideScoring();
  });
  wireScoring();
}

// ---- The scoring table, for a moment ---------------------------------------------------------------

let scoringTimer = 0;

function hideScoring() {
  clearTimeout(scoringTimer);
  $("#scoring").hidden = true;
  $("#score-btn").setAttribute("aria-expanded", "false");
}

async function showScoring() {
  if (!state.rules) {
    const { status, data } = await get("/api/rules");
    if (status !== 200 || !data) return;
    state.rules = data;
  }
  // the scoring of the game in play: a traditional game's runs, draws and peaks, not ours
  const traditional = state.game && state.game.variant && state.game.variant.scoring === "traditional";
  const rows = (traditional ? traditionalRows(state.rules) : oursRows(state.rules, "web.scoring")).map(([label, value]) =>
    h("tr", {}, h("td", {}, label), h("td", { className: "num" }, value)),
  );
  $("#scoring-table").replaceChildren(h("tbody", {}, ...rows));
  $("#scoring").hidden = false;
  $("#score-btn").setAttribute("aria-expanded", "true");
  clearTimeout(scoringTimer);
  scoringTimer = setTimeout(hideScoring, 6000);
}

function wireScoring() {
  const button = $("#score-btn");
  button.addEventListener("click", () => ($("#scoring").hidden ? showScoring() : hideScoring()));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("#scoring").hidden) hideScoring();
  });
}
