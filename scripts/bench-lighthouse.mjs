#!/usr/bin/env node
// `npm run bench:lighthouse`: Lighthouse 13 on five buyer pages of the production server and on two
// floors, in interleaved rounds, with the medians of the scores and metrics (issue 21).
//
// Pages: /authrequired (the store's lightest page), /home, /detail/1, /checkout (the demo account
// signed in, product 1 chosen with 'Beli Sekarang') and /payment/{id} (a demo-account order waiting
// for a virtual-account payment, made through the JSON API at the start). Floors, measured in the
// same run: `static`, an HTML page without script, and `minimal`, a React Router 8 framework-mode
// app of one route with ten list items (scripts/bench/minimal-app, built by the bench at the start
// with the project's packages into a temporary folder, served by scripts/bench/floor-server.mjs as
// server.js serves the store). Each round measures every page once (static, minimal, then the store's
// five), so a slow moment of a shared machine falls on all alike. The two signed-in pages get the
// session cookie as a request header; every run's final URL must be the page asked for (not the
// login screen), or the bench stops.
//
// Builds the minimal app only: the store runs from its existing build (`npm run build`, or
// $BUILD_DIR) on a fresh temporary DATA_DIR with DEMO_DATA=1, in the system Chromium
// (/usr/bin/chromium, or $CHROME_PATH).
// Environment:
//   LIGHTHOUSE_PROFILE  default (Lighthouse's mobile preset: 150 ms, 1.6 Mbit/s, CPU 4×), slow
//                       ("Slow-ID": 300 ms, 700 Kbit/s, CPU 8×, simulated, mobile screen), or both
//                       (each profile's rounds in turn)
//   LIGHTHOUSE_ROUNDS   rounds (5; LIGHTHOUSE_RUNS is read when it is unset)
//   LIGHTHOUSE_REPORTS  a folder: each run's full report as JSON, <profile>-<page>-<round>.json (a run
//                       Lighthouse could not finish: …-<round>-failed-<n>.json)
//   LIGHTHOUSE_PAGES    a comma-separated subset of the keys below, to try a change quickly
//                       (e.g. "minimal,/home"); the floors and pages left out are not measured
//   LIGHTHOUSE_BASELINE a second build folder (e.g. a build of the previous commit): its five pages are
//                       measured in the same rounds, each right before the same page of BUILD_DIR,
//                       under the keys "<page> (baseline)", so a before/after is not a comparison of
//                       two moments of a shared machine
//   LIGHTHOUSE_NO_SCRIPT=1 also measures the minimal app and the five pages with their script files
//                       blocked (Lighthouse's blockedUrlPatterns "*.js"; the documents' small inline
//                       scripts still run, lazy images stay lazy), under "<page> (no script)": what a
//                       page's HTML, CSS and images cost the main thread before any script. Each store
//                       page then gets scriptTaskRatio (its work minus its no-script work, over the same
//                       difference of the minimal app: what its scripts cost next to the framework's
//                       own) and floorTaskRatio ((its no-script work + the minimal app's script work) ÷
//                       the minimal app's work: the taskRatio it would have if its scripts cost no more
//                       than the minimal app's).
//   BENCH_PORT (a free one), BUILD_DIR (build)
// The last line of the output is one JSON object (scores 0–100, times in milliseconds):
//   {"profile", "rounds", "benchmarkIndex", "static": {…}, "minimal": {…}, "/authrequired": {…},
//    "/home": {…}, "/detail/1": {…}, "/checkout": {…}, "/payment/{id}": {…}}
// each page with the medians of performance, accessibility, fcp, lcp, tbt, cls, taskMs (main-thread
// work), scripts (script requests), jsKb (JavaScript transferred, KB) and, for the store's pages,
// tbtRatio (its TBT over the minimal app's; null when that is 0) and taskRatio (its main-thread work
// over the minimal app's). With LIGHTHOUSE_PROFILE=both: {"default": {…}, "slow": {…}}.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { prepareSignedInPages } from "./bench/signed-in-pages.mjs";
import { freePort, root, SERVER_ENV, SERVER_NODE_FLAGS, spawnServer, stopServer, waitForHealth } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

