// The windows (native <dialog>): opening and closing with the focus going back where it came from, Tab kept
// inside, the confirmation, New game, Settings and the win screen.

import { get, loadRules } from "./api.js";
import { currentRover, focusBoard } from "./board.js";
import { layoutPicture } from "./cards.js";
import { $, $$, applyMotion, h, idle, motionLevel } from "./dom.js";
import { t } from "./i18n.js";
import { countStars } from "./level.js";
import { wireSound } from "./sound.js";
import { setSetting, state } from "./state.js";

const openers = new Map();

export function openDialog(dialog, focusTarget = null) {
  if (dialog.open) return;
  const active = document.activeElement;
  openers.set(dialog, active && active !== document.body ? active : null);
  dialog.showModal();
  // A window opens at its top, whatever it was scrolled to when it last closed; a control of its sticky
  // last row is always in view, and focusing it must not scroll the body to its bottom.
  dialog.scrollTop = 0;
  if (focusTarget) focusTarget.focus({ preventScroll: Boolean(focusTarget.closest("dialog > .row:last-child")) });
  foldCue(dialog);
}

/** "More below": a window whose body goes on under its sticky row gets the class `more` (its row casts a
 * shadow upwards, app.css) until it is scrolled to its end. Kept as the window scrolls and as its content or
 * size changes (a review arriving, the screen turned). A class, not a scroll-driven animation: under reduced
 * motion and in the tests, no animation may run. */
function foldCue(dialog) {
  dialog.classList.toggle("more", dialog.open && dialog.scrollTop + dialog.clientHeight < dialog.scrollHeight - 2);
}

const sized = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const dialog = entry.target.closest("dialog");
    if (dialog) foldCue(dialog);
  }
});
function watchFold(dialog) {
  dialog.addEventListener("scroll", () => foldCue(dialog), { passive: true });
  sized.observe(dialog);
  for (const part of dialog.querySelectorAll(":scope > *, :scope > form > *")) sized.observe(part);
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

/** On the window's "close" event, which comes a task after it closed: by then the player may have moved the
 * focus on (opened the menu, say), and that is left where it is. */
function restoreFocus(dialog) {
  const opener = openers.get(dialog);
  openers.delete(dialog);
  if ($("dialog[open]")) return;
  const active = document.activeElement;
  if (active && active !== document.body && active !== opener && !dialog.contains(active)) return;
  if (opener && opener.isConnected && !opener.hidden && !opener.closest("dialog")) opener.focus();
  else focusBoard(currentRover());
}

/** Keep Tab inside an open window: from its last control back to its first, and the other way. */
function trapTab(event) {
  const dialogs = $$("dialog[open]");
  if (event.key !== "Tab" || !dialogs.length) return;
  const dialog = dialogs[dialogs.length - 1];
  const inside = $$("button, input, select, textarea, summary, a[href], [tabindex='0']", dialog).filter(
    (el) => !el.disabled && !el.hidden && el.getClientRects().length,
  );
  if (!inside.length) return;
  const first = inside[0];
  const last = inside[inside.length - 1];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !dialog.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/** Ask a question; resolves true for yes. The safe answer (no) has the focus. */
export function confirm({ title, text, yes, no }) {
  const dialog = $("#dlg-confirm");
  $("#confirm-title").textContent = title;
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = yes;
  $("#confirm-no").textContent = no;
  return new Promise((resolve) => {
    const onClose = () => {
      dialog.removeEventListener("close", onClose);
      resolve(dialog.returnValue === "yes");
    };
    dialog.returnValue = "";
    dialog.addEventListener("close", onClose);
    openDialog(dialog, $("#confirm-no"));
  });
}

/** The result window; it fades in (the celebration, if any, is over: celebrate.js). */
export function showWin(fade = false) {
  const dialog = $("#dlg-win");
  if (dialog.open) return;
  // a level's end offers the next level first, else its replay; any other win, another game
  const first = ["#win-next", "[data-level-go='same']", "#win-again"].map((sel) => $(sel, dialog)).find((b) => b && !b.hidden);
  openDialog(dialog, first || $("[data-close]", dialog));
  if (fade && motionLevel() !== "off" && dialog.animate) dialog.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 220, easing: "ease-out" });
  if (fade) countUp();
  if (fade) countStars();
}

