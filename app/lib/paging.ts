// Reading the page of an endless product list from the address (spec §4 product paging; DESIGN §5).
// Shared by the routes that render a <ProductGrid>: /home and /res-search.

/** Added by ProductGrid when a script asks for one more page: the loader returns only that page. */
export const APPEND_PARAM = "append";

/** The largest page number taken from an address; the store clamps it to the last page anyway. */
const MAX_PAGE = 100_000;

/**
 * `?page=N` → N. Missing, negative, fractional or non-numeric values are page 0; huge values are
 * clamped (the store then answers the last page). Never throws.
 */
export function readPage(url: URL): { page: number; only: boolean } {
  const raw = url.searchParams.get("page")?.trim() ?? "";
  const page = /^\d+$/.test(raw) ? Math.min(MAX_PAGE, Number(raw)) : 0;
  return { page, only: url.searchParams.get(APPEND_PARAM) === "1" };
}

/** `pathname` with `search` and `page` set (page 0 drops the parameter). */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  params.delete(APPEND_PARAM);
  if (page > 0) params.set("page", String(page));
  else params.delete("page");
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
