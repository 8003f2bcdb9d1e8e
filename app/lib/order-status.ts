/** Spec §4: colour of the status bar on the order detail, by status id. */
export type StatusTone = "danger" | "warning" | "primary" | "success" | "info";

export function statusTone(statusId: number): StatusTone {
  if (statusId === 1 || statusId === 2) return "danger";
  if ([100, 200, 300, 301, 302].includes(statusId)) return "warning";
  if (statusId === 400) return "primary";
  if (statusId === 500) return "success";
  return "info";
}