const COUNT_STEP = 380; // ms, one part of the score added
/** The score counted up from its parts, one after another, each lit as it is added (full motion only). What a
 * screen reader reads stays the final score: the counting number is an aria-hidden copy over it. */
function countUp() {
  const parts = (state.game && state.game.score_parts) || [];
  if (motionLevel() !== "full" || parts.length < 2) return;
  const score = $("#win-score");
  const count = $("#win-count");
  const rows = $$("#win-parts li");
  const show = (n) => (count.textContent = t("web.win.score", { score: Math.round(n) }));
  let value = parts[0].points;
  show(value);
  score.classList.add("sr");
  count.hidden = false;
  rows[0].classList.add("added");
  let i = 1;
  let from = value;
  let began = performance.now();
  const frame = (now) => {
    if (!$("#dlg-win").open) return done();
    const k = Math.min(1, (now - began) / COUNT_STEP);
    rows[i].classList.add("adding");
    show(from + (parts[i].points * (1 - (1 - k) ** 3)));
    if (k < 1) return requestAnimationFrame(frame);
    rows[i].classList.replace("adding", "added");
    value = from + parts[i].points;
    i += 1;
    if (i >= parts.length) return done();
    from = value;
    began = now;
    return requestAnimationFrame(frame);
  };
  const done = () => {
    score.classList.remove("sr");
    count.hidden = true;
    for (const row of rows) row.classList.remove("adding", "added");
  };
  requestAnimationFrame(frame);
}

/** The result window laid out once, unseen, at an idle moment after the page is up: its first opening loaded the
 * fonts of its sizes and the fallback font of its suit symbols (25 ms of a 64 ms task at 4x, in the win's
 * frames: docs/ui.md). Its empty lines (score, result, streak) get a digit for that moment, for their sizes to be
 * loaded too. */
export function warmWin() {
  idle(() => {
    const dialog = $("#dlg-win");
    if (dialog.open) return;
    const empty = $$("p", dialog).filter((p) => !p.textContent);
    for (const p of empty) p.textContent = "0";
    dialog.classList.add("warming");
    dialog.getBoundingClientRect(); // the layout, and the fonts it needs, now
    dialog.classList.remove("warming");
    for (const p of empty) p.textContent = "";
  });
}

export function openNewGame() {
  closeDialog($("#dlg-win"));
  const form = $("#new-form");
  for (const radio of $$("input[name='rules']", form)) radio.checked = radio.value === state.settings.rules;
  showLayouts();
  $("#new-winnable").checked = state.settings.winnable;
  for (const radio of $$("input[name='difficulty']", form)) radio.checked = radio.value === state.settings.difficulty;
  showGraded();
  for (const radio of $$("input[name='scoring']", form)) radio.checked = radio.value === state.settings.scoring;
  for (const name of OPTIONS) $(`input[name='${name}']`, form).checked = state.settings[name];
  $("#new-code").value = "";
  $("#new-code").style.height = ""; // one line again
  $("#new-error").textContent = "";
  $("#new-refusal").textContent = "";
  $("#new-code").removeAttribute("aria-invalid");
  showOffered().then(showMore);
  $("#new-more").open = false; // until the options offered are known (showMore)
  openDialog($("#dlg-new"), $("input[name='difficulty']:checked", form));
  // the layout chosen is in view in its strip (app.css: one row that scrolls sideways on a small screen)
  const chosen = $("input[name='layout']:checked", form);
  if (chosen) {
    const strip = $("#new-layouts");
    const chip = chosen.closest(".chip");
    strip.scrollLeft = chip.offsetLeft - strip.offsetLeft - (strip.clientWidth - chip.offsetWidth) / 2;
  }
}

const offeredLayouts = () => state.layouts.filter((layout) => layout.offered);

/** The layout a new game asks for: the one chosen last while it is offered, else none (the server's own). */
export function layoutChoice() {
  const id = state.settings.layout;
  return offeredLayouts().some((layout) => layout.id === id) ? { layout: id } : {};
}

/** The layouts offered as chips (radios): a small picture of each (its cards as little rectangles, those face up
 * at the start lighter) and its name; the one chosen last checked, else the first. Shown only when there is a
 * choice to make. */
