// npm run bench:roster [-- --rows 100000] — a company's roster of N employees through the CSV import.
//
// On a fresh PGlite database in a temporary directory (the build's prepared database when there is
// one), a CSV of N employees (~65 bytes a row, as an HR export) is previewed, applied, applied
// again (idempotent: nothing changes), and a second file (10 % gone, 10 % renamed) previewed and
// applied with 'Nonaktifkan yang tidak ada di file' — the same store functions /ops/employees calls.
// For each step it prints the time and the peak resident memory above the memory before it,
// sampled every 20 ms; as its LAST line one JSON object with those figures. Run with the
// production server's Node flags (package.json). Exit code 1 when a count is wrong.
import fs from "node:fs";
import os from "node:os";
import { option, useTemporaryPglite } from "./bench/temporary-store";

const rows = option("rows", 100_000);

const dataDir = useTemporaryPglite("bench-roster-");

const { getDb, closeDb } = await import("~/.server/db/client");
const { createVerifiedUser } = await import("~/.server/testing/fixtures");
const { previewRosterImport, applyRosterImport } = await import("~/.server/store/people");

const COMPANY = "PT PLN (Persero)";
const file = (count: number, renamedEvery = 0) => {
  const lines = ["nip,nama,perusahaan,status"];
  for (let i = 0; i < count; i++)
    lines.push(
      `${String(8_000_000_000 + i)},${renamedEvery && i % renamedEvery === 0 ? "Pegawai Baru" : "Pegawai"} Nomor ${i} Bin Fulan,${COMPANY},aktif`,
    );
  return lines.join("\n") + "\n";
};

async function measure<T>(step: string, work: () => Promise<T>): Promise<{ value: T; ms: number; mb: number }> {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const value = await work();
  const ms = Math.round(performance.now() - started);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = Math.round(((peak - before) / 1024 / 1024) * 10) / 10;
  console.log(`${step}: ${(ms / 1000).toFixed(2)} s, +${mb} MB resident (${(before / 1024 / 1024).toFixed(0)} MB before)`);
  return { value, ms, mb };
}

try {
  const db = await getDb();
  const operator = await createVerifiedUser(db);
  const full = file(rows);
  console.log(
    `file: ${rows} rows, ${(Buffer.byteLength(full) / 1024 / 1024).toFixed(1)} MB; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const options = { deactivateMissing: false };
  const preview = await measure("preview", () => previewRosterImport(full, options));
  const apply = await measure("apply", () => applyRosterImport(full, options, operator.id));
  const again = await measure("apply again", () => applyRosterImport(full, options, operator.id));
  const next = file(Math.round(rows * 0.9), 10);
  const previewNext = await measure("preview, 10 % gone, 10 % renamed, deactivating", () =>
    previewRosterImport(next, { deactivateMissing: true }),
  );
  const applyNext = await measure("apply it", () => applyRosterImport(next, { deactivateMissing: true }, operator.id));
  const counts = (r: { value: unknown }) => {
    const v = r.value as {
      ok: boolean;
      toAdd?: number;
      toUpdate?: number;
      toDeactivate?: number;
      counts?: { toAdd: number; toUpdate: number; toDeactivate: number };
    };
    const c = v.counts ?? v;
    return `${c.toAdd}/${c.toUpdate}/${c.toDeactivate}`;
  };
  const expected = [
    `${rows}/0/0`,
    `${rows}/0/0`,
    "0/0/0",
    `0/${Math.ceil((rows * 0.9) / 10)}/${rows - Math.round(rows * 0.9)}`,
    `0/${Math.ceil((rows * 0.9) / 10)}/${rows - Math.round(rows * 0.9)}`,
  ];
  const got = [preview, apply, again, previewNext, applyNext].map(counts);
  console.log(`counts (add/update/deactivate): ${got.join(", ")}`);
  console.log(
    JSON.stringify({
      rows,
      previewMs: preview.ms,
      previewMb: preview.mb,
      applyMs: apply.ms,
      applyMb: apply.mb,
      reapplyMs: again.ms,
      deactivatingApplyMs: applyNext.ms,
    }),
  );
  process.exitCode = JSON.stringify(got) === JSON.stringify(expected) ? 0 : 1;
  if (process.exitCode) console.log(`expected ${expected.join(", ")}`);
} finally {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
