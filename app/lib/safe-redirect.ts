import { hasControlCharacter } from "./control-characters";

const FALLBACK = "/home";

/**
 * Returns `target` only when it is a path on this site ("/transaction?x=1"), else the fallback.
 * Refuses protocol-relative ("//evil", "/\\evil", also once dot segments are resolved: "/.//evil"),
 * absolute and scripted URLs, and control characters that browsers strip before parsing.
 */
export function safeRedirect(target: unknown, fallback: string = FALLBACK): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2000) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // Control characters and the backslash: browsers strip the first and read the second as '/'.
  if (hasControlCharacter(target) || target.includes("\\")) return fallback;
  try {
    const base = "http://same.invalid";
    const url = new URL(target, base);
    if (url.origin !== base) return fallback;
    // Checked again after normalising, as the browser will: "/.//evil", "/..//evil" and
    // "/%2e%2e//evil" resolve to "//evil", which is another site.
    const path = url.pathname + url.search + url.hash;
    if (path.startsWith("//") || path.startsWith("/\\")) return fallback;
    return path;
  } catch {
    return fallback;
  }
}
