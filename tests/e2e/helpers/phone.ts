import { devices } from "@playwright/test";

/**
 * The buyer's phone, emulated as a phone (issue 43): a mobile browser (`isMobile`: the page's
 * `<meta name="viewport">` counts, and content wider than the screen widens the layout viewport
 * instead of being cut off), touch, and a phone's pixel ratio, at the 390 px the spec designs for.
 * A plain 390 px window hid that /home was 1,249 px wide: a desktop browser clips at its window, a
 * phone's browser zooms out to the widest content and everything fixed moves off-screen.
 */
export const PHONE = {
  ...devices["Pixel 7"],
  viewport: { width: 390, height: 844 },
  screen: { width: 390, height: 844 },
} as const;

/** The back office's desk. */
export const DESK = { viewport: { width: 1280, height: 900 } } as const;
