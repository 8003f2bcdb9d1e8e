#!/usr/bin/env node
// `npm test`: everything a fresh machine with only Node and npm needs, in order, stopping at the
// first failure with its exit code (on a Node older than 24 it runs on the project's Node 24 first:
// scripts/node-runtime.mjs):
//   install (npm ci when needed) → Chromium → typecheck → lint (ESLint, Prettier) → unit tests (vitest) → production build →
//   end-to-end tests (Playwright, projects js and nojs, against the production server) → the same
//   with PAYMENT_GATEWAY=midtrans against a fake Midtrans (playwright.midtrans.config.ts).
// Environment: BUILD_DIR (default build), PORT for the e2e server (default 3456), PLAYWRIGHT_CHROMIUM.
import fs from "node:fs";
import path from "node:path";
import { bin, formatSeconds, needsInstall, recordStepTime, REPORTS_DIR, root, run } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

// On a Node older than 24 this runs the script again on the project's Node 24 (and never returns).
await useProjectNode();

const timings = [];
// This run's steps only (`.ci/run` starts with an empty test-reports/ and adds its own parts after).
fs.rmSync(path.join(REPORTS_DIR, "steps.jsonl"), { force: true });

function step(name, action) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const code = action();
  const took = Date.now() - started;
  timings.push([name, took, code]);
  // For the one table `.ci/run` prints at its end (scripts/slowest-tests.mjs), with its own parts.
  recordStepTime(name, took, code);
  if (code !== 0) {
    console.error(`\n✘ ${name} failed (exit code ${code}) after ${formatSeconds(took)}`);
    summary();
    process.exit(code);
  }
  console.log(`✔ ${name} (${formatSeconds(took)})`);
}

function summary() {
  const total = timings.reduce((sum, [, took]) => sum + took, 0);
  console.log(`\n  ${"step".padEnd(34)}time`);
  for (const [name, took, code] of timings) console.log(`${code === 0 ? "✔" : "✘"} ${name.padEnd(34)}${formatSeconds(took)}`);
  console.log(`  ${"total".padEnd(34)}${formatSeconds(total)}`);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

step("install dependencies", () => {
  if (!needsInstall()) {
    console.log("node_modules is up to date with package-lock.json");
    return 0;
  }
  return run(npm, ["ci", "--no-audit", "--no-fund"]);
});

const SYSTEM_CHROMIUMS = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const findChromium = () => [process.env.PLAYWRIGHT_CHROMIUM, ...SYSTEM_CHROMIUMS].find((file) => file && fs.existsSync(file));

step("find Chromium", () => {
  let chromium = findChromium();
  if (chromium) {
    console.log(`using ${chromium}`);
    process.env.PLAYWRIGHT_CHROMIUM = chromium;
    return 0;
  }
  // Playwright's own download may be unreachable (it is on our CI); Debian's package is not.
  const isRoot = process.getuid?.() === 0;
  const hasApt = fs.existsSync("/usr/bin/apt-get");
  if (isRoot && hasApt) {
    console.log("installing Debian's chromium package");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    if (
      run("apt-get", ["update", "-qq"], { env }) === 0 &&
      run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { env }) === 0
    ) {
      chromium = findChromium();
      if (chromium) {
        process.env.PLAYWRIGHT_CHROMIUM = chromium;
        return 0;
      }
    }
    console.log("apt-get could not install chromium; trying Playwright's own browser");
  }
  return run(bin("playwright"), ["install", "chromium"]);
});

step("typecheck", () => run(bin("react-router"), ["typegen"]) || run(bin("tsc"), []));

// ESLint (with the code's boundaries) and Prettier's check, as `npm run lint` (issue 34).
step("lint (eslint, prettier)", () => run(bin("eslint"), ["--max-warnings=0", "."]) || run(bin("prettier"), ["--check", "."]));

step("unit tests (vitest)", () => run(bin("vitest"), ["run"]));

step("build", () => run(bin("react-router"), ["build"]));

step("end-to-end tests (playwright)", () => {
  if (!fs.existsSync(path.join(root, process.env.BUILD_DIR ?? "build", "server", "index.js"))) {
    console.error("no server build");
    return 1;
  }
  return run(bin("playwright"), ["test"]);
});

// The Midtrans gateway against a fake Midtrans (issue 18): its own server with PAYMENT_GATEWAY=midtrans.
step("end-to-end tests, Midtrans (playwright)", () => run(bin("playwright"), ["test", "--config", "playwright.midtrans.config.ts"]));

summary();
