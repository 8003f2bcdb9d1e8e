#!/usr/bin/env node
// `npm run trace:page -- /checkout /payment/{id}`: where a buyer page's main-thread time goes on a
// slow phone (issue 29 item 1). Loads each page in Chromium at full speed, records a trace of the
// main thread's tasks and a JavaScript CPU profile from the first byte until the page has hydrated
// and rested for two seconds, and prints:
//   - the tasks that would be long on the Slow-ID phone of bench:lighthouse: each task longer than
//     6.25 ms here, times 8 (Lighthouse's simulation multiplies the tasks of an unthrottled load
//     the same way; Chromium's own CPU throttling stretches short native calls unevenly, so
//     `new FormData(form)` took 80–250× longer under it instead of 8×). The last one, about 2.6 s
//     in, is the profiler stopping (every load has it alike);
//   - self time by source file (React DOM, Conform, zod, each app module…), by the build's source
//     maps, so "the form library's set-up" or "the schema" is a line of its own;
//   - the functions with the most self time.
// Each page is loaded TRACE_ROUNDS times (3) in a fresh context; the figures are the medians.
//
// Needs a build with source maps: `SOURCEMAP=1 BUILD_DIR=build-sm npx react-router build`, then
// `BUILD_DIR=build-sm npm run trace:page -- /checkout`. Without maps it still runs, by bundle file.
// Pages: any path of the store; `/payment/{id}` is the demo account's order waiting for its VA
// payment and `/checkout` has product 1 chosen (scripts/bench/signed-in-pages.mjs, as the benches).
// Environment: BUILD_DIR (build), TRACE_ROUNDS (5), CHROME_PATH (/usr/bin/chromium).
// The last line is one JSON object: {page: {longTaskMs, blockingMs, scriptMs, byFile: {…}}}: the
// medians of the long tasks' total and of their part over 50 ms (both times 8), and of JavaScript's self time (ms here).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { chromium } from "playwright";
import { prepareSignedInPages } from "./bench/signed-in-pages.mjs";
import { freePort, root, spawnServer, stopServer, waitForHealth } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

await useProjectNode();

const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
/** How much slower the Slow-ID phone is than this machine (bench:lighthouse's cpuSlowdownMultiplier). */
const SLOWDOWN = 8;
const rounds = Number(process.env.TRACE_ROUNDS ?? 5);
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/checkout"];
if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
  console.error(`No build in ${buildDir}: SOURCEMAP=1 BUILD_DIR=${path.relative(root, buildDir) || "build"} npx react-router build`);
  process.exit(1);
}

/** Source maps of the bundles, by URL (read once). */
const maps = new Map();

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-trace-"));
const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: "1", PAYMENT_GATEWAY: "sandbox", BUILD_DIR: buildDir });
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });

try {
  await waitForHealth(base, server);
  const { cookie, paymentPath } = await prepareSignedInPages(base);
  const summary = {};
  for (const page of pages) {
    const url = base + (page === "/payment/{id}" ? paymentPath : page);
    const runs = [];
    for (let round = 0; round < rounds; round++) runs.push(await traceOnce(url, cookie));
    summary[page] = report(page, runs);
  }
  console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  console.error(serverLog.slice(-3000));
  process.exitCode = 1;
} finally {
  await browser.close();
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** One load of `url`: the CPU profile and the long tasks until the page has hydrated and rested. */
async function traceOnce(url, cookie) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await context.addCookies(
    cookie.split("; ").map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url: base })),
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const traced = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: ["disabled-by-default-devtools.timeline", "devtools.timeline", "toplevel", "__metadata"] },
  });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  await page.goto(url, { waitUntil: "load" });
  if (new URL(page.url()).pathname !== new URL(url).pathname) throw new Error(`${url} went to ${page.url()}`);
  // One evaluation that waits for the mark (a polling wait would run in the measured page).
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        const done = () => document.documentElement.hasAttribute("data-hydrated");
        if (done()) return resolve();
        new MutationObserver((_, observer) => done() && (observer.disconnect(), resolve())).observe(document.documentElement, {
          attributes: true,
        });
      }),
  );
  // What runs after hydration (effects, deferred parts, idle callbacks) counts too.
  await page.waitForTimeout(2000);
  const { profile } = await cdp.send("Profiler.stop");
  await cdp.send("Tracing.end");
  await traced;
  await context.close();
  const longTasks = slowTasksOf(events);
  return { profile, longTasks };
}