// Measured on the Node the store runs on (24), also where the system Node is older.
await useProjectNode();

const PROFILES = {
  // Lighthouse's own mobile preset (its default settings).
  default: {},
  // Slow-ID: Lighthouse's "regular 3G" network with the CPU of an entry-level phone; the mobile form
  // factor and screen of the default settings stay.
  slow: {
    throttlingMethod: "simulate",
    throttling: {
      rttMs: 300,
      throughputKbps: 700,
      requestLatencyMs: 300 * 3.75,
      downloadThroughputKbps: 700 * 0.9,
      uploadThroughputKbps: 700 * 0.9,
      cpuSlowdownMultiplier: 8,
    },
  },
};
const profileArg = process.env.LIGHTHOUSE_PROFILE || "default";
const profiles = profileArg === "both" ? ["default", "slow"] : [profileArg];
if (!profiles.every((p) => p in PROFILES)) {
  console.error(`LIGHTHOUSE_PROFILE must be default, slow or both, not ${JSON.stringify(profileArg)}.`);
  process.exit(1);
}
const rounds = Number(process.env.LIGHTHOUSE_ROUNDS ?? process.env.LIGHTHOUSE_RUNS ?? 5);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error("LIGHTHOUSE_ROUNDS must be a whole number of at least 1.");
  process.exit(1);
}
const reportsDir = process.env.LIGHTHOUSE_REPORTS;
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const baselineDir = process.env.LIGHTHOUSE_BASELINE ? path.resolve(root, process.env.LIGHTHOUSE_BASELINE) : null;
const STORE_PAGES = ["/authrequired", "/home", "/detail/1", "/checkout", "/payment/{id}"];
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

for (const dir of [buildDir, baselineDir]) {
  if (dir && !fs.existsSync(path.join(dir, "server", "index.js"))) {
    console.error(`No build in ${dir}: run \`npm run build\` first (bench:lighthouse builds only its minimal app).`);
    process.exit(1);
  }
}

const port = Number(process.env.BENCH_PORT) || (await freePort());
const floorPort = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-lighthouse-"));
const minimalDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-lighthouse-minimal-"));
const base = `http://127.0.0.1:${port}`;
const floorBase = `http://127.0.0.1:${floorPort}`;
const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: "1", PAYMENT_GATEWAY: "sandbox", BUILD_DIR: buildDir });
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));
// The baseline build's store, on its own port and data (LIGHTHOUSE_BASELINE).
const baselinePort = baselineDir ? await freePort() : null;
const baselineDataDir = baselineDir ? fs.mkdtempSync(path.join(os.tmpdir(), "store-lighthouse-baseline-")) : null;
const baselineBase = baselineDir ? `http://127.0.0.1:${baselinePort}` : null;
const baselineServer = baselineDir
  ? spawnServer({
      PORT: String(baselinePort),
      DATA_DIR: baselineDataDir,
      DEMO_DATA: "1",
      PAYMENT_GATEWAY: "sandbox",
      BUILD_DIR: baselineDir,
    })
  : null;
baselineServer?.stdout.on("data", (chunk) => (serverLog += chunk));
baselineServer?.stderr.on("data", (chunk) => (serverLog += chunk));
let floorServer;
let floorLog = "";
let chrome;

const onlyPages = process.env.LIGHTHOUSE_PAGES?.split(",").map((key) => key.trim());
const noScript = process.env.LIGHTHOUSE_NO_SCRIPT === "1";
/** The suffixes of the keys of the baseline build's pages and of the pages measured without scripts. */
const BASELINE = " (baseline)";
const NO_SCRIPT = " (no script)";

// Failed Lighthouse runs per "profile page" (measure() retries them).
const failuresOf = new Map();

