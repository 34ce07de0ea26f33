// TriPeaks in the browser: render the state the server sends, post what the player touched.
// No rule lives here: which card fits, what covers what and the score all come from the server.

const STORE = {
  game: "tripeaks.game",
  lang: "tripeaks.lang",
  theme: "tripeaks.theme",
  hints: "tripeaks.hints",
  rules: "tripeaks.rules",
  winnable: "tripeaks.winnable",
};
const LANGS = ["en", "fi", "ca"];
const HELP_SECTIONS = ["rules", "scoring", "undo", "codes", "choices", "variants", "example", "keys", "sources"];
const KEYS = ["arrows", "enter", "d", "u", "n", "h", "help", "b", "esc"];
const EXAMPLE = { code: "TP1-E-AAAAAAB", steps: ["", "play 21,play 19,play 22"] };

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

let messages = {};
let lang = "en";
let layout = [];
let state = null;
let queue = Promise.resolve();
let rover = null; // the one board control in the tab order
const cardButtons = [];
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

// ---- Storage, words ---------------------------------------------------------------------

function load(key, fallback = null) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}
function save(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: settings last for this visit only */
  }
}

function t(id, values = {}) {
  let text = messages[id];
  if (Array.isArray(text)) text = text[0];
  if (typeof text !== "string") return id;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function firstLanguage() {
  const stored = load(STORE.lang);
  if (LANGS.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function hintsOn() {
  return load(STORE.hints, "1") === "1";
}

// ---- Server ------------------------------------------------------------------------------

async function api(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const url = path.startsWith("/api/i18n") || path === "/api/layout" ? path : `${path}${sep}lang=${lang}`;
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    return { status: 0, data: { error: { message: t("web.error.network") }, state: null } };
  }
  let data = null;
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  return { status: response.status, data };
}

function requestId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

async function loadMessages(next) {
  const { status, data } = await api("GET", `/api/i18n/${next}`);
  if (status !== 200) return false;
  messages = data.messages;
  lang = next;
  save(STORE.lang, lang);
  applyTexts();
  return true;
}

function applyTexts() {
  document.documentElement.lang = lang;
  document.title = t("web.title");
  for (const el of $$("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of $$("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  $("#set-lang").value = lang;
  helpBuiltFor = null;
}

// ---- Cards -------------------------------------------------------------------------------

function isRed(card) {
  return card.suit === "hearts" || card.suit === "diamonds";
}

/** Draw a face-up card into el: corner indexes from the server's label, a pip or a framed letter. */
function paintFace(el, card) {
  const label = card.label;
  const suit = label.slice(-1);
  const rank = label.slice(0, -1);
  el.classList.remove("back");
  el.classList.toggle("red", isRed(card));
  el.classList.toggle("ace", card.rank === 1);
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  const corner = (extra) => {
    const idx = document.createElement("span");
    idx.className = `idx${extra}`;
    const r = document.createElement("span");
    r.textContent = rank;
    const s = document.createElement("span");
    s.className = "s";
    s.textContent = suit;
    idx.append(r, s);
    return idx;
  };
  face.append(corner(""));
  if (card.rank > 10) {
    const court = document.createElement("span");
    court.className = "court";
    const letter = document.createElement("b");
    letter.textContent = rank;
    const pip = document.createElement("i");
    pip.textContent = suit;
    court.append(letter, pip);
    face.append(court);
  } else {
    const pip = document.createElement("span");
    pip.className = "pip";
    pip.textContent = suit;
    face.append(pip);
  }
  face.append(corner(" br"));
  el.replaceChildren(face);
  el.dataset.card = label;
}

function paintBack(el) {
  el.replaceChildren();
  el.classList.add("back");
  el.classList.remove("red", "ace");
  delete el.dataset.card;
}

function buildTableau(container, positions, interactive) {
  const maxX = Math.max(...positions.map((p) => p.x));
  const maxY = Math.max(...positions.map((p) => p.y));
  const board = container.closest(".board");
  board.style.setProperty("--cols", String(maxX + 1));
  board.style.setProperty("--rows", String(maxY));
  const elements = [];
  // Lower rows are drawn later so that they lie over the cards they cover.
  const order = [...positions].sort((a, b) => a.y - b.y || a.x - b.x);
  for (const p of order) {
    const el = document.createElement(interactive ? "button" : "div");
    if (interactive) {
      el.type = "button";
      el.tabIndex = -1;
      el.addEventListener("click", () => enqueue(() => play(p.pos)));
      el.addEventListener("focus", () => setRover(el));
    } else {
      el.setAttribute("aria-hidden", "true");
    }
    el.className = "card back";
    el.style.setProperty("--x", String(p.x));
    el.style.setProperty("--y", String(p.y));
    el.dataset.pos = String(p.pos);
    container.append(el);
    elements[p.pos] = el;
  }
  return elements;
}

function paintTableau(elements, tableau, interactive) {
  for (const slot of tableau) {
    const el = elements[slot.pos];
    if (!el) continue;
    el.hidden = slot.slot === "removed";
    el.classList.toggle("free", slot.slot === "face_up");
    if (slot.slot === "face_up" && slot.card) {
      if (el.dataset.card !== slot.card.label) paintFace(el, slot.card);
      if (interactive) el.setAttribute("aria-label", slot.card.name);
    } else {
      if (!el.classList.contains("back")) paintBack(el);
      if (interactive) el.setAttribute("aria-label", t("card.hidden"));
    }
  }
}

// ---- Rendering the game ------------------------------------------------------------------

function rectOf(el) {
  return el && !el.hidden ? el.getBoundingClientRect() : null;
}

function glide(el, from) {
  if (!from || reducedMotion.matches || !el.animate) return;
  const to = el.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const s = from.width / to.width;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${s})`, zIndex: 90 }, { transform: "none", zIndex: 90 }],
    { duration: 260, easing: "cubic-bezier(.2,.7,.2,1)" },
  );
}

function turnOver(el) {
  if (reducedMotion.matches || !el.animate) return;
  el.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: 240, easing: "ease-out" });
}

function render(next, { animate = false } = {}) {
  const previous = state;
  state = next;
  const last = next.last;
  const stock = $("#stock");
  const discard = $("#discard");

  // Where things were, for the move animation.
  let from = null;
  if (animate && last) {
    if (last.kind === "play" && last.pos != null) from = rectOf(cardButtons[last.pos]);
    else if (last.kind === "draw") from = rectOf(stock);
  }
  const undoFrom = animate && last && last.kind === "undo" ? rectOf(discard) : null;
  const wasFaceDown = previous ? previous.tableau.map((s) => s.slot === "face_down") : [];
  const focused = document.activeElement;
  const focusedRect = focused && cardButtons.includes(focused) ? focused.getBoundingClientRect() : null;

  $("#score").textContent = String(next.score);
  $("#moves").textContent = String(next.moves);
  $("#code").textContent = next.code;
  $("#code-rules").textContent = t(`web.rules.${next.rules}_short`);

  stock.setAttribute("aria-label", next.stock_label);
  $("#stock-count").textContent = String(next.stock_size);
  stock.classList.toggle("empty", next.stock_size === 0);

  paintFace(discard, next.discard);
  discard.setAttribute("aria-label", t("web.discard_now", { card: next.discard.name }));

  paintTableau(cardButtons, next.tableau, true);
  for (const b of $$("[data-action='undo']")) b.disabled = !next.can_undo;

  $("#stuck").hidden = next.status !== "stuck";
  $("#stuck-result").textContent = next.status === "stuck" ? resultLine(next) : "";

  for (const el of $$(".hinted")) el.classList.remove("hinted");

  if (animate && last) {
    if (from) glide(discard, from);
    if (undoFrom && last.pos != null) glide(cardButtons[last.pos], undoFrom);
    next.tableau.forEach((s, i) => {
      if (s.slot === "face_up" && wasFaceDown[i]) turnOver(cardButtons[i]);
    });
  }

  // Focus never falls to the page body: a removed card hands it to the nearest card left.
  if (focusedRect && focused.hidden) {
    const target = nearest(focusedRect, boardControls().filter((el) => el.classList.contains("free"))) ||
      nearest(focusedRect, boardControls());
    if (target) focusBoard(target);
  } else if (!rover || rover.hidden) {
    setRover(boardControls().find((el) => el.classList.contains("free")) || stock);
  }

  if (next.status === "won" && (!previous || previous.status !== "won" || previous.id !== next.id)) {
    showWin(next);
  }
  if (next.status !== "playing" && !next.result) awaitVerdict(next);
}

/** The solver's verdict may come after the reply that ended the game: ask again a few times. */
async function awaitVerdict(ended, tries = 8) {
  for (let i = 0; i < tries; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    if (state !== ended) return;
    const { status, data } = await api("GET", `/api/games/${ended.id}`);
    if (state !== ended) return;
    if (status === 200 && data && data.version === ended.version && data.result) {
      state = data;
      $("#stuck-result").textContent = data.status === "stuck" ? resultLine(data) : "";
      $("#win-result").textContent = data.status === "won" ? resultLine(data) : "";
      return;
    }
  }
}

function resultLine(s) {
  const r = s.result;
  if (!r) return "";
  if (s.status === "won") {
    if (r.best_score == null) return "";
    return s.score >= r.best_score ? t("web.result.best_reached") : t("web.result.best", { best: r.best_score });
  }
  if (r.winnable && r.best_score != null) return t("web.result.could_win", { best: r.best_score });
  return r.winnable ? "" : t("web.result.unwinnable");
}

function showWin(s) {
  $("#win-score").textContent = t("web.win.score", { score: s.score });
  $("#win-result").textContent = resultLine(s);
  openDialog($("#dlg-win"), $("#dlg-win [data-action='new']"));
}

// ---- Live region and notices ------------------------------------------------------------

let liveTimer = 0;
function announce(text) {
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
function toast(text, ms = 2200) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), ms);
}

// ---- Actions -----------------------------------------------------------------------------

function enqueue(task) {
  queue = queue.then(task).catch((error) => console.error(error));
  return queue;
}

function afterAction(next) {
  render(next, { animate: true });
  // The server's sentence already says what turned over, and a win or a stuck game.
  if (next.last && next.last.announcement) announce(next.last.announcement);
}

async function act(kind, extra = {}) {
  if (!state || !state.id) return;
  const body = { ...extra, version: state.version, request_id: requestId() };
  let { status, data } = await api("POST", `/api/games/${state.id}/${kind}`, body);
  if (status === 0) {
    // A lost reply: the same request id is applied at most once, so asking again is safe.
    await new Promise((resolve) => setTimeout(resolve, 500));
    ({ status, data } = await api("POST", `/api/games/${state.id}/${kind}`, body));
  }
  if (status === 200) {
    afterAction(data);
    return;
  }
  if (data && data.state) render(data.state);
  if (status === 409) return;
  if (status === 0) {
    toast(data.error.message);
    return;
  }
  if (status === 422 && data && data.error && hintsOn()) {
    toast(data.error.message);
    announce(data.error.message);
    const el = extra.pos != null ? cardButtons[extra.pos] : kind === "draw" ? $("#stock") : null;
    if (el && !reducedMotion.matches) {
      el.classList.remove("shake");
      void el.offsetWidth;
      el.classList.add("shake");
    }
  }
}

const play = (pos) => act("play", { pos });
const draw = () => act("draw");
function undo() {
  if (state && state.can_undo) return act("undo");
}

async function hint() {
  if (!state || !state.id) return;
  const { status, data } = await api("GET", `/api/games/${state.id}/hint`);
  if (status !== 200 || !data) {
    const message = data && data.error && data.error.message;
    if (message) {
      toast(message);
      announce(message);
    }
    return;
  }
  for (const el of $$(".hinted")) el.classList.remove("hinted");
  const action = data.action;
  let el = null;
  if (action && action.kind === "play") el = cardButtons[action.pos];
  else if (action && action.kind === "draw") el = $("#stock");
  if (el) el.classList.add("hinted");
  if (data.message) {
    toast(data.message, 3200);
    announce(data.message);
  }
}

function readBoard() {
  if (state) announce(state.description);
}

async function copyCode() {
  if (!state) return;
  try {
    await navigator.clipboard.writeText(state.code);
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("#code"));
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      document.execCommand("copy");
    } catch {
      /* the code stays selected for the player to copy */
    }
  }
  toast(t("web.copied"));
  announce(t("web.copied"));
}

// ---- Games -------------------------------------------------------------------------------

/** A game the statistics would count as lost if it were left now (a game without a move does not count). */
function unfinished() {
  return state && state.status === "playing" && state.moves > 0;
}

/** Start a game; returns the server's error message for a refused code, or null. */
async function startGame(body) {
  if (unfinished()) {
    const ok = await confirmDialog({
      title: t("web.confirm.abandon.title"),
      text: t("web.confirm.abandon.text"),
      yes: t("web.confirm.abandon.yes"),
      no: t("web.confirm.keep"),
    });
    if (!ok) return "";
  }
  const { status, data } = await api("POST", "/api/games", body);
  if (status !== 201 && status !== 200) {
    return (data && data.error && data.error.message) || t("web.error.network");
  }
  save(STORE.game, data.id);
  closeDialog($("#dlg-win"));
  render(data);
  announce(t("web.announce.new", { code: data.code }));
  focusBoard(boardControls().find((el) => el.classList.contains("free")) || $("#stock"));
  return null;
}

async function resume() {
  const id = load(STORE.game);
  if (id) {
    const { status, data } = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    if (status === 200 && data) {
      render(data);
      return;
    }
  }
  const { status, data } = await api("POST", "/api/games", { rules: load(STORE.rules, "easy") });
  if (status === 201 || status === 200) {
    save(STORE.game, data.id);
    render(data);
  }
}

// ---- Dialogs -----------------------------------------------------------------------------

const openers = new Map();

function openDialog(dialog, focusTarget = null) {
  if (dialog.open) return;
  const active = document.activeElement;
  openers.set(dialog, active && active !== document.body ? active : null);
  dialog.showModal();
  if (focusTarget) focusTarget.focus();
}

function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

function restoreFocus(dialog) {
  const opener = openers.get(dialog);
  openers.delete(dialog);
  if ($("dialog[open]")) return;
  if (opener && opener.isConnected && !opener.hidden && !opener.closest("dialog")) {
    opener.focus();
  } else {
    focusBoard(rover && !rover.hidden ? rover : $("#stock"));
  }
}

function confirmDialog({ title, text, yes, no }) {
  const dialog = $("#dlg-confirm");
  $("#confirm-title").textContent = title;
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = yes;
  $("#confirm-no").textContent = no;
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.removeEventListener("close", onClose);
      $("#confirm-yes").onclick = null;
      $("#confirm-no").onclick = null;
      resolve(answer);
    };
    const onClose = () => done(dialog.returnValue === "yes");
    dialog.returnValue = "";
    dialog.addEventListener("close", onClose);
    $("#confirm-yes").onclick = () => dialog.close("yes");
    $("#confirm-no").onclick = () => dialog.close("no");
    openDialog(dialog, $("#confirm-no"));
  });
}

function openNewGame() {
  const form = $("#new-form");
  const rules = load(STORE.rules, "easy");
  for (const radio of $$("input[name='rules']", form)) radio.checked = radio.value === rules;
  $("#new-winnable").checked = load(STORE.winnable, "0") === "1";
  $("#new-code").value = "";
  $("#new-error").textContent = "";
  $("#new-code").removeAttribute("aria-invalid");
  openDialog($("#dlg-new"), $("input[name='rules']:checked", form));
}

async function submitNewGame(event) {
  event.preventDefault();
  const form = $("#new-form");
  const rules = $("input[name='rules']:checked", form).value;
  const winnable = $("#new-winnable").checked;
  const code = $("#new-code").value.trim();
  save(STORE.rules, rules);
  save(STORE.winnable, winnable ? "1" : "0");
  const body = { rules, winnable_only: winnable };
  if (code) body.code = code;
  const error = await startGame(body);
  if (error === null) {
    closeDialog($("#dlg-new"));
  } else if (error) {
    $("#new-error").textContent = error;
    $("#new-code").setAttribute("aria-invalid", "true");
    $("#new-code").focus();
  }
}

function openSettings() {
  $("#set-hints").checked = hintsOn();
  $("#set-lang").value = lang;
  const theme = load(STORE.theme, "system");
  for (const radio of $$("input[name='theme']")) radio.checked = radio.value === theme;
  openDialog($("#dlg-settings"), $("#set-hints"));
}

function applyTheme(theme) {
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

async function changeLanguage(next) {
  if (next === lang || !LANGS.includes(next)) return;
  save(STORE.lang, next); // the choice is remembered at once, even if the page goes before the words come
  if (!(await loadMessages(next))) return;
  if (state && state.id) {
    const { status, data } = await api("GET", `/api/games/${state.id}`);
    if (status === 200) render(data);
  }
}

// ---- Statistics --------------------------------------------------------------------------

function formatNumber(value, options = {}) {
  if (value === null || value === undefined) return t("web.stats.none");
  return new Intl.NumberFormat(lang, options).format(value);
}

async function openStats() {
  await fillStats();
  openDialog($("#dlg-stats"), $("#dlg-stats [data-close]"));
}

async function fillStats() {
  const body = $("#stats-body");
  const { status, data } = await api("GET", "/api/stats");
  if (status !== 200 || !data) {
    body.textContent = t("web.error.network");
    return;
  }
  const table = document.createElement("table");
  table.className = "stats-grid";
  const head = table.createTHead().insertRow();
  const corner = document.createElement("td");
  head.append(corner);
  for (const rules of ["easy", "classic"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(`web.rules.${rules}_short`);
    head.append(th);
  }
  const rows = [
    ["played", {}],
    ["won", {}],
    ["win_rate", { style: "percent", maximumFractionDigits: 0 }],
    ["current_streak", {}],
    ["best_streak", {}],
    ["best_score", {}],
    ["average_winning_score", { maximumFractionDigits: 0 }],
  ];
  const tbody = table.createTBody();
  for (const [key, options] of rows) {
    const tr = tbody.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(`web.stats.${key}`);
    tr.append(th);
    for (const rules of ["easy", "classic"]) tr.insertCell().textContent = formatNumber(data[rules][key], options);
  }
  const recentTitle = document.createElement("h3");
  recentTitle.textContent = t("web.stats.recent");
  const recent = document.createElement("ul");
  recent.className = "recent";
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  for (const game of data.recent || []) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn";
    const code = document.createElement("code");
    code.textContent = game.code;
    const outcome = document.createElement("span");
    outcome.textContent = `${t(`web.stats.outcome.${game.outcome}`)} · ${formatNumber(game.score)}`;
    const date = document.createElement("span");
    date.className = "muted";
    const finished = game.finished_at ? new Date(game.finished_at) : null;
    date.textContent = finished && !Number.isNaN(finished.getTime()) ? when.format(finished) : "";
    button.append(code, outcome, date);
    button.addEventListener("click", async () => {
      closeDialog($("#dlg-stats"));
      const error = await startGame({ code: game.code });
      if (error) toast(error);
    });
    li.append(button);
    recent.append(li);
  }
  const parts = [table, recentTitle];
  if (recent.children.length) {
    const note = document.createElement("p");
    note.className = "help-text";
    note.textContent = t("web.stats.replay");
    parts.push(note, recent);
  } else {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = t("web.stats.recent_empty");
    parts.push(none);
  }
  body.replaceChildren(...parts);
}

async function resetStats() {
  const ok = await confirmDialog({
    title: t("web.confirm.reset.title"),
    text: t("web.confirm.reset.text"),
    yes: t("web.confirm.reset.yes"),
    no: t("web.cancel"),
  });
  if (!ok) return;
  await api("DELETE", "/api/stats");
  await fillStats();
  announce(t("web.stats.reset_done"));
  $("#stats-reset").focus();
}

// ---- Help --------------------------------------------------------------------------------

let helpBuiltFor = null;

function paragraphs(text) {
  const out = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((line) => line.trim());
    if (!lines.length) continue;
    if (lines.every((line) => line.startsWith("- "))) {
      const ul = document.createElement("ul");
      for (const line of lines) {
        const li = document.createElement("li");
        linkify(li, line.slice(2));
        ul.append(li);
      }
      out.push(ul);
    } else {
      const p = document.createElement("p");
      linkify(p, lines.join(" "));
      out.push(p);
    }
  }
  return out;
}

function linkify(el, text) {
  const parts = text.split(/(https?:\/\/\S+[^\s.,;])/);
  for (const part of parts) {
    if (/^https?:\/\//.test(part)) {
      const a = document.createElement("a");
      a.href = part;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      a.textContent = part;
      el.append(a);
    } else if (part) {
      el.append(part);
    }
  }
}

function scoringTable() {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const id of ["help.scoring.event", "help.scoring.points"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(id);
    head.append(th);
  }
  const body = table.createTBody();
  for (const [event, points] of [["remove", "−1"], ["draw", "−1"], ["peak", "+100"]]) {
    const tr = body.insertRow();
    tr.insertCell().textContent = t(`help.scoring.${event}`);
    const cell = tr.insertCell();
    cell.className = "num";
    cell.textContent = points;
  }
  return table;
}

function keysTable() {
  const table = document.createElement("table");
  const body = table.createTBody();
  for (const key of KEYS) {
    const tr = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    const kbd = document.createElement("kbd");
    kbd.textContent = t(`web.keys.${key}.key`);
    th.append(kbd);
    tr.append(th);
    tr.insertCell().textContent = t(`web.keys.${key}`);
  }
  return table;
}

async function exampleFigures() {
  const figures = [];
  for (const [i, actions] of EXAMPLE.steps.entries()) {
    const params = new URLSearchParams({ code: EXAMPLE.code, actions });
    const { status, data } = await api("GET", `/api/preview?${params}`);
    if (status !== 200 || !data) continue;
    const figure = document.createElement("figure");
    figure.className = "example";
    const board = document.createElement("div");
    board.className = "board";
    board.setAttribute("aria-hidden", "true");
    const tableau = document.createElement("div");
    tableau.className = "tableau";
    board.append(tableau);
    const piles = document.createElement("div");
    piles.className = "piles";
    const discard = document.createElement("div");
    discard.className = "card";
    discard.style.position = "relative";
    piles.append(discard);
    board.append(piles);
    figure.append(board);
    const elements = buildTableau(tableau, layout, false);
    paintTableau(elements, data.tableau, false);
    paintFace(discard, data.discard);
    const caption = document.createElement("figcaption");
    const title = document.createElement("strong");
    title.textContent = `${t(`help.example.figure${i + 1}`)} `;
    caption.append(title, data.description);
    figure.append(caption);
    figures.push(figure);
  }
  return figures;
}

async function buildHelp() {
  if (helpBuiltFor === lang) return;
  const body = $("#help-body");
  const toc = document.createElement("ul");
  toc.className = "help-toc";
  toc.setAttribute("aria-label", t("help.contents"));
  const sections = [];
  for (const name of HELP_SECTIONS) {
    const section = document.createElement("section");
    section.id = `help-${name}`;
    section.setAttribute("aria-labelledby", `help-${name}-title`);
    const h = document.createElement("h3");
    h.id = `help-${name}-title`;
    h.textContent = t(`help.${name}.title`);
    section.append(h, ...paragraphs(t(`help.${name}.body`)));
    if (name === "scoring") section.append(scoringTable(), ...paragraphs(t("help.scoring.after")));
    if (name === "keys") section.append(keysTable());
    if (name === "example") section.append(...(await exampleFigures()), ...paragraphs(t("help.example.after")));
    sections.push(section);
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#help-${name}`;
    a.textContent = h.textContent;
    a.addEventListener("click", (event) => {
      event.preventDefault();
      section.scrollIntoView({ behavior: reducedMotion.matches ? "auto" : "smooth" });
      h.tabIndex = -1;
      h.focus({ preventScroll: true });
    });
    li.append(a);
    toc.append(li);
  }
  const intro = paragraphs(t("help.intro"));
  body.replaceChildren(...intro, toc, ...sections);
  helpBuiltFor = lang;
}

async function openHelp() {
  await buildHelp();
  openDialog($("#dlg-help"), $("#dlg-help [data-close]"));
}

// ---- Keyboard and focus ------------------------------------------------------------------

function boardControls() {
  return [...cardButtons.filter((el) => el && !el.hidden), $("#stock")];
}

function setRover(el) {
  if (!el) return;
  for (const other of boardControls()) other.tabIndex = other === el ? 0 : -1;
  for (const other of cardButtons) if (other && other.hidden) other.tabIndex = -1;
  rover = el;
}

function focusBoard(el) {
  if (!el) return;
  setRover(el);
  el.focus();
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function nearest(rect, candidates) {
  const c = centre(rect);
  let best = null;
  let bestDistance = Infinity;
  for (const el of candidates) {
    const d = centre(el.getBoundingClientRect());
    const distance = Math.hypot(d.x - c.x, d.y - c.y);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = el;
    }
  }
  return best;
}

/** The board control in a direction, in the peaks' geometry as drawn from the layout's x/y. */
function neighbour(from, direction) {
  const box = from.getBoundingClientRect();
  const c = centre(box);
  const tolerance = box.height * 0.25;
  let best = null;
  let bestScore = Infinity;
  for (const el of boardControls()) {
    if (el === from) continue;
    const d = centre(el.getBoundingClientRect());
    const dx = d.x - c.x;
    const dy = d.y - c.y;
    let along;
    let across;
    if (direction === "ArrowRight") [along, across] = [dx, dy];
    else if (direction === "ArrowLeft") [along, across] = [-dx, dy];
    else if (direction === "ArrowDown") [along, across] = [dy, dx];
    else [along, across] = [-dy, dx];
    if (along <= 2) continue;
    // Sideways keys stay in a row; up and down go to the nearest row, then the nearest card in it.
    const vertical = direction === "ArrowUp" || direction === "ArrowDown";
    const otherRow = Math.abs(across) > tolerance ? 10000 : 0;
    const score = vertical ? 2 * along + Math.abs(across) : otherRow + along + 2.5 * Math.abs(across);
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  return best;
}

/** Keep Tab inside an open window: from its last control back to its first, and the other way. */
function trapTab(event, dialog) {
  const controls = $$("button, input, select, textarea, a[href], [tabindex='0']", dialog).filter(
    (el) => !el.disabled && !el.hidden && el.getClientRects().length,
  );
  if (!controls.length) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !dialog.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

function onKey(event) {
  const dialogs = $$("dialog[open]");
  if (dialogs.length) {
    if (event.key === "Tab") trapTab(event, dialogs[dialogs.length - 1]);
    return;
  }
  const target = event.target;
  if (target && (target.matches("input, select, textarea") || target.isContentEditable)) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && !event.altKey && key.toLowerCase() === "z") {
    event.preventDefault();
    enqueue(undo);
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (key.startsWith("Arrow")) {
    event.preventDefault();
    const current = boardControls().includes(target) ? target : rover && !rover.hidden ? rover : $("#stock");
    if (current !== target) {
      focusBoard(current);
      return;
    }
    const next = neighbour(current, key);
    if (next) focusBoard(next);
    return;
  }
  const actions = {
    d: () => enqueue(draw),
    u: () => enqueue(undo),
    n: openNewGame,
    h: () => enqueue(hint),
    "?": openHelp,
    b: readBoard,
  };
  const action = actions[key.length === 1 ? key.toLowerCase() : key];
  if (action) {
    event.preventDefault();
    action();
  }
}

// ---- Wiring ------------------------------------------------------------------------------

function wire() {
  $("#stock").addEventListener("click", () => enqueue(draw));
  $("#stock").addEventListener("focus", () => setRover($("#stock")));
  $("#copy").addEventListener("click", copyCode);
  const handlers = {
    undo: () => enqueue(undo),
    hint: () => enqueue(hint),
    new: () => {
      closeDialog($("#dlg-win"));
      openNewGame();
    },
    read: readBoard,
    stats: openStats,
    help: openHelp,
    settings: openSettings,
  };
  for (const button of $$("[data-action]")) {
    button.addEventListener("click", () => handlers[button.dataset.action]());
  }
  for (const dialog of $$("dialog")) {
    dialog.addEventListener("close", () => restoreFocus(dialog));
    for (const button of $$("[data-close]", dialog)) button.addEventListener("click", () => dialog.close());
  }
  $("#new-form").addEventListener("submit", submitNewGame);
  $("#set-hints").addEventListener("change", (event) => save(STORE.hints, event.target.checked ? "1" : "0"));
  $("#set-lang").addEventListener("change", (event) => changeLanguage(event.target.value));
  for (const radio of $$("input[name='theme']")) {
    radio.addEventListener("change", () => {
      save(STORE.theme, radio.value);
      applyTheme(radio.value);
    });
  }
  $("#stats-reset").addEventListener("click", resetStats);
  document.addEventListener("keydown", onKey);
}

async function boot() {
  applyTheme(load(STORE.theme, "system"));
  wire();
  const [layoutReply] = await Promise.all([api("GET", "/api/layout"), loadMessages(firstLanguage())]);
  layout = layoutReply.data.positions;
  buildTableau($("#tableau"), layout, true).forEach((el, pos) => (cardButtons[pos] = el));
  await resume();
  $("#loading").remove();
  document.body.dataset.ready = "true";
}

boot();
