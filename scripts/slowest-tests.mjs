#!/usr/bin/env node
// `node scripts/slowest-tests.mjs [count]`: where the tests' time goes (issue 44), from what the last
// runs left in test-reports/ (scripts/lib.mjs REPORTS_DIR):
//   - the timed steps of `npm test` and `.ci/run` (steps.jsonl), one table with their seconds;
//   - the `count` (default 15) slowest Playwright spec files, over every JSON report there (main,
//     Midtrans, instances): the time of their tests summed over both projects and every attempt;
//   - the `count` slowest vitest files per engine (vitest-pglite.json, vitest-postgresql.json);
//   - every Playwright test that passed only on its retry, by name, as flaky.
// `.ci/run` calls it at its end, pass or fail. A report that is missing is said, not an error.
import fs from "node:fs";
import path from "node:path";
import { formatSeconds, REPORTS_DIR, root } from "./lib.mjs";

const count = Number(process.argv[2] ?? 15);
const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(REPORTS_DIR, file), "utf8"));
  } catch {
    return null;
  }
};
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
const relative = (file) => path.relative(root, path.resolve(root, file));

// The steps, in the order they ran.
const stepsFile = path.join(REPORTS_DIR, "steps.jsonl");
if (fs.existsSync(stepsFile)) {
  const steps = fs
    .readFileSync(stepsFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const total = steps.reduce((sum, step) => sum + step.ms, 0);
  console.log(`\nTime by part\n  ${"part".padEnd(44)}${"seconds".padStart(9)}`);
  for (const step of steps) console.log(`${step.code === 0 ? "✔" : "✘"} ${step.name.padEnd(44)}${seconds(step.ms)}`);
  console.log(`  ${"total".padEnd(44)}${seconds(total)}  (${formatSeconds(total)})`);
}

// Playwright: a report's suites nest (file → describe → …); a spec holds one test per project.
const playwrightReports = fs.existsSync(REPORTS_DIR)
  ? fs.readdirSync(REPORTS_DIR).filter((file) => file.startsWith("playwright-") && file.endsWith(".json"))
  : [];
const specFiles = new Map();
const flaky = [];
for (const reportFile of playwrightReports.sort()) {
  const report = readJson(reportFile);
  if (!report) continue;
  const testDir = report.config?.rootDir ?? root;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      const file = relative(path.join(testDir, spec.file ?? suite.file));
      const entry = specFiles.get(file) ?? { ms: 0, tests: 0 };
      for (const test of spec.tests ?? []) {
        entry.tests += 1;
        for (const result of test.results ?? []) entry.ms += result.duration ?? 0;
        if (test.status === "flaky") flaky.push(`[${test.projectName}] ${file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`);
      }
      specFiles.set(file, entry);
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
}
if (specFiles.size) {
  console.log(
    `\n${Math.min(count, specFiles.size)} slowest Playwright spec files (${playwrightReports.join(", ")}; both projects, all attempts)`,
  );
  for (const [file, { ms, tests }] of [...specFiles].sort((a, b) => b[1].ms - a[1].ms).slice(0, count)) {
    console.log(`${seconds(ms)}  ${String(tests).padStart(3)} tests  ${file}`);
  }
} else console.log("\nNo Playwright report in test-reports/.");

// Vitest: a file's time from its start to its end (its setup and every test).
for (const engine of ["pglite", "postgresql"]) {
  const report = readJson(`vitest-${engine}.json`);
  if (!report) {
    console.log(`\nNo vitest report for ${engine} in test-reports/.`);
    continue;
  }
  const files = (report.testResults ?? []).map((file) => ({
    file: relative(file.name),
    ms: (file.endTime ?? 0) - (file.startTime ?? 0),
    tests: file.assertionResults?.length ?? 0,
  }));
  const total = report.numTotalTests ?? files.reduce((sum, file) => sum + file.tests, 0);
  console.log(`\n${Math.min(count, files.length)} slowest vitest files on ${engine} (${files.length} files, ${total} tests)`);
  for (const { file, ms, tests } of files.sort((a, b) => b.ms - a.ms).slice(0, count)) {
    console.log(`${seconds(ms)}  ${String(tests).padStart(3)} tests  ${file}`);
  }
}

// A test that needed its retry passed, but is named here so that it is looked at.
if (flaky.length) {
  console.log(`\n${flaky.length} flaky (passed on the retry):`);
  for (const name of flaky) console.log(`  ${name}`);
} else if (specFiles.size) console.log("\nNo flaky Playwright test.");