try {
  const minimalBuilt = performance.now();
  buildMinimalApp();
  console.log(`built the minimal app in ${((performance.now() - minimalBuilt) / 1000).toFixed(1)} s`);
  floorServer = await startFloorServer();
  await waitForHealth(base, server);

  // The signed-in pages: a session of the demo account, an order waiting for its VA payment, then
  // product 1 chosen for the checkout (the order above used the checkout draft, so it comes second).
  const stores = [{ suffix: "", base, ...(await prepareSignedInPages(base)) }];
  if (baselineDir) {
    await waitForHealth(baselineBase, baselineServer);
    stores.unshift({ suffix: BASELINE, base: baselineBase, ...(await prepareSignedInPages(baselineBase)) });
  }

  /** What each page is measured at: its address, and the cookie of the signed-in pages. */
  const targets = [
    { key: "static", url: `${floorBase}/static` },
    { key: "minimal", url: `${floorBase}/` },
    ...STORE_PAGES.flatMap((key) =>
      stores.map((store) => {
        const pathname = key === "/payment/{id}" ? store.paymentPath : key;
        const signedIn = key === "/checkout" || key === "/payment/{id}";
        return { key: key + store.suffix, url: store.base + pathname, cookie: signedIn ? store.cookie : undefined };
      }),
    ),
  ]
    // With LIGHTHOUSE_NO_SCRIPT, the minimal app and each page of the build measured also without its
    // script files, right after it.
    .flatMap((target) =>
      noScript && target.key !== "static" && !target.key.endsWith(BASELINE)
        ? [target, { ...target, key: target.key + NO_SCRIPT, noScript: true }]
        : [target],
    )
    .filter(({ key }) => !onlyPages || onlyPages.includes(key.replace(BASELINE, "").replace(NO_SCRIPT, "")));

  // Warm both servers (JIT, caches) so the first round measures the pages, not the processes' start;
  // each must answer 200 (a signed-in page without its session would redirect).
  for (const target of targets) {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(target.url, { headers: target.cookie ? { Cookie: target.cookie } : {}, redirect: "manual" });
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(
          `${target.key}: ${target.url} answered ${response.status}${response.headers.get("location") ? ` → ${response.headers.get("location")}` : ""}`,
        );
    }
  }

  chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  const summaries = {};
  for (const profile of profiles) summaries[profile] = await measureProfile(profile, targets);
  await stop();
  console.log(JSON.stringify(profiles.length === 1 ? summaries[profiles[0]] : summaries));
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  console.error(serverLog.slice(-4000));
  if (floorLog) console.error(floorLog.slice(-2000));
  await stop();
  process.exit(1);
}

