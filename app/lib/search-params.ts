/**
 * The search's state lives in the URL (spec §3 search filters, §7 product page params):
 *   /res-search?keyword=…&categories=1,4&pmin=…&pmax=…&sort=0|1&location=…&page=N&sheet=filter
 * This module reads that state from any query string a person or a bot can type, and writes the
 * links the screens use, so both directions agree. Reading never throws: an invalid value is
 * dropped (or clamped), because a bad link should still show a sensible page. (`page` is read by
 * ~/lib/paging, shared with every product grid; it is only written here.)
 */

/** Longer keywords are cut: no product title is this long, and the history stays small. */
export const KEYWORD_MAX_LENGTH = 100;
/** Ids and prices are PostgreSQL `integer`s; anything larger would make the query fail. */
const INT_MAX = 2_147_483_647;
/** Nobody ticks more categories than this; it bounds the query. */
const MAX_CATEGORIES = 50;

export type SortOrder = 0 | 1;

/** Spec §9: sort 0 = highest price first, 1 = lowest price first. */
export const SORT_LABELS: Record<SortOrder, string> = { 0: "Harga Tertinggi", 1: "Harga Terendah" };

export type SearchFilters = {
  keyword: string;
  categories: number[];
  pmin?: number;
  pmax?: number;
  sort?: SortOrder;
  location?: number;
};

export type SearchState = SearchFilters & {
  /** `?sheet=filter`: the filter sheet rendered open by the server (works without JavaScript). */
  sheetOpen: boolean;
};

/** Trimmed, inner whitespace collapsed, control characters dropped, at most 100 characters. */
export function normaliseKeyword(raw: unknown): string {
  if (typeof raw !== "string") return "";
  // Cut before cleaning so a 10 MB value costs no more than a short one.
  const cleaned = raw
    .slice(0, KEYWORD_MAX_LENGTH * 4)
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  // Array.from counts code points, so an emoji is never cut in half.
  return Array.from(cleaned).slice(0, KEYWORD_MAX_LENGTH).join("").trim();
}

/** A non-negative whole number written in plain digits (Indonesian thousands dots allowed), else undefined. */
function wholeNumber(raw: string | null | undefined): number | undefined {
  if (raw == null) return undefined;
  const value = raw.trim();
  if (!/^(\d+|\d{1,3}(\.\d{3})+)$/.test(value) || value.length > 30) return undefined;
  const n = Number(value.replace(/\./g, ""));
  return Number.isSafeInteger(n) ? Math.min(n, INT_MAX) : INT_MAX;
}

/** A positive id that fits an `integer` column, else undefined (no clamping: a huge id is just wrong). */
function positiveId(raw: string | null | undefined): number | undefined {
  if (raw == null || !/^\d{1,10}$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  return n >= 1 && n <= INT_MAX ? n : undefined;
}

function parseSort(raw: string | null): SortOrder | undefined {
  // `price:0` is how the original API spelled it (spec §7); accept it too.
  const value = raw?.trim().replace(/^price:/, "");
  return value === "0" ? 0 : value === "1" ? 1 : undefined;
}

/**
 * Categories arrive as a comma list (`categories=1,4`, our links) or as repeated parameters
 * (`categories=1&categories=4`, what a plain HTML form with checkboxes sends). Both are accepted.
 */
function parseCategories(values: string[]): number[] {
  const ids = new Set<number>();
  for (const value of values.slice(0, MAX_CATEGORIES)) {
    for (const part of value.slice(0, 1000).split(",")) {
      const id = positiveId(part);
      if (id !== undefined) ids.add(id);
      if (ids.size >= MAX_CATEGORIES) return [...ids];
    }
  }
  return [...ids];
}

/** Reads the search state from a query string; repeated single-valued parameters use the first. */
export function parseSearchParams(params: URLSearchParams): SearchState {
  let pmin = wholeNumber(params.get("pmin"));
  let pmax = wholeNumber(params.get("pmax"));
  // Typed the wrong way round: the person meant the range between them.
  if (pmin !== undefined && pmax !== undefined && pmin > pmax) [pmin, pmax] = [pmax, pmin];
  return {
    keyword: normaliseKeyword(params.get("keyword")),
    categories: parseCategories(params.getAll("categories")),
    pmin,
    pmax,
    sort: parseSort(params.get("sort")),
    location: positiveId(params.get("location")),
    sheetOpen: params.get("sheet") === "filter",
  };
}

/** The same reading of a submitted filter form (the browser builds the canonical link from it). */
export function parseSearchForm(form: FormData): SearchState {
  const entries: [string, string][] = [];
  form.forEach((value, name) => typeof value === "string" && entries.push([name, value]));
  return parseSearchParams(new URLSearchParams(entries));
}

/** How many filters (besides the keyword) are set: shown on the filter button. */
export function activeFilterCount(filters: SearchFilters): number {
  return (
    (filters.categories.length ? 1 : 0) +
    (filters.pmin !== undefined || filters.pmax !== undefined ? 1 : 0) +
    (filters.sort !== undefined ? 1 : 0) +
    (filters.location !== undefined ? 1 : 0)
  );
}

/** The same search without its filters (the "clear filters" suggestion, 'Atur Ulang'). */
export function withoutFilters(filters: SearchFilters): SearchFilters {
  return { keyword: filters.keyword, categories: [] };
}

/**
 * The canonical query string of a search (`?keyword=…&categories=1,4…`), empty values left out.
 * `page` only when asked: a changed search starts again at page 0 (spec §4, as the transaction filters do).
 */
export function searchQuery(filters: SearchFilters, extra: { page?: number; sheetOpen?: boolean } = {}): string {
  const parts: string[] = [];
  const add = (name: string, value: string | number | undefined) => {
    if (value === undefined || value === "") return;
    parts.push(`${name}=${encodeURIComponent(String(value))}`);
  };
  add("keyword", normaliseKeyword(filters.keyword));
  // Commas are legal in a query string; leaving them unescaped keeps the link readable.
  if (filters.categories.length) parts.push(`categories=${filters.categories.join(",")}`);
  add("pmin", filters.pmin);
  add("pmax", filters.pmax);
  add("sort", filters.sort);
  add("location", filters.location);
  if (extra.page) add("page", extra.page);
  if (extra.sheetOpen) add("sheet", "filter");
  return parts.length ? `?${parts.join("&")}` : "";
}

/** Link to the results page for a search. */
export function resultsHref(filters: SearchFilters, extra?: { page?: number; sheetOpen?: boolean }): string {
  return `/res-search${searchQuery(filters, extra)}`;
}

/** Link to the search entry page, the field prefilled with the keyword (from the results page). */
export function searchEntryHref(keyword = ""): string {
  const value = normaliseKeyword(keyword);
  return value ? `/search?keyword=${encodeURIComponent(value)}` : "/search";
}
