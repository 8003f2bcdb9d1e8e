// npm run bench:import [-- --rows 10000] — the catalogue's CSV import of a price list (issue 26).
//
// On a fresh PGlite database in a temporary directory (the build's prepared database when there is
// one), a price list of N rows (default 10,000; every column, 20 categories, 15 cities, one row in
// fifty with a wrong price) is previewed and then applied with the same functions as
// /ops/catalogue/import ('Unggah CSV', 'Terapkan Impor'), while the resident memory is sampled every
// 20 ms. It prints a readable report and, as its LAST line, one JSON object {"rows", "previewMs",
// "applyMs", "rssGrowthMb"}: the rows of the file, the time of each step, and the peak resident
// memory during both minus the memory before. Exit code 1 when a valid row was not written, or the
// growth reaches 60 MB. It runs with the production server's Node flags and MALLOC_ARENA_MAX
// (package.json), as the import runs inside the server.
import fs from "node:fs";
import { option, sampleRss, useTemporaryPglite } from "./bench/temporary-store";

const LIMIT_MB = 60;
const rows = option("rows", 10_000);
const dataDir = useTemporaryPglite("bench-import-");

const { getDb, closeDb } = await import("~/.server/db/client");
const { createVerifiedUser } = await import("~/.server/testing/fixtures");
const { applyCatalogueCsv, CATALOGUE_COLUMNS, previewCatalogueCsv } = await import("~/.server/store/catalogue");
const { stageCsvImport, getStagedCsvImport } = await import("~/.server/store/back-office");
const { sql } = await import("drizzle-orm");

/** The price list finance would send: semicolons (Excel in Indonesia), a quoted description. */
function priceList(n: number): string {
  const lines = [CATALOGUE_COLUMNS.join(";")];
  for (let i = 1; i <= n; i++) {
    const price = i % 50 === 0 ? "-5" : String(1_000_000 + i * 1_000);
    lines.push(
      [
        `BENCH-${String(i).padStart(6, "0")}`,
        `Motor Listrik Bench ${i}`,
        `Kategori ${i % 20}`,
        price,
        i % 3 ? "0" : "5",
        i % 3 ? "v" : "%",
        String(i % 40),
        `Kota ${i % 15}`,
        "Baru",
        "85000",
        "1",
        `"Baterai 72V; jarak 100 km, ""garansi"" 3 tahun"`,
        i % 4 ? "tayang" : "draf",
      ].join(";"),
    );
  }
  return lines.join("\r\n");
}

try {
  const db = await getDb();
  const operator = await createVerifiedUser(db);
  const file = priceList(rows);
  const invalid = Math.floor(rows / 50);

  const rss = await sampleRss();

  // 'Unggah CSV': the preview from the uploaded bytes, then the file kept for 'Terapkan Impor'.
  let started = performance.now();
  const preview = await previewCatalogueCsv(Buffer.from(file));
  const stagedId = await stageCsvImport("katalog", operator.id, "bench.csv", file);
  const previewMs = Math.round(performance.now() - started);
  if (!preview.ok) throw new Error(preview.message);

  // 'Terapkan Impor': the staged text, applied in one transaction.
  started = performance.now();
  const staged = (await getStagedCsvImport(stagedId, "katalog", operator.id))!;
  const applied = await applyCatalogueCsv(operator.id, staged.content, staged.fileName);
  const applyMs = Math.round(performance.now() - started);
  const rssGrowthMb = rss.stop();
  if (!applied.ok) throw new Error(applied.message);

  const [{ n }] = (await db.execute(sql`select count(*)::int as n from products where sku like 'BENCH-%'`)).rows as [{ n: number }];
  const again = await previewCatalogueCsv(file);
  console.log(`file: ${rows} rows, ${(file.length / 1024 / 1024).toFixed(1)} MB, ${invalid} with a wrong price`);
  console.log(`preview: ${preview.plan.added} akan ditambah, ${preview.plan.invalid} invalid, in ${(previewMs / 1000).toFixed(1)} s`);
  console.log(`apply: ${applied.plan.added} written in one transaction in ${(applyMs / 1000).toFixed(1)} s; ${n} in the table`);
  if (again.ok)
    console.log(
      `the same file again: ${again.plan.added} akan ditambah, ${again.plan.changed} akan diubah, ${again.plan.unchanged} tidak berubah`,
    );
  console.log(
    `resident memory: ${(rss.before / 1024 / 1024).toFixed(0)} MB before, peak ${(rss.peak() / 1024 / 1024).toFixed(0)} MB (+${rssGrowthMb} MB; limit ${LIMIT_MB} MB)`,
  );
  console.log(JSON.stringify({ rows, previewMs, applyMs, rssGrowthMb }));
  const unchangedAgain = again.ok && again.plan.added === 0 && again.plan.changed === 0;
  process.exitCode = n === rows - invalid && unchangedAgain && rssGrowthMb < LIMIT_MB ? 0 : 1;
} finally {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
