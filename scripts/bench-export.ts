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
// memory). It runs with the production server's Node flags and MALLOC_ARENA_MAX (package.json), as
// the export runs inside the server: with Node's defaults V8 alone sizes its young generation up
// by about 40 MB under this allocation rate (measured: +57 MB, of which the JS heap in use +4 MB).
import fs from "node:fs";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { useTemporaryDatabase } from "./bench-db";

const LIMIT_MB = 50;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

const total = option("orders", 100_000);
const dataDir = useTemporaryDatabase("bench-export-");

const { closeDb } = await import("~/.server/db/client");
const { exportOrdersCsv } = await import("~/.server/store/back-office");
const { seedBenchOrders } = await import("./bench-data");

try {
  const setupStarted = Date.now();
  await seedBenchOrders(total);
  const setupMs = Date.now() - setupStarted;

  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  let bytes = 0;
  let lines = 0;
  const started = performance.now();
  await pipeline(
    exportOrdersCsv({}),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        peak = Math.max(peak, process.memoryUsage().rss);
        callback();
      },
    }),
  );
  const ms = Math.round(performance.now() - started);
  clearInterval(sampler);
  const orders = lines - 1; // the header
  const rssGrowthMb = Math.round(((peak - rssBefore) / 1024 / 1024) * 10) / 10;
  console.log(`setup: ${total} orders in ${(setupMs / 1000).toFixed(1)} s`);
  console.log(`export: ${orders} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB of CSV in ${(ms / 1000).toFixed(1)} s`);
  console.log(`resident memory: ${(rssBefore / 1024 / 1024).toFixed(0)} MB before, peak ${(peak / 1024 / 1024).toFixed(0)} MB (+${rssGrowthMb} MB; limit ${LIMIT_MB} MB)`);
  console.log(JSON.stringify({ orders, ms, rssGrowthMb }));
  process.exitCode = orders === total && rssGrowthMb < LIMIT_MB ? 0 : 1;
} finally {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
