#!/usr/bin/env node
// `npm run bench:load`: throughput, latency and memory of the production server under load.
//
// Builds nothing: it runs the existing build (`npm run build`, or $BUILD_DIR). It starts server.js on
// a fresh temporary DATA_DIR with DEMO_DATA=1 (so the first start is part of what it measures), warms
// up, then drives each route with keep-alive connections for a fixed time (the routes taking turns,
// five rounds each) and prints requests/s and p99. The memory is the server's resident set (VmRSS of
// /proc/<pid>/status): after the first start, idle after the warm-up, and after the load.
//
// Environment:
//   BENCH_SECONDS      seconds per route (10)
//   BENCH_CONNECTIONS  concurrent keep-alive connections (10)
//   BENCH_HEAVY_CONNECTIONS  connections of the extra /home run that checks p99 under more load (50; 0 skips it)
//   BENCH_SOAK_SECONDS a soak after the routes: all of them in turn for this long, RSS sampled (0)
//   BENCH_PRODUCTS     a catalogue of this many published products (the demo's plus generated ones,
//                      seeded before the server starts: the first start is then not a fresh one); 0: the demo's
//   BENCH_ROTATE_ORDERS  key rotation under load (issue 35): this many incentive orders, each with its NIK
//                      and a ~100 KB KTP photo, sealed under the old key before the server starts; the
//                      server starts with a new key first (DATA_ENCRYPTION_KEY="new,old"); after the
//                      warm-up `npm run ops -- data:rotate-key` runs while every route is driven in turn,
//                      until it ends; then the server stops and every NIK and photo is opened with the new
//                      key alone. The figures in "rotation"; its failed requests count in "errors". 0: off
//   BENCH_PORT         server port (a free one)
//   BUILD_DIR          the build to run (build)
// The last line of the output is one JSON object with every figure.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, root, SERVER_ENV, spawnServer, stopServer, waitForHealth } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

// Measured on the Node the store runs on (24), also where the system Node is older.
await useProjectNode();

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const heavyConnections = Number(process.env.BENCH_HEAVY_CONNECTIONS ?? 50);
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 0);
const catalogueSize = Number(process.env.BENCH_PRODUCTS ?? 0);
const rotateOrders = Number(process.env.BENCH_ROTATE_ORDERS ?? 0);
const ROUNDS = 5;
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");

const ROUTES = {
  home: "/home",
  // A no-JS reader deep in the grid: a few pages at most, whatever the page number (issue 26).
  homeDeep: "/home?page=1000",
  detail: "/detail/1",
  search: "/res-search?keyword=motor",
  // A page whose loaders read nothing from the database: the yardstick for the others.
  light: "/authrequired",
};

if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
  console.error(`No build in ${buildDir}: run \`npm run build\` first (bench:load builds nothing).`);
  process.exit(1);
}

const port = Number(process.env.BENCH_PORT) || (await freePort());
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-bench-"));
const base = `http://127.0.0.1:${port}`;

/** Runs a script of scripts/bench on the data directory, the server not running (PGlite: one process). */
function runOnDataDir(script, args, key = SERVER_ENV.DATA_ENCRYPTION_KEY, options = {}) {
  const template = path.join(buildDir, "server", "assets", "db-template");
  return execFileSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench", script), ...args], {
    cwd: root,
    stdio: "inherit",
    ...options,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      PAYMENT_GATEWAY: "sandbox",
      DEMO_DATA: "1",
      DATA_ENCRYPTION_KEY: key,
      DATABASE_URL: "",
      ...(fs.existsSync(template) ? { DB_TEMPLATE_DIR: template } : {}),
    },
  });
}

if (catalogueSize > 0) runOnDataDir("seed-catalogue.ts", [String(catalogueSize)]);
// The key rotation run: the data sealed under the old key (the tests' key), a new key for the server.
const oldKey = SERVER_ENV.DATA_ENCRYPTION_KEY;
const newKey = randomBytes(32).toString("base64");
if (rotateOrders > 0) runOnDataDir("personal-data.ts", ["seed", String(rotateOrders)], oldKey);

const startedAt = performance.now();
const serverEnv = { PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: "1", PAYMENT_GATEWAY: "sandbox", BUILD_DIR: buildDir };
if (rotateOrders > 0) serverEnv.DATA_ENCRYPTION_KEY = `${newKey},${oldKey}`;
const server = spawnServer(serverEnv);
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));

