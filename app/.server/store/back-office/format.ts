import { formatDateTimeWib } from "../../dates";
import type { OrderSearch } from "./queues";
import { DATE_ORDER, isCalendarDay } from "~/lib/transaction-filters";

// How the back office prints times: the absolute WIB time and how long something has waited.

/** '3 hari 4 jam', '2 jam 5 menit', '12 menit', 'baru saja'. */
export function formatAge(since: Date, now: Date = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 1) return "baru saja";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} hari ${hours} jam` : `${days} hari`;
  if (hours > 0) return rest > 0 ? `${hours} jam ${rest} menit` : `${hours} jam`;
  return `${rest} menit`;
}

export const formatWhen = (date: Date) => formatDateTimeWib(date);

/** The page number in `?page=` (1 when absent or not a page). */
export function pageParam(url: URL): number {
  const raw = url.searchParams.get("page") ?? "";
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
}

/** The search's GET parameters (the URL is the state; the page passes them as name → value): what
 * was typed, the criteria, and a date message. */
export function readOrderSearch(
  params: Partial<Record<string, string>>,
  statusIds: readonly number[],
): { input: Record<SearchField, string>; search: OrderSearch; error: string | null } {
  const input = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, (params[f] ?? "").trim().slice(0, 100)])) as Record<SearchField, string>;
  const search: OrderSearch = {};
  if (input.invoice) search.invoice = input.invoice;
  if (input.email) search.email = input.email;
  if (input.nik) search.nik = input.nik.replace(/\s+/g, "");
  if (/^\d{1,4}$/.test(input.statusId) && statusIds.includes(Number(input.statusId))) search.statusId = Number(input.statusId);
  let error: string | null = null;
  for (const field of ["dateFrom", "dateTo"] as const) {
    if (!input[field]) continue;
    if (isCalendarDay(input[field])) search[field] = input[field];
    else error = "Tanggal tidak valid.";
  }
  if (search.dateFrom && search.dateTo && search.dateFrom > search.dateTo) {
    error = DATE_ORDER;
    delete search.dateFrom;
    delete search.dateTo;
  }
  return { input, search, error };
}

export const SEARCH_FIELDS = ["invoice", "email", "nik", "statusId", "dateFrom", "dateTo"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