/** `rounds` rounds of every target under `profile`; prints each run, a table, and answers the medians. */
async function measureProfile(profile, targets) {
  const started = performance.now();
  const results = Object.fromEntries(targets.map((t) => [t.key, []]));
  const benchmarkIndexes = [];
  for (let roundNo = 1; roundNo <= rounds; roundNo++) {
    const roundStarted = performance.now();
    for (const target of targets) {
      const { result, lhr } = await measure(profile, target, roundNo);
      results[target.key].push(result);
      benchmarkIndexes.push(lhr.environment.benchmarkIndex);
      if (reportsDir) {
        fs.mkdirSync(reportsDir, { recursive: true });
        fs.writeFileSync(path.join(reportsDir, `${profile}-${fileNameOf(target.key)}-${roundNo}.json`), JSON.stringify(lhr));
      }
      console.log(
        `[${profile}] ${target.key} round ${roundNo}: performance ${result.performance}, accessibility ${result.accessibility}, FCP ${result.fcp} ms, LCP ${result.lcp} ms, TBT ${result.tbt} ms, CLS ${result.cls}, tasks ${result.taskMs} ms, ${result.scripts} scripts ${result.jsKb} KB` +
          (result.failing.length ? `; below 0.9: ${result.failing.join(", ")}` : ""),
      );
    }
    console.log(`[${profile}] round ${roundNo} took ${((performance.now() - roundStarted) / 1000).toFixed(0)} s`);
  }

  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const KEYS = ["performance", "accessibility", "fcp", "lcp", "tbt", "cls", "taskMs", "scripts", "jsKb"];
  const summary = { profile, rounds, benchmarkIndex: Math.round(median(benchmarkIndexes)) };
  for (const target of targets) {
    const medians = Object.fromEntries(KEYS.map((key) => [key, median(results[target.key].map((r) => r[key]))]));
    // (An even number of rounds gives the mean of the two middle runs: rounded as a single run is.)
    for (const key of KEYS)
      medians[key] = key === "cls" ? round(medians[key], 3) : key === "jsKb" ? round(medians[key], 1) : Math.round(medians[key]);
    summary[target.key] = medians;
  }
  const minimalTbt = summary.minimal?.tbt ?? 0;
  // No ratio to a TBT of 0 (the minimal app often blocks nothing with the default profile): null.
  for (const key of STORE_PAGES.flatMap((page) => [page, page + BASELINE])) {
    if (!summary[key] || !summary.minimal) continue;
    summary[key].tbtRatio = minimalTbt > 0 ? round(summary[key].tbt / minimalTbt, 2) : null;
    summary[key].taskRatio = round(summary[key].taskMs / summary.minimal.taskMs, 2);
  }
  const minimalScriptMs =
    summary.minimal && summary[`minimal${NO_SCRIPT}`] ? summary.minimal.taskMs - summary[`minimal${NO_SCRIPT}`].taskMs : null;
  for (const key of STORE_PAGES) {
    const without = summary[key + NO_SCRIPT];
    if (!summary[key] || !without || !minimalScriptMs || minimalScriptMs <= 0) continue;
    summary[key].scriptTaskRatio = round((summary[key].taskMs - without.taskMs) / minimalScriptMs, 2);
    summary[key].floorTaskRatio = round((without.taskMs + minimalScriptMs) / summary.minimal.taskMs, 2);
  }

  console.log(
    `\n[${profile}] medians of ${rounds} round${rounds === 1 ? "" : "s"} (benchmarkIndex ${summary.benchmarkIndex}; ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  const header = [
    "page",
    "perf",
    "a11y",
    "FCP",
    "LCP",
    "TBT",
    "×min",
    "CLS",
    "tasks",
    "×min",
    ...(noScript ? ["JS ×min", "floor"] : []),
    "scripts",
    "JS KB",
  ];
  const rows = targets.map(({ key }) => {
    const m = summary[key];
    const noScriptColumns = noScript ? [m.scriptTaskRatio ?? "", m.floorTaskRatio ?? ""] : [];
    return [
      key,
      m.performance,
      m.accessibility,
      m.fcp,
      m.lcp,
      m.tbt,
      m.tbtRatio ?? "",
      m.cls,
      m.taskMs,
      m.taskRatio ?? "",
      ...noScriptColumns,
      m.scripts,
      m.jsKb,
    ].map(String);
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  console.log("");
  return summary;
}

/**
 * One Lighthouse run of `target`. A run Lighthouse itself could not finish (e.g. NO_FCP: Chromium
 * painted nothing it could trace) says nothing about the page: it is reported and run again, at most
 * `rounds` times extra per page and profile (at least twice). A run that ended anywhere but at the
 * page asked for stops the bench.
 */
async function measure(profile, target, roundNo) {
  for (;;) {
    const flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      // Cookies go too: a signed-in page's Set-Cookie must not sign in the next, anonymous run.
      clearStorageTypes: ["file_systems", "shader_cache", "service_workers", "cache_storage", "cookies"],
      ...(target.cookie ? { extraHeaders: { Cookie: target.cookie } } : {}),
    };
    const config = {
      extends: "lighthouse:default",
      settings: { ...PROFILES[profile], ...(target.noScript ? { blockedUrlPatterns: ["*.js"] } : {}) },
    };
    const { lhr } = await lighthouse(target.url, flags, config);
    if (lhr.runtimeError || lhr.categories.performance.score === null) {
      console.log(
        `[${profile}] ${target.key} round ${roundNo}: Lighthouse failed (${lhr.runtimeError?.code ?? "no performance score"}${lhr.runtimeError?.message ? `: ${lhr.runtimeError.message}` : ""}); running it again`,
      );
      if (reportsDir) {
        fs.mkdirSync(reportsDir, { recursive: true });
        fs.writeFileSync(
          path.join(
            reportsDir,
            `${profile}-${fileNameOf(target.key)}-${roundNo}-failed-${(failuresOf.get(`${profile} ${target.key}`) ?? 0) + 1}.json`,
          ),
          JSON.stringify(lhr),
        );
      }
      const failures = (failuresOf.get(`${profile} ${target.key}`) ?? 0) + 1;
      failuresOf.set(`${profile} ${target.key}`, failures);
      if (failures > Math.max(rounds, 2)) throw new Error(`[${profile}] ${target.key}: Lighthouse failed ${failures} times`);
      continue;
    }
    const asked = new URL(target.url).pathname;
    const landed = new URL(lhr.finalDisplayedUrl).pathname;
    if (landed !== asked)
      throw new Error(
        `${target.key}: Lighthouse measured ${lhr.finalDisplayedUrl}, not ${target.url} (redirected: the session cookie was not accepted?)`,
      );
    const scripts = (lhr.audits["network-requests"].details?.items ?? []).filter((item) => item.resourceType === "Script");
    const result = {
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      fcp: Math.round(lhr.audits["first-contentful-paint"].numericValue ?? 0),
      lcp: Math.round(lhr.audits["largest-contentful-paint"].numericValue ?? 0),
      tbt: Math.round(lhr.audits["total-blocking-time"].numericValue ?? 0),
      cls: round(lhr.audits["cumulative-layout-shift"].numericValue ?? 0, 3),
      taskMs: Math.round(lhr.audits["mainthread-work-breakdown"].numericValue ?? 0),
      scripts: scripts.length,
      jsKb: round(scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024, 1),
      // Audits that cost points: what to fix next.
      failing: Object.values(lhr.audits)
        .filter(
          (audit) =>
            audit.score !== null &&
            audit.score < 0.9 &&
            audit.scoreDisplayMode !== "informative" &&
            audit.scoreDisplayMode !== "manual" &&
            audit.scoreDisplayMode !== "notApplicable",
        )
        .map((audit) => audit.id),
    };
    return { result, lhr };
  }
}

/** Builds scripts/bench/minimal-app into `minimalDir` with the project's React Router and Vite. */
function buildMinimalApp() {
  const appDir = path.join(root, "scripts", "bench", "minimal-app");
  const cli = path.join(root, "node_modules", "@react-router", "dev", "bin.cjs");
  const result = spawnSync(process.execPath, [cli, "build"], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production", MINIMAL_BUILD_DIR: minimalDir },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`building the minimal app failed:\n${result.stdout}\n${result.stderr}`);
  // The server bundle imports react and react-router: found through a link to the project's packages.
  fs.symlinkSync(path.join(root, "node_modules"), path.join(minimalDir, "node_modules"), "junction");
}

/** scripts/bench/floor-server.mjs on `floorPort`, as the store's server runs (flags, environment). */
async function startFloorServer() {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, "scripts", "bench", "floor-server.mjs")], {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, NODE_ENV: "production", PORT: String(floorPort), MINIMAL_BUILD_DIR: minimalDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr.on("data", (chunk) => (floorLog += chunk));
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      floorLog += chunk;
      if (floorLog.includes("listening")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the floor server stopped (exit code ${code}):\n${floorLog}`)));
  });
  return child;
}

async function stop() {
  if (chrome) await chrome.kill();
  chrome = undefined;
  for (const child of [server, baselineServer, floorServer]) if (child) await stopServer(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (baselineDataDir) fs.rmSync(baselineDataDir, { recursive: true, force: true });
  // The link to the project's node_modules goes first, by itself (never a removal through it).
  fs.rmSync(path.join(minimalDir, "node_modules"), { force: true });
  fs.rmSync(minimalDir, { recursive: true, force: true });
}

/** A page's key as part of a report's file name: "/payment/{id}" → "payment_id". */
function fileNameOf(key) {
  return key.replace(/\W+/g, "_").replace(/^_+|_+$/g, "");
}

function round(n, digits) {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}