const stop = async () => {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on("SIGINT", () => stop().then(() => process.exit(130)));

try {
  await waitForHealth(base, server);
  const firstStartSeconds = (performance.now() - startedAt) / 1000;
  const rssFirstStartMb = rssMb();
  const peakFirstStartMb = memoryField("VmHWM");
  log(
    `server ready in ${firstStartSeconds.toFixed(1)} s (first start, fresh DATA_DIR ${dataDir}); RSS ${rssFirstStartMb} MB, peak ${peakFirstStartMb} MB`,
  );

  // Warm-up: JIT, PostgreSQL plans, caches. Then let the process settle before the idle figure.
  for (const url of Object.values(ROUTES)) await load(url, connections, 1);
  await sleep(2000);
  const rssIdleMb = rssMb();
  log(`RSS idle after warm-up: ${rssIdleMb} MB`);

  const rotation = rotateOrders > 0 ? await rotateUnderLoad() : null;

  // The routes take turns (ROUNDS rounds of seconds/ROUNDS each), so a slow moment of the machine
  // (another process, a long garbage collection) falls on all of them alike, not on one route's
  // whole window: the ratios compare like with like.
  const samples = Object.fromEntries(Object.keys(ROUTES).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(ROUTES)) samples[name].push(await load(url, connections, seconds / ROUNDS));
  }
  const results = {};
  for (const [name, url] of Object.entries(ROUTES)) {
    results[name] = summarize(samples[name]);
    log(`${name.padEnd(8)} ${url.padEnd(28)} ${format(results[name])}`);
  }
  let heavy = null;
  if (heavyConnections > 0) {
    heavy = summarize([await load(ROUTES.home, heavyConnections, seconds)]);
    log(`home at ${heavyConnections} connections: ${format(heavy)}`);
  }
  const rssAfterMb = rssMb();

  let soak = null;
  if (soakSeconds > 0) soak = await runSoak(soakSeconds);

  const ratio = (name) => round(results[name].rps / results.light.rps, 2);
  log(`ratios to ${ROUTES.light}: home ${ratio("home")}, detail ${ratio("detail")}, search ${ratio("search")}`);
  log(`RSS idle ${rssIdleMb} MB, after ${rssAfterMb} MB, growth ${round(rssAfterMb - rssIdleMb, 1)} MB, peak ${memoryField("VmHWM")} MB`);
  const errors = Object.values(results).reduce((sum, r) => sum + r.errors, 0) + (heavy?.errors ?? 0) + (rotation?.errors ?? 0);
  if (errors) log(`ERRORS: ${errors} requests failed or answered other than 200`);

  const summary = {
    products: catalogueSize || "demo",
    home: pick(results.home),
    homeDeep: pick(results.homeDeep),
    light: pick(results.light),
    detail: pick(results.detail),
    search: pick(results.search),
    ratio: ratio("home"),
    ratios: { home: ratio("home"), detail: ratio("detail"), search: ratio("search") },
    heavy: heavy && { connections: heavyConnections, ...pick(heavy), errors: heavy.errors },
    errors,
    connections,
    seconds,
    firstStartSeconds: round(firstStartSeconds, 1),
    rssFirstStartMb,
    rssPeakMb: memoryField("VmHWM"),
    rssIdleMb,
    rssAfterMb,
    rssGrowthMb: round(rssAfterMb - rssIdleMb, 1),
    soak,
    rotation,
  };
  if (rotation) {
    // Every NIK and photo opened with the new key alone, as after the old one is dropped.
    await stopServer(server);
    const verified = JSON.parse(
      runOnDataDir("personal-data.ts", ["verify"], newKey, { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" })
        .trim()
        .split("\n")
        .at(-1),
    );
    Object.assign(rotation, { verifiedWithNewKeyOnly: verified });
    log(
      `with the new key alone: ${verified.orders} orders, ${verified.uploads} photos, ${verified.unreadable} unreadable, ${verified.leftUnderOtherKey} under another key`,
    );
  }
  await stop();
  console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(serverLog.slice(-4000));
  await stop();
  process.exit(1);
}

function log(line) {
  console.log(line);
}

function pick(r) {
  return { rps: r.rps, p99: r.p99 };
}

function format(r) {
  return `${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms  (${r.requests} requests, ${r.errors} errors)`;
}

function round(n, digits) {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function memoryField(field) {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return round(kb / 1024, 1);
}

function rssMb() {
  return memoryField("VmRSS");
}

/**
 * Drives `url` with `count` keep-alive connections, each sending its next request when the last
 * answer has been read, for `duration` seconds. Anything but a 200 counts as an error. Returns the
 * raw latencies (summarize turns one or more runs into figures).
 */
async function load(url, count, duration) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const latencies = [];
  let errors = 0;
  const endAt = performance.now() + duration * 1000;
  const one = () =>
    new Promise((resolve) => {
      const sent = performance.now();
      const req = http.get(`${base}${url}`, { agent }, (res) => {
        res.on("data", () => {});
        res.on("end", () => {
          latencies.push(performance.now() - sent);
          if (res.statusCode !== 200) errors++;
          resolve();
        });
        res.on("error", () => (errors++, resolve()));
      });
      req.on("error", () => (errors++, resolve()));
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (performance.now() < endAt) await one();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, elapsed, errors };
}

/** Requests per second and latency percentiles over one or more runs of `load`. */
function summarize(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const elapsed = runs.reduce((sum, r) => sum + r.elapsed, 0);
  const errors = runs.reduce((sum, r) => sum + r.errors, 0);
  const at = (q) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0, 1);
  return { rps: round(latencies.length / elapsed, 1), p50: at(0.5), p99: at(0.99), max: at(1), requests: latencies.length, errors };
}

/**
 * `npm run ops -- data:rotate-key` (over the server's socket, as an operator runs it) while every
 * route is driven in turn with `connections` connections until the command has ended.
 */
async function rotateUnderLoad() {
  const rssBefore = rssMb();
  const started = performance.now();
  let output = "";
  const command = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/ops.ts"), "data:rotate-key"], {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, ...serverEnv, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  command.stdout.on("data", (chunk) => (output += chunk));
  command.stderr.on("data", (chunk) => (output += chunk));
  let exitCode = null;
  const ended = new Promise((resolve) => command.once("exit", (code) => resolve((exitCode = code))));
  const runs = [];
  let rssMax = rssBefore;
  while (exitCode === null) {
    for (const url of Object.values(ROUTES)) {
      if (exitCode !== null) break;
      runs.push(await load(url, connections, 1));
      rssMax = Math.max(rssMax, rssMb());
    }
  }
  await ended;
  const seconds = round((performance.now() - started) / 1000, 1);
  const traffic = summarize(runs);
  log(`data:rotate-key under load: exit ${exitCode} in ${seconds} s; ${output.trim().split("\n").at(-1)}`);
  log(`  traffic meanwhile: ${format(traffic)}; RSS ${rssBefore} → max ${rssMax} MB`);
  return {
    orders: rotateOrders,
    exitCode,
    seconds,
    output: output.trim().split("\n").at(-1),
    ...pick(traffic),
    p50: traffic.p50,
    max: traffic.max,
    requests: traffic.requests,
    errors: traffic.errors,
    rssBeforeMb: rssBefore,
    rssMaxMb: rssMax,
  };
}

/** All routes in turn, `count` connections, RSS sampled every 10 s: memory must not keep growing. */
async function runSoak(totalSeconds) {
  const samples = [rssMb()];
  let requests = 0;
  let errors = 0;
  const endAt = Date.now() + totalSeconds * 1000;
  while (Date.now() < endAt) {
    for (const url of Object.values(ROUTES)) {
      const r = await load(url, connections, Math.min(2.5, Math.max(0.5, (endAt - Date.now()) / 1000)));
      requests += r.latencies.length;
      errors += r.errors;
    }
    samples.push(rssMb());
    log(`soak: ${Math.round(totalSeconds - (endAt - Date.now()) / 1000)} s, RSS ${samples.at(-1)} MB`);
  }
  const firstHalf = samples.slice(0, Math.ceil(samples.length / 2));
  const secondHalf = samples.slice(Math.ceil(samples.length / 2));
  const soak = {
    seconds: totalSeconds,
    requests,
    errors,
    rssStartMb: samples[0],
    rssEndMb: samples.at(-1),
    rssMaxMb: Math.max(...samples),
    // Growth between the highest sample of the first half and of the second half of the soak.
    rssLateGrowthMb: secondHalf.length ? round(Math.max(...secondHalf) - Math.max(...firstHalf), 1) : 0,
  };
  log(`soak: ${requests} requests, ${errors} errors, RSS ${soak.rssStartMb} → ${soak.rssEndMb} MB (max ${soak.rssMaxMb})`);
  return soak;
}
