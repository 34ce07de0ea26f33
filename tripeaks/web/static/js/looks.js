// How the table looks (Settings): a two- or four-colour deck, the card back and the table colour. Each is
// remembered (state.js, localStorage) and applied as data-deck, data-back and data-felt on <html> (app.css).

import { $$ } from "./dom.js";
import { setSetting, state, stored } from "./state.js";

export const LOOKS = { deck: ["two", "four"], back: ["blue", "red", "gold"], felt: ["green", "blue", "red"] };

export function loadLooks() {
  for (const [name, values] of Object.entries(LOOKS)) {
    const value = stored(name, values[0]);
    state.settings[name] = values.includes(value) ? value : values[0];
  }
  applyLooks();
}

export function applyLooks() {
  for (const name of Object.keys(LOOKS)) document.documentElement.dataset[name] = state.settings[name];
}

/** The Settings window's radio groups named deck, back and felt. */
export function wireLooks() {
  for (const name of Object.keys(LOOKS)) {
    for (const radio of $$(`input[name='${name}']`)) {
      radio.checked = radio.value === state.settings[name];
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        setSetting(name, radio.value);
        applyLooks();
      });
    }
  }
}