function showLayouts() {
  const layouts = offeredLayouts();
  const chosen = layoutChoice().layout || (layouts[0] && layouts[0].id);
  $("#new-layout").hidden = layouts.length < 2;
  $("#new-layouts").replaceChildren(
    ...layouts.map((layout) =>
      h(
        "label",
        { className: "chip layout-chip" },
        h("input", { type: "radio", name: "layout", value: layout.id, checked: layout.id === chosen }),
        layoutPicture(layout.places),
        h("span", { className: "layout-name" }, t(`layout.${layout.id}`)),
      ),
    ),
  );
}

const OPTIONS = ["open_peaks", "empty_discard", "joker"];

const difficulty = () => $("input[name='difficulty']:checked", $("#new-form")).value;

/** A chosen grade deals a deal of that grade, which can always be won (docs/ui.md, "Difficulty"): the
 * winnable box is then ticked and disabled, with a line that says why; back on Any it is the player's
 * own choice again. */
function showGraded() {
  const graded = difficulty() !== "any";
  const box = $("#new-winnable");
  box.disabled = graded;
  box.checked = graded || state.settings.winnable;
  $("#new-winnable-help").hidden = !graded;
}

/** The scoring and the options, where the server offers them (GET /api/rules `offered`, asked for
 * once, the first time the window opens): what it does not offer is not shown, nor sent. */
async function showOffered() {
  await loadRules();
  const offered = new Set((state.rules && state.rules.offered) || []);
  $("#new-scoring").hidden = !offered.has("traditional");
  for (const name of OPTIONS) $(`[data-option='${name}']`).hidden = !offered.has(name);
  $("#new-options").hidden = !OPTIONS.some((name) => offered.has(name));
}

/** More options opens by itself when something in it is not the default (a traditional scoring or a
 * variant chosen last time), so that a player always sees why a deal is unusual; its summary names
 * what is chosen there, in the words of the header ("joker, traditional scoring"). */
function showMore() {
  if (nameUnusual()) $("#new-more").open = true;
}

/** Name in More options' summary what it holds that is not the default, in the header's order; how many. */
function nameUnusual() {
  const options = chosenOptions($("#new-form"));
  const chosen = [
    options.empty_discard && "option.empty_discard",
    options.joker && "option.joker",
    options.open_peaks && "option.open_peaks",
    options.scoring === "traditional" && "option.traditional",
  ].filter(Boolean);
  $("#new-more-chosen").textContent = chosen.map((key) => t(key)).join(", ");
  return chosen.length;
}

/** The options of the window as a new game's request asks for them: only those shown. */
function chosenOptions(form) {
  const body = {};
  if (!$("#new-scoring").hidden) body.scoring = $("input[name='scoring']:checked", form).value;
  for (const name of OPTIONS) if (!$(`[data-option='${name}']`).hidden) body[name] = $(`input[name='${name}']`, form).checked;
  return body;
}

/** The code box as tall as its wrapped lines: a long code (TP2) is seen whole, a short one on one line. */
function fitCode() {
  const box = $("#new-code");
  box.style.height = "auto";
  box.style.height = `${box.scrollHeight + box.offsetHeight - box.clientHeight}px`;
}

function refuseCode(message) {
  $("#new-more").open = true; // the field is in More options: opened first, or the refusal is unseen
  $("#new-error").textContent = message; // role="alert": said as it appears
  $("#new-code").setAttribute("aria-invalid", "true");
  $("#new-code").focus({ preventScroll: true });
  // the field and its refusal in view together, above the window's sticky buttons (scroll-margin, app.css)
  $("#new-code").closest(".field").scrollIntoView({ block: "nearest" });
}

/** What a random deal asks for besides its rules and options: "winnable only" or a difficulty, and the layout,
 * as last chosen (the New game window; Play again asks for its game's layout). A grade means a winnable deal. */
export function randomDeal() {
  const grade = state.settings.difficulty;
  if (grade && grade !== "any") return { winnable_only: true, difficulty: grade, ...layoutChoice() };
  return { winnable_only: state.settings.winnable, difficulty: "any", ...layoutChoice() };
}

