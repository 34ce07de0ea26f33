// Requests to the JSON API (docs/api.md): the language, JSON bodies, request ids, one queue for the
// player's actions, and writes that outlast a server that cannot save (503) or a lost connection.

import { state } from "./state.js";

const WITHOUT_LANG = /^\/api\/(i18n|layouts?|rules)\b/; // the layouts' names: t("layout.<id>")

let rulesAsked = null;
/** GET /api/rules (the scoring tables, the undo limit, the options offered), asked for once: the help
 * and the New game window share it. Resolves to state.rules, null while the server cannot say. */
export function loadRules() {
  if (state.rules) return Promise.resolve(state.rules);
  if (!rulesAsked) {
    rulesAsked = get("/api/rules").then(({ status, data }) => {
      if (status === 200 && data) state.rules = data;
      rulesAsked = null;
      return state.rules;
    });
  }
  return rulesAsked;
}

/** One request. POST and DELETE always send JSON ({} when there is nothing to say). Status 0: no reply. */
async function request(method, path, body) {
  const url = WITHOUT_LANG.test(path) ? path : `${path}${path.includes("?") ? "&" : "?"}lang=${state.lang}`;
  const init = { method, headers: {} };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    return { status: 0, data: null, retryAfter: NaN };
  }
  let data = null;
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  return { status: response.status, data, retryAfter: Number.parseFloat(response.headers.get("Retry-After")) };
}

export const get = (path) => request("GET", path);

let onSaving = () => {};
let waiting = 0; // writes the server has not taken yet
/** Told true when a write starts waiting for the server, false once no write waits any more. */
export function watchSaving(listener) {
  onSaving = listener;
}
function wait(delta) {
  const before = waiting > 0;
  waiting += delta;
  if ((waiting > 0) !== before) onSaving(waiting > 0);
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * A write that is not lost: while the server answers 503 (it cannot save now) or nothing at all, the SAME
 * request (same body, so the same request_id, which the server applies at most once) is sent again after
 * Retry-After or 1 s, then twice as long each time up to 30 s, for as long as the page is open. Anything
 * queued after it waits (see enqueue).
 */
export async function write(method, path, body = {}) {
  let delay = 0;
  for (;;) {
    const reply = await request(method, path, body);
    // A 503 from the solver (no deal of the difficulty found, its queue full) is an answer, not a
    // write waiting to be saved: it is said, not sent again (docs/api.md, "Explaining").
    const solver = reply.status === 503 && reply.data && reply.data.error && reply.data.error.reason !== "unavailable";
    if ((reply.status !== 503 && reply.status !== 0) || solver) {
      if (delay) wait(-1);
      return reply;
    }
    if (!delay) wait(+1);
    const asked = reply.retryAfter >= 0 ? reply.retryAfter : 0;
    delay = Math.min(30, Math.max(asked, delay ? delay * 2 : 1));
    await sleep(delay);
  }
}

export function requestId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

let queue = Promise.resolve();
/** The player's actions run one after another, each with the version the previous reply brought. */
export function enqueue(task) {
  queue = queue.then(task).catch((error) => console.error(error));
  return queue;
}
