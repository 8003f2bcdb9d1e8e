// The filters of the transaction list (spec §2 Transaction list, §5 transaction date filter).
// The address is the filter state: `statusId`, `dateFrom`, `dateTo` (YYYY-MM-DD, days in WIB).
// Runs on both sides: the loader reads the filters, the screen builds its links from them.

export const DATE_FROM_REQUIRED = "Tanggal awal tidak boleh kosong.";
export const DATE_TO_REQUIRED = "Tanggal akhir tidak boleh kosong.";
// Spec §5 wording, kept verbatim although it is said of a start that lies after the end.
export const DATE_ORDER = "Tanggal akhir tidak boleh lebih dari tanggal awal.";
/** Decision 0036: a day outside the wheel's range (1980 → today) is refused with this. */
export const DATE_OUT_OF_RANGE = "Tanggal harus di antara 01 Jan 1980 dan hari ini.";

/** The first day the date wheel offers (spec §9: 1980 to the current year). */
export const FIRST_DAY = "1980-01-01";

export type TransactionFilters = { statusId?: number; dateFrom?: string; dateTo?: string };
export type ReadFilters = { filters: TransactionFilters; dateError: string | null; dateFromInput: string; dateToInput: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (so 2026-02-30 is not one). */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * The filters in `search`. The status is kept only when it is one of `statusIds`. The dates are
 * judged only when the date form was sent (either field present): an empty or unreadable start →
 * DATE_FROM_REQUIRED, a start without an end → DATE_TO_REQUIRED, a start after the end →
 * DATE_ORDER, a day before 1980 or after `today` → DATE_OUT_OF_RANGE. With an error the list is
 * not filtered by date (spec: shown on the page, never a failure).
 */
export function readTransactionFilters(search: URLSearchParams, statusIds: readonly number[], today: string): ReadFilters {
  const filters: TransactionFilters = {};
  const rawStatus = search.get("statusId")?.trim() ?? "";
  if (/^\d{1,4}$/.test(rawStatus) && statusIds.includes(Number(rawStatus))) filters.statusId = Number(rawStatus);

  const dateFromInput = (search.get("dateFrom") ?? "").trim().slice(0, 20);
  const dateToInput = (search.get("dateTo") ?? "").trim().slice(0, 20);
  if (!search.has("dateFrom") && !search.has("dateTo")) return { filters, dateError: null, dateFromInput, dateToInput };

  const from = isCalendarDay(dateFromInput) ? dateFromInput : "";
  const to = isCalendarDay(dateToInput) ? dateToInput : "";
  let dateError: string | null = null;
  if (!from) dateError = DATE_FROM_REQUIRED;
  else if (!to) dateError = DATE_TO_REQUIRED;
  else if (from < FIRST_DAY || to < FIRST_DAY || from > today || to > today) dateError = DATE_OUT_OF_RANGE;
  else if (from > to) dateError = DATE_ORDER;
  if (!dateError) {
    filters.dateFrom = from;
    filters.dateTo = to;
  }
  return { filters, dateError, dateFromInput, dateToInput };
}

/** /transaction with these filters (page 0: a change of filter starts the list again). */
export function transactionHref(filters: TransactionFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.statusId !== undefined) params.set("statusId", String(filters.statusId));
  if (filters.dateFrom && filters.dateTo) {
    params.set("dateFrom", filters.dateFrom);
    params.set("dateTo", filters.dateTo);
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return query ? `/transaction?${query}` : "/transaction";
}

/** 'DD MMM YYYY' of a YYYY-MM-DD day, without a time zone (the day is already a WIB day). */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "Mei", "Jun", "Jul", "Agt", "Sep", "Okt", "Nov", "Des"];
export function formatDay(day: string): string {
  const match = DAY.exec(day);
  if (!match) return day;
  return `${match[3]} ${MONTHS[Number(match[2]) - 1] ?? ""} ${match[1]}`;
}
