/**
 * The page's scripts start after the page itself has loaded (decision 0016).
 *
 * Every screen is complete HTML that works before any script runs, so on a slow phone connection
 * the 120 KB of scripts should not share the line with the page's own images, nor their evaluation
 * the main thread with its first paints. The server (app/.server/http/scripts-after-load.ts) writes React
 * Router's module preloads and its module script in an inert form, marked with HELD_ATTRIBUTE (each
 * preload inside a `<template>`, the script with a type that does not run); the small START_SCRIPTS
 * below (inline in every document, root.tsx) makes them live again:
 *
 * - once the `load` event has fired, the largest image (fetchpriority="high") is decoded, and two
 *   frames were drawn after it (an image decoded off the main thread reaches the screen a frame or
 *   two after `load`); a hidden tab draws no frames, so it starts at once;
 * - or after START_AT_THE_LATEST_MS, if the load never ends (a stalled image);
 * - one task per preload, then the module script: starting a fetch costs the main thread about a
 *   millisecond on a cheap phone, and two dozen in one task would hold up a tap for that long;
 * - first, a new history entry gets the key React Router's scroll restoration uses (given here, not
 *   while the page is parsed: ~/components/scroll-restoration).
 */
export const HELD_ATTRIBUTE = "data-after-load";
export const START_AT_THE_LATEST_MS = 5000;
/** Where React Router keeps the scroll positions (~/components/scroll-restoration). */
export const SCROLL_POSITIONS_KEY = "react-router-scroll-positions";

export const START_SCRIPTS = `(() => {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // The history entry's key, which React Router's scroll restoration files positions under.
    if (!history.state || !history.state.key) history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
    for (const held of document.querySelectorAll('template[${HELD_ATTRIBUTE}="modulepreload"]')) setTimeout(() => held.replaceWith(held.content));
    setTimeout(() => {
      const held = document.querySelector('script[${HELD_ATTRIBUTE}="module"]');
      if (!held) return;
      const script = document.createElement("script");
      script.type = "module";
      script.nonce = held.nonce;
      script.textContent = held.textContent;
      held.replaceWith(script);
    });
  };
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const afterLargestImage = () => {
    if (document.visibilityState !== "visible") return start();
    Promise.resolve(document.querySelector('img[fetchpriority="high"]')?.decode())
      .catch(() => {})
      .then(nextFrame)
      .then(nextFrame)
      .then(() => setTimeout(start));
  };
  if (document.readyState === "complete") afterLargestImage();
  else addEventListener("load", afterLargestImage, { once: true });
  setTimeout(start, ${START_AT_THE_LATEST_MS});
})();`;
