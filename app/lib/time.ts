/** Remaining time as h:mm:ss from one hour up, else m:ss (spec §4, resend wait). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A clock time in Jakarta time with the WIB label, e.g. "14.05 WIB" (Intl, so it runs on both sides). */
export function formatClockWib(date: Date): string {
  const time = new Intl.DateTimeFormat("id-ID", { hour: "2-digit", minute: "2-digit", timeZone: "Asia/Jakarta" }).format(date);
  return `${time} WIB`;
}
