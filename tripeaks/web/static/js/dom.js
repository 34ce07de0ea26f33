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

/** How much moves (Settings, Animation): "full", "reduced" (short fades, no flight) or "off" (every change
 * instant). The player's choice, else the system's: its reduced motion is "reduced". Kept on <html> as
 * data-motion, which app.css reads too. */
export function motionLevel() {
  return document.documentElement.dataset.motion || (reducedMotion.matches ? "reduced" : "full");
}

/** Apply the Animation setting: "full", "reduced", "off", or anything else for the system's preference
 * (followed as it changes). */
export function applyMotion(choice) {
  const chosen = ["full", "reduced", "off"].includes(choice) ? choice : null;
  const apply = () => {
    document.documentElement.dataset.motion = chosen || (reducedMotion.matches ? "reduced" : "full");
  };
  reducedMotion.onchange = apply;
  apply();
}

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
