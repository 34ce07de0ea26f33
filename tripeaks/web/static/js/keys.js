// The keyboard key of each button, from the catalog's key names (web.keys.*.key, the keys table of the
// help): a tooltip (`title`) and `aria-keyshortcuts`. Buttons inside a window get none: letter keys only
// work when no window is open (input.js).

import { $, $$ } from "./dom.js";
import { t } from "./i18n.js";

const KEY_OF = { undo: "u", redo: "r", hint: "h", new: "n", journey: "j", read: "b", help: "help" };

/** "U, Ctrl+Z" → "U Control+Z": the catalog's names as aria-keyshortcuts spells them. */
export function ariaKeys(names) {
  return names
    .split(/,\s*/)
    .map((name) => name.replace(/^Ctrl\+/, "Control+"))
    .join(" ");
}

function label(el, id) {
  const names = t(`web.keys.${id}.key`);
  el.setAttribute("aria-keyshortcuts", ariaKeys(names));
  el.title = t("web.keys.tooltip", { keys: names });
}

export function labelKeys() {
  for (const el of $$("button[data-action]")) {
    const id = KEY_OF[el.dataset.action];
    if (id && !el.closest("dialog")) label(el, id);
  }
  label($("#stock"), "d");
}
