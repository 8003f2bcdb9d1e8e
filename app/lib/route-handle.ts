import type { UIMatch } from "react-router";

/**
 * What a route tells its layout: the title bar text (spec: "title taken from route meta"), where back
 * goes, whether the bottom tabs stay on screen (a page reached from a tab, e.g. /authrequired), and
 * whether it shows the toasts itself (`ownToasts`: the back office, in its page's flow).
 */
export type RouteHandle = { title?: string; back?: string; tabs?: boolean; ownToasts?: boolean };

export const STORE_NAME = "Toko Pegawai PLN";

/** The title of the deepest route that names one. */
export function titleOf(matches: UIMatch[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = (matches[i]!.handle as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

export function hasTabs(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as RouteHandle | undefined)?.tabs === true);
}

export function showsOwnToasts(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as RouteHandle | undefined)?.ownToasts === true);
}

export function backOf(matches: UIMatch[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const back = (matches[i]!.handle as RouteHandle | undefined)?.back;
    if (back) return back;
  }
  return undefined;
}
