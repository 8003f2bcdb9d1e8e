import dayjs from "dayjs";
import "dayjs/locale/id";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";

// Dates as the store prints them (spec §9: Indonesian locale, 'DD MMM YYYY', WIB). Server only
// (DESIGN §2: dayjs on the server, Intl in the browser): loaders hand the screens finished strings.

dayjs.extend(utc);
dayjs.extend(timezone);

export const STORE_TIME_ZONE = "Asia/Jakarta";

const wib = (date: Date) => dayjs(date).tz(STORE_TIME_ZONE).locale("id");

// WIB has been UTC+7 all year since 1964 (no daylight saving): an instant from 1970 on is formatted by
// shifting it 7 hours, without the time-zone plugin, which asks Intl for every date (200 rows of
// /ops/refunds cost 20-120 ms of the page's 300 ms, issue 37). Earlier instants go through dayjs.
const WIB_OFFSET_MS = 7 * 3600_000;
const MONTHS_SHORT_ID = ["Jan", "Feb", "Mar", "Apr", "Mei", "Jun", "Jul", "Agt", "Sep", "Okt", "Nov", "Des"];
const two = (n: number) => String(n).padStart(2, "0");
function wibFields(date: Date) {
  const shifted = new Date(date.getTime() + WIB_OFFSET_MS);
  return {
    year: String(shifted.getUTCFullYear()),
    month: shifted.getUTCMonth(),
    day: two(shifted.getUTCDate()),
    time: `${two(shifted.getUTCHours())}:${two(shifted.getUTCMinutes())}`,
  };
}
const fixedOffset = (date: Date) => date.getTime() >= 0;

/** '23 Nov 2026' (the day in WIB). */
export function formatDateWib(date: Date): string {
  if (!fixedOffset(date)) return wib(date).format("DD MMM YYYY");
  const f = wibFields(date);
  return `${f.day} ${MONTHS_SHORT_ID[f.month]} ${f.year}`;
}

/** '23 Nov 2026 14:05 WIB' (the long form). */
export function formatDateTimeWib(date: Date): string {
  if (!fixedOffset(date)) return `${wib(date).format("DD MMM YYYY HH:mm")} WIB`;
  const f = wibFields(date);
  return `${f.day} ${MONTHS_SHORT_ID[f.month]} ${f.year} ${f.time} WIB`;
}

/** '14:05' (the hour and minute in WIB). */
export function formatTimeWib(date: Date): string {
  return fixedOffset(date) ? wibFields(date).time : wib(date).format("HH:mm");
}

/** The calendar day in WIB as 'YYYY-MM-DD' (what an `<input type="date">` holds). */
export function dayWib(date: Date): string {
  if (!fixedOffset(date)) return wib(date).format("YYYY-MM-DD");
  const f = wibFields(date);
  return `${f.year}-${two(f.month + 1)}-${f.day}`;
}

/** The instant a WIB calendar day ('YYYY-MM-DD') starts. */
export function startOfDayWib(day: string): Date {
  return dayjs.tz(`${day} 00:00:00`, STORE_TIME_ZONE).toDate();
}

/** 'Hari ini', 'Kemarin', else 'DD MMM YYYY': how the balance history heads a day (spec §9). */
export function dayHeadingWib(date: Date, now: Date = new Date()): string {
  const day = dayWib(date);
  if (day === dayWib(now)) return "Hari ini";
  if (day === dayjs(now).tz(STORE_TIME_ZONE).subtract(1, "day").format("YYYY-MM-DD")) return "Kemarin";
  return formatDateWib(date);
}
