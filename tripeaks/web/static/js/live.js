// What a screen reader hears (the live region) and the short notices on the table (toasts).

import { $ } from "./dom.js";

let liveTimer = 0;
/** Say `text` in the live region; the same sentence twice is said twice. */
export function announce(text) {
  const live = $("#live");
  clearTimeout(liveTimer);
  if (live.textContent === text) {
    live.textContent = "";
    liveTimer = setTimeout(() => (live.textContent = text), 60);
  } else {
    live.textContent = text;
  }
}

let toastTimer = 0;
export function toast(text, ms = 2200) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), ms);
}
