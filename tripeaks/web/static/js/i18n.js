// Words: the catalog of one language from GET /api/i18n/{lang}, t(), numbers in that language.

import { get } from "./api.js";
import { $, $$, idle } from "./dom.js";
import { LANGS, state, store, stored } from "./state.js";

/** The message `id` with its {placeholders} filled in; plurals come already chosen from the server. */
export function t(id, values = {}) {
  let text = state.messages[id];
  if (Array.isArray(text)) text = text[0];
  if (typeof text !== "string") return id;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The form of the plural message `id` for `n` (the catalogs' rule, GET /api/i18n `plural`: "n != 1" in en, fi
 * and ca), its {n} written as the language writes numbers; other {placeholders} from `values`. */
export function plural(id, n, values = {}) {
  const forms = state.messages[id];
  if (!Array.isArray(forms)) return t(id, { n: number(n), ...values });
  const text = forms[Math.min(forms.length - 1, n === 1 ? 0 : 1)];
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name === "n" ? number(n) : name in values ? String(values[name]) : whole));
}

/** The stored choice, else the first of the browser's languages we speak, else English. */
export function firstLanguage() {
  const chosen = stored("lang");
  if (LANGS.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export async function loadCatalog(lang) {
  const { status, data } = await get(`/api/i18n/${lang}`);
  if (status !== 200 || !data) return false;
  state.messages = data.messages;
  state.lang = lang;
  store("lang", lang);
  document.documentElement.lang = lang;
  document.title = t("web.title");
  for (const el of $$("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of $$("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  $("#set-lang").value = lang;
  warmNumbers();
  return true;
}

// One formatter per language and options: making an Intl.NumberFormat costs far more than using one, and
// the score, the moves and the streak are formatted on every reply.
const formats = new Map();
export function number(value, options = {}) {
  if (value === null || value === undefined) return t("web.stats.none");
  const key = `${state.lang} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(state.lang, options)));
  return format.format(value);
}

/** The formats a game uses (the streak, a peak's points), made while the page is idle: the page's first
 * Intl.NumberFormat loads the language's number data, ~60 ms with the CPU slowed 4x, which fell in the
 * frame of the first streak otherwise. */
function warmNumbers() {
  idle(() => {
    number(0);
    points(0);
  });
}

/** Points with their sign, "+100", "−1" (a true minus sign in every language). */
export function points(value) {
  return number(value, { signDisplay: "exceptZero" }).replace("-", "\u2212");
}

/** A UTC day ("2026-12-01") as the player's language writes it in full. */
export function longDay(day) {
  if (!day) return "";
  const [y, m, d] = day.split("-").map(Number);
  return new Intl.DateTimeFormat(state.lang, { dateStyle: "long", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
}