/** The page's main-thread tasks that would be long on the Slow-ID phone: [start, ms × SLOWDOWN]. */
function slowTasksOf(events) {
  // The renderer's main thread that worked the most is the page's (about:blank's is another).
  const mains = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`);
  const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && mains.includes(`${e.pid}:${e.tid}`));
  const work = new Map();
  for (const task of tasks) work.set(`${task.pid}:${task.tid}`, (work.get(`${task.pid}:${task.tid}`) ?? 0) + task.dur);
  const main = [...work].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = tasks.filter((task) => `${task.pid}:${task.tid}` === main).sort((a, b) => a.ts - b.ts);
  const origin = mine[0]?.ts ?? 0;
  return mine
    .filter((task) => (task.dur / 1000) * SLOWDOWN >= 50)
    .map((task) => [Math.round((task.ts - origin) / 1000), Math.round((task.dur / 1000) * SLOWDOWN)]);
}

/** The source map of a bundle URL of the build (null without one). */
function mapOf(scriptUrl) {
  if (maps.has(scriptUrl)) return maps.get(scriptUrl);
  let map = null;
  const pathname = scriptUrl.startsWith(base) ? new URL(scriptUrl).pathname : null;
  const file = pathname?.startsWith("/assets/") ? path.join(buildDir, "client", `${pathname}.map`) : null;
  if (file && fs.existsSync(file)) map = new TraceMap(fs.readFileSync(file, "utf8"));
  maps.set(scriptUrl, map);
  return map;
}

/** "source file" and "function (source file:line)" of a profile node's frame. */
function placeOf({ url, functionName, lineNumber, columnNumber }) {
  if (!url) return { file: functionName || "(program)", fn: functionName || "(program)" };
  const map = mapOf(url);
  if (!map) {
    const file = url.startsWith(base) ? new URL(url).pathname : url;
    return { file, fn: `${functionName || "(anonymous)"} (${file}:${lineNumber + 1})` };
  }
  const original = originalPositionFor(map, { line: lineNumber + 1, column: columnNumber });
  const source = (original.source ?? "?").replace(/^.*?node_modules\//, "node_modules/").replace(/^(\.\.\/)+/, "");
  const file = source.startsWith("node_modules/")
    ? source
        .split("/")
        .slice(0, source.split("/")[1].startsWith("@") ? 3 : 2)
        .join("/")
    : source;
  return { file, fn: `${original.name ?? (functionName || "(anonymous)")} (${source}:${original.line})` };
}

/** Self time in ms per source file and per function of one profile. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFile = new Map();
  const byFunction = new Map();
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!node || node.callFrame.functionName === "(idle)") continue;
    const { file, fn } = placeOf(node.callFrame);
    add(byFile, file, ms);
    add(byFunction, fn, ms);
  }
  return { byFile, byFunction };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Prints one page's medians; answers its JSON summary. */
function report(page, runs) {
  const times = runs.map((run) => selfTimes(run.profile));
  const medianOf = (key, which) => median(times.map((t) => t[which].get(key) ?? 0));
  const files = [...new Set(times.flatMap((t) => [...t.byFile.keys()]))]
    .map((file) => [file, medianOf(file, "byFile")])
    .sort((a, b) => b[1] - a[1]);
  const functions = [...new Set(times.flatMap((t) => [...t.byFunction.keys()]))]
    .map((fn) => [fn, medianOf(fn, "byFunction")])
    .sort((a, b) => b[1] - a[1]);
  const longTaskMs = median(runs.map((run) => run.longTasks.reduce((sum, [, ms]) => sum + ms, 0)));
  const blockingMs = median(runs.map((run) => run.longTasks.reduce((sum, [, ms]) => sum + ms - 50, 0)));
  const scriptMs = median(times.map((t) => [...t.byFile].filter(([file]) => !file.startsWith("(")).reduce((sum, [, ms]) => sum + ms, 0)));
  console.log(
    `\n${page}: ${runs.length} loads; on the Slow-ID phone (× ${SLOWDOWN}) long tasks ${longTaskMs} ms, ${blockingMs} ms of it over 50 ms (medians); JavaScript here ${Math.round(scriptMs)} ms`,
  );
  runs.forEach((run, i) =>
    console.log(
      `  load ${i + 1} long tasks × ${SLOWDOWN} (start here:ms): ${run.longTasks.map(([start, ms]) => `${start}:${ms}`).join(" ")}`,
    ),
  );
  console.log("  self time by source file (ms):");
  for (const [file, ms] of files.slice(0, 25)) if (ms >= 1) console.log(`    ${ms.toFixed(0).padStart(6)}  ${file}`);
  console.log("  functions with the most self time (ms):");
  for (const [fn, ms] of functions.slice(0, 40)) console.log(`    ${ms.toFixed(0).padStart(6)}  ${fn}`);
  return {
    longTaskMs,
    blockingMs,
    scriptMs: Math.round(scriptMs),
    byFile: Object.fromEntries(
      files
        .filter(([, ms]) => ms >= 1)
        .slice(0, 15)
        .map(([file, ms]) => [file, Math.round(ms)]),
    ),
  };
}
