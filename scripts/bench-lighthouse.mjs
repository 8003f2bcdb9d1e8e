#!/usr/bin/env node
// `npm run bench:lighthouse`: Lighthouse 13 (mobile preset, its default) on /home and /detail/1 of
// the production server, several runs each, with the medians of the scores and metrics.
//
// Builds nothing: it runs the existing build (`npm run build`, or $BUILD_DIR) on a fresh temporary
// DATA_DIR with DEMO_DATA=1, in the system Chromium (/usr/bin/chromium, or $CHROME_PATH).
// Environment: LIGHTHOUSE_RUNS (5), BENCH_PORT (a free one), BUILD_DIR (build), LIGHTHOUSE_REPORTS (a
// folder: each run's full report is written there as JSON, to see what an audit or the LCP holds).
// The last line of the output is one JSON object:
//   {"/home": {"performance", "accessibility", "lcp", "tbt", "cls"}, "/detail/1": {…}}
// (scores 0–100, lcp and tbt in milliseconds).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, root, spawnServer, waitForHealth } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

// Measured on the Node the store runs on (24), also where the system Node is older.
await useProjectNode();

const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const PAGES = ["/home", "/detail/1"];
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
  console.error(`No build in ${buildDir}: run \`npm run build\` first (bench:lighthouse builds nothing).`);
  process.exit(1);
}

const port = Number(process.env.BENCH_PORT) || (await freePort());
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-lighthouse-"));
const base = `http://127.0.0.1:${port}`;
const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: "1", BUILD_DIR: buildDir });
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));
let chrome;

try {
  await waitForHealth(base, server);
  // Warm the server (JIT, caches) so the first run measures the page, not the process start.
  for (const page of PAGES) for (let i = 0; i < 3; i++) await (await fetch(base + page)).text();

  chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  const summary = {};
  for (const page of PAGES) {
    const results = [];
    // A run Lighthouse itself could not finish (e.g. NO_FCP: Chromium painted nothing it could
    // trace) says nothing about the page: it is reported and run again, at most `runs` times extra.
    let failedRuns = 0;
    for (let run = 1; run <= runs; run++) {
      const { lhr } = await lighthouse(base + page, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] });
      if (lhr.runtimeError || lhr.categories.performance.score === null) {
        console.log(`${page} run ${run}: Lighthouse failed (${lhr.runtimeError?.code ?? "no performance score"}); running it again`);
        if (++failedRuns > runs) throw new Error(`${page}: Lighthouse failed ${failedRuns} times`);
        run--;
        continue;
      }
      const result = {
        performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
        lcp: Math.round(lhr.audits["largest-contentful-paint"].numericValue ?? 0),
        fcp: Math.round(lhr.audits["first-contentful-paint"].numericValue ?? 0),
        tbt: Math.round(lhr.audits["total-blocking-time"].numericValue ?? 0),
        cls: round(lhr.audits["cumulative-layout-shift"].numericValue ?? 0, 3),
        // Audits that cost points: what to fix next.
        failing: Object.values(lhr.audits)
          .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== "informative" && audit.scoreDisplayMode !== "manual" && audit.scoreDisplayMode !== "notApplicable")
          .map((audit) => audit.id),
      };
      results.push(result);
      if (process.env.LIGHTHOUSE_REPORTS) {
        fs.mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
        fs.writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, `${page.replace(/\W+/g, "_")}-${run}.json`), JSON.stringify(lhr));
      }
      console.log(
        `${page} run ${run}: performance ${result.performance}, accessibility ${result.accessibility}, LCP ${result.lcp} ms, FCP ${result.fcp} ms, TBT ${result.tbt} ms, CLS ${result.cls}` +
          (result.failing.length ? `; below 0.9: ${result.failing.join(", ")}` : ""),
      );
    }
    const median = (key) => {
      const values = results.map((r) => r[key]).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)];
    };
    summary[page] = { performance: median("performance"), accessibility: median("accessibility"), lcp: median("lcp"), tbt: median("tbt"), cls: median("cls"), fcp: median("fcp") };
    console.log(`${page} median of ${runs}: ${JSON.stringify(summary[page])}`);
  }
  await stop();
  console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  console.error(serverLog.slice(-4000));
  await stop();
  process.exit(1);
}

async function stop() {
  if (chrome) await chrome.kill();
  chrome = undefined;
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function round(n, digits) {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}


