import type { OpsIO } from "./io";

// What every ops command module shares (commands.ts and the domain's own command modules, e.g.
// refund-commands.ts): the command's shape, the exit statuses, argument parsing and the table.

export type Command = { usage: string; summary: string; run: (args: string[], io: OpsIO) => Promise<number> };

export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

const MAX_INT = 2_147_483_647;
/** A positive whole number as typed ("12"), or null. */
export function positiveInt(text: string | undefined): number | null {
  if (!text || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n > 0 && n <= MAX_INT ? n : null;
}

export const dateTime = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ");

export function table(io: OpsIO, header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  io.out(line(header));
  io.out(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) io.out(line(row));
}

export function usageError(io: OpsIO, usage: string) {
  io.err(`usage: npm run ops -- ${usage}`);
  return EXIT_USAGE;
}
