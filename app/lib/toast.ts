/** A message shown at the bottom of the screen (spec §9: success by default, hidden after 30 s). */
export type Toast = { type: "success" | "danger" | "warning" | "info"; message: string };

export const TOAST_HIDE_MS = 30_000;
