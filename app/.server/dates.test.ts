import dayjs from "dayjs";
import "dayjs/locale/id";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { expect, it } from "vitest";
import { dayWib, formatDateTimeWib, formatDateWib, formatTimeWib } from "./dates";

dayjs.extend(utc);
dayjs.extend(timezone);

// The WIB formats without the time-zone plugin (issue 37) say what dayjs in Asia/Jakarta says.
it("formats instants in WIB exactly as dayjs in Asia/Jakarta does, around midnight and over the years", () => {
  const instants = [
    new Date("2026-11-23T16:59:59Z"), // 23:59:59 WIB
    new Date("2026-11-23T17:00:00Z"), // 00:00 WIB the next day
    new Date("2026-12-31T17:00:00Z"), // new year in WIB
    new Date("2024-02-28T18:30:00Z"), // leap day in WIB
    new Date(0),
    new Date("1960-06-01T00:00:00Z"), // before 1970: through dayjs
  ];
  for (let i = 0; i < 500; i++) instants.push(new Date(Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 12 * 365 * 86_400_000)));
  for (const instant of instants) {
    const jakarta = dayjs(instant).tz("Asia/Jakarta").locale("id");
    expect(formatDateTimeWib(instant), instant.toISOString()).toBe(`${jakarta.format("DD MMM YYYY HH:mm")} WIB`);
    expect(formatDateWib(instant)).toBe(jakarta.format("DD MMM YYYY"));
    expect(formatTimeWib(instant)).toBe(jakarta.format("HH:mm"));
    expect(dayWib(instant)).toBe(jakarta.format("YYYY-MM-DD"));
  }
  expect(formatDateTimeWib(new Date("2026-08-17T03:05:00Z"))).toBe("17 Agt 2026 10:05 WIB");
});
