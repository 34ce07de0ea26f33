// Small DOM helpers every module shares.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** A new element: properties it has (className, scope, href…) are set, other names (aria-*) are attributes. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name in el) el[name] = value;
    else el.setAttribute(name, value);
  }
  el.append(...children);
  return el;
}

export const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

/** Run at an idle moment of the page (within `timeout` ms when given), or after `fallback` ms where the browser
 * has no requestIdleCallback: for work made ahead, so that no frame of an animation pays for it. */
export function idle(run, { timeout, fallback = 200 } = {}) {
  if (window.requestIdleCallback) requestIdleCallback(run, timeout ? { timeout } : undefined);
  else setTimeout(run, fallback);
}

/** Resolves once the next frame has been made (or after 100 ms, for a page not being drawn). */
export function afterFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}
