import { safeRedirect } from "./safe-redirect";

/**
 * Where a screen opened from a list goes back to without JavaScript: the list's address, carried in
 * `?from=` by the links that open it (product cards). Only a path on this site is accepted
 * (safeRedirect); anything else, or nothing, goes to `fallback`.
 */
export const FROM_PARAM = "from";

export function backTarget(search: string, fallback = "/home"): string {
  const from = new URLSearchParams(search).get(FROM_PARAM);
  return from ? safeRedirect(from, fallback) : fallback;
}

/** `href` with `from` added, unless `from` is where the screen goes back to anyway. */
export function withFrom(href: string, from: string, fallback = "/home"): string {
  if (!from || from === fallback) return href;
  return `${href}${href.includes("?") ? "&" : "?"}${FROM_PARAM}=${encodeURIComponent(from)}`;
}