export function openSettings() {
  $("#set-hints").checked = state.settings.hints;
  for (const radio of $$("input[name='hint_kind']")) radio.checked = radio.value === state.settings.hint_kind;
  $("#set-sound").checked = state.settings.sound;
  $("#set-vibrate").checked = state.settings.vibrate;
  for (const radio of $$("input[name='motion']")) radio.checked = radio.value === motionLevel();
  $("#set-lang").value = state.lang;
  for (const radio of $$("input[name='theme']")) radio.checked = radio.value === state.settings.theme;
  openDialog($("#dlg-settings"), $("#set-hints"));
}

export function applyTheme(theme) {
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

/** start(body) starts a game and resolves to null, or to the server's message for a refused code
 * ("" when the player kept the current game); language(lang) switches the page's language. */
export function wireDialogs({ start, language }) {
  document.addEventListener("keydown", trapTab);
  for (const dialog of $$("dialog")) {
    watchFold(dialog);
    dialog.addEventListener("close", () => restoreFocus(dialog));
    for (const button of $$("[data-close]", dialog)) button.addEventListener("click", () => dialog.close());
  }
  $("#confirm-yes").addEventListener("click", () => $("#dlg-confirm").close("yes"));
  $("#confirm-no").addEventListener("click", () => $("#dlg-confirm").close("no"));

  let dealing = false; // a second Deal while the first is checked or asked about is ignored
  $("#new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (dealing) return;
    dealing = true;
    try {
      await deal(event.target);
    } finally {
      dealing = false;
    }
  });
  async function deal(form) {
    $("#new-refusal").textContent = "";
    const rules = $("input[name='rules']:checked", form).value;
    const grade = difficulty();
    const winnable = grade === "any" ? $("#new-winnable").checked : state.settings.winnable;
    const typed = $("#new-code").value.trim();
    setSetting("rules", rules);
    setSetting("winnable", winnable);
    setSetting("difficulty", grade);
    const layout = $("input[name='layout']:checked", form);
    if (layout) setSetting("layout", layout.value);
    const options = chosenOptions(form);
    for (const [name, value] of Object.entries(options)) setSetting(name, value);
    // A typed code is checked first: a wrong one is said here and nothing else is asked.
    let code = "";
    if (typed) {
      const { status, data } = await get(`/api/code?${new URLSearchParams({ code: typed })}`);
      if (status !== 200 || !data) {
        refuseCode((data && data.error && data.error.message) || t("web.error.network"));
        return;
      }
      code = data.code;
    }
    // a typed code carries its own rules, options and layout
    // a typed code ignores the difficulty as it ignores "winnable only" (its deal is what it is)
    const random = { rules, ...randomDeal(), ...options };
    const error = await start(code ? { rules, winnable_only: winnable, code } : random);
    if (error === null) closeDialog($("#dlg-new"));
    else if (error && code) refuseCode(error);
    else if (error) $("#new-refusal").textContent = error; // a grade or a deal the server could not give
  }
  for (const radio of $$("input[name='difficulty']")) radio.addEventListener("change", showGraded);
  for (const input of $$("#new-scoring input, #new-options input")) input.addEventListener("change", nameUnusual);
  // The code box wraps a long code over lines, but a code has no line break: Enter deals, as in a field.
  $("#new-code").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    $("#new-form").requestSubmit();
  });
  $("#new-code").addEventListener("input", () => {
    fitCode();
    $("#new-error").textContent = "";
    $("#new-code").removeAttribute("aria-invalid");
  });

  $("#set-hints").addEventListener("change", (event) => setSetting("hints", event.target.checked));
  for (const radio of $$("input[name='hint_kind']")) radio.addEventListener("change", () => setSetting("hint_kind", radio.value));
  wireSound();
  $("#set-lang").addEventListener("change", (event) => language(event.target.value));
  for (const radio of $$("input[name='motion']")) {
    radio.addEventListener("change", () => {
      setSetting("motion", radio.value);
      applyMotion(radio.value);
    });
  }
  for (const radio of $$("input[name='theme']")) {
    radio.addEventListener("change", () => {
      setSetting("theme", radio.value);
      applyTheme(radio.value);
    });
  }
}
