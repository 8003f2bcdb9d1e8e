// npm run bench:export [-- --orders 100000] — the back office's CSV export of many orders.
//
// On a fresh PGlite database in a temporary directory (the build's prepared database when there is
// one, else a new one), one order is made the way a buyer makes it, then copied in SQL to N orders
// (default 100,000) with their product lines. The export (the same exportOrdersCsv that
// /ops/export streams) is then read to the end into a sink that only counts, while the process's
// resident memory is sampled every 20 ms. It prints a readable report and, as its LAST line, one
// JSON object: {"orders", "ms", "rssGrowthMb"} — the rows written, the time of the export, and the
// peak resident memory during the export minus the resident memory before it. Exit code 1 when a
// row is missing or the growth reaches 50 MB (issue 17's limit: a year of orders never builds in
// memory). It runs with the production server's Node flags and malloc settings (package.json), as
// the export runs inside the server: with Node's defaults V8 alone sizes its young generation up
// by about 40 MB under this allocation rate (measured: +57 MB, of which the JS heap in use +4 MB).
import fs from "node:fs";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { option, sampleRss, useTemporaryPglite } from "./bench/temporary-store";

const LIMIT_MB = 50;
const total = option("orders", 100_000);
const dataDir = useTemporaryPglite("bench-export-");

const { closeDb } = await import("~/.server/db/client");
const { exportOrdersCsv } = await import("~/.server/store/back-office");
const { seedBenchOrders } = await import("./bench-data");

try {
  const setupStarted = Date.now();
  await seedBenchOrders(total);
  const setupMs = Date.now() - setupStarted;

  const rss = await sampleRss();
  let bytes = 0;
  let lines = 0;
  const started = performance.now();
  await pipeline(
    exportOrdersCsv({}),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        rss.peak();
        callback();
      },
    }),
  );
  const ms = Math.round(performance.now() - started);
  const rssGrowthMb = rss.stop();
  const orders = lines - 1; // the header
  console.log(`setup: ${total} orders in ${(setupMs / 1000).toFixed(1)} s`);
  console.log(`export: ${orders} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB of CSV in ${(ms / 1000).toFixed(1)} s`);
  console.log(
    `resident memory: ${(rss.before / 1024 / 1024).toFixed(0)} MB before, peak ${(rss.peak() / 1024 / 1024).toFixed(0)} MB (+${rssGrowthMb} MB; limit ${LIMIT_MB} MB)`,
  );
  console.log(JSON.stringify({ orders, ms, rssGrowthMb }));
  process.exitCode = orders === total && rssGrowthMb < LIMIT_MB ? 0 : 1;
} finally {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
