// npm run bench:backup [-- --orders 100000] [-- --connections 4] — `db:backup` on PGlite under load (issue 37 item 5).
//
// A temporary PGlite store gets N orders (scripts/bench-data.ts, as bench:dashboard makes them), then
// the production server (the existing build, $BUILD_DIR or build) starts on it. While a few
// keep-alive clients request /home, /authrequired and /readyz without pause, `npm run ops --
// db:backup` (the CLI, which hands the backup to the server over the ops socket) writes the backup.
// The server's resident set (VmRSS of /proc/<pid>/status, every 20 ms) is compared before (the median
// of 2 s under the same load), at its peak during the backup and after it (2 s later); every request
// that failed (a 5xx or no answer) is counted. The LAST line is one JSON object with the figures.
// Exit code 1 when the backup added more than 30 MB or a request failed.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { option, root, useTemporaryPglite } from "./bench/temporary-store";
// @ts-expect-error: plain JavaScript module without types
import { freePort, spawnServer, stopServer, waitForHealth } from "./lib.mjs";

const LIMIT_MB = 30;
const total = option("orders", 100_000);
const connections = option("connections", 4);
const dataDir = useTemporaryPglite("bench-backup-");
const backupFile = path.join(os.tmpdir(), `bench-backup-${process.pid}.tar.gz`);
const round = (n: number) => Math.round(n * 10) / 10;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const setupStarted = Date.now();
{
  const { closeDb, getDb } = await import("~/.server/db/client");
  const { seedBenchOrders } = await import("./bench-data");
  await seedBenchOrders(total);
  // Opened again: the start-up task seals the NIKs the SQL wrote in clear (store/privacy), here rather
  // than in the server's first start.
  await closeDb();
  await getDb();
  await closeDb();
}
console.log(
  `setup: ${total} orders in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s, data ${directoryMb(path.join(dataDir, "pglite"))} MB`,
);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, PAYMENT_GATEWAY: "sandbox", LOG_LEVEL: "warn", DATABASE_URL: "" });
let serverLog = "";
server.stdout.on("data", (chunk: Buffer) => (serverLog += chunk));
server.stderr.on("data", (chunk: Buffer) => (serverLog += chunk));
try {
  await waitForHealth(base, server);
  const rssMb = () => {
    const status = fs.readFileSync(`/proc/${server.pid}/status`, "utf8");
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
  };
  const samples: { at: number; mb: number }[] = [];
  const sampler = setInterval(() => samples.push({ at: performance.now(), mb: rssMb() }), 20);

  // The clients: one request after another each, until told to stop.
  const paths = ["/home", "/authrequired", "/readyz"];
  let running = true;
  const requests = { ok: 0, failed: 0, slowestMs: 0 };
  const failures: string[] = [];
  const client = async (n: number) => {
    for (let i = n; running; i++) {
      const url = `${base}${paths[i % paths.length]}`;
      const started = performance.now();
      try {
        const response = await fetch(url, { redirect: "manual" });
        await response.arrayBuffer();
        if (response.status >= 500) {
          requests.failed++;
          failures.push(`${url} ${response.status}`);
        } else requests.ok++;
      } catch (error) {
        requests.failed++;
        failures.push(`${url} ${error instanceof Error ? error.message : String(error)}`);
      }
      requests.slowestMs = Math.max(requests.slowestMs, performance.now() - started);
    }
  };
  const clients = Array.from({ length: connections }, (_, n) => client(n));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await pause(3000); // warm-up
  const beforeFrom = performance.now();
  await pause(2000);
  const beforeMb = median(samples.filter((s) => s.at >= beforeFrom).map((s) => s.mb));
  const backupStarted = performance.now();
  const tsx = path.join(root, "node_modules/.bin/tsx");
  const backup = await promisify(execFile)(tsx, ["scripts/ops.ts", "db:backup", backupFile], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
  }).then(
    ({ stdout }) => ({ ok: true, out: stdout.trim() }),
    (error: { stderr?: string; message: string }) => ({ ok: false, out: (error.stderr ?? error.message).trim() }),
  );
  const backupEnded = performance.now();
  await pause(2000);
  const afterMb = rssMb();
  running = false;
  await Promise.all(clients);
  clearInterval(sampler);
  const duringMb = Math.max(...samples.filter((s) => s.at >= backupStarted && s.at <= backupEnded + 100).map((s) => s.mb));
  const result = {
    orders: total,
    backupOk: backup.ok,
    backupSeconds: round((backupEnded - backupStarted) / 1000),
    backupMb: backup.ok ? round(fs.statSync(backupFile).size / 1024 / 1024) : 0,
    rssBeforeMb: round(beforeMb),
    rssPeakDuringMb: round(duringMb),
    rssAfterMb: round(afterMb),
    addedMb: round(duringMb - beforeMb),
    requestsOk: requests.ok,
    requestsFailed: requests.failed,
    slowestRequestMs: Math.round(requests.slowestMs),
    loadAverage: loadAverage(),
  };
  console.log(backup.out);
  for (const failure of failures.slice(0, 5)) console.log(`failed: ${failure}`);
  console.log(
    `RSS before ${result.rssBeforeMb} MB, peak during the backup ${result.rssPeakDuringMb} MB (+${result.addedMb}, limit ${LIMIT_MB}), after ${result.rssAfterMb} MB; ${requests.ok} requests answered, ${requests.failed} failed, slowest ${result.slowestRequestMs} ms; load average ${result.loadAverage}`,
  );
  console.log(JSON.stringify(result));
  process.exitCode = backup.ok && result.addedMb <= LIMIT_MB && requests.failed === 0 ? 0 : 1;
} catch (error) {
  console.error(serverLog.slice(-4000));
  throw error;
} finally {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(backupFile, { force: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function directoryMb(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return round(bytes / 1024 / 1024);
}
