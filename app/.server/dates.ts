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

/** '23 Nov 2026' (the day in WIB). */
export function formatDateWib(date: Date): string {
  return wib(date).format("DD MMM YYYY");
}

/** '23 Nov 2026 14:05 WIB' (the long form). */
export function formatDateTimeWib(date: Date): string {
  return `${wib(date).format("DD MMM YYYY HH:mm")} WIB`;
}

/** '14:05' (the hour and minute in WIB). */
export function formatTimeWib(date: Date): string {
  return wib(date).format("HH:mm");
}

/** The calendar day in WIB as 'YYYY-MM-DD' (what an `<input type="date">` holds). */
export function dayWib(date: Date): string {
  return wib(date).format("YYYY-MM-DD");
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
