#!/usr/bin/env node
// `npm start`: the store on http://localhost:3000 from a fresh checkout in one command. Installs the
// dependencies when needed, builds when the build is missing or older than the sources, then runs
// the production server (server.js) with the demo data and the on-disk outbox.
// Environment: PORT (3000), DATA_DIR (./data), DEMO_DATA (1), BUILD_DIR (build); see README.md.
import { spawn } from "node:child_process";
import path from "node:path";
import { bin, mtime, needsInstall, newestMtime, root, run } from "./lib.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

if (needsInstall()) {
  console.log("Installing dependencies (npm ci)…");
  const code = run(npm, ["ci", "--no-audit", "--no-fund"]);
  if (code !== 0) process.exit(code);
}

const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
const SOURCES = ["app", "public", "package-lock.json", "package.json", "react-router.config.ts", "vite.config.ts", "tsconfig.json"];
const builtAt = mtime(path.join(buildDir, "server", "index.js"));
const changedAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
if (builtAt === 0 || builtAt < changedAt) {
  console.log(builtAt === 0 ? "Building (no build yet)…" : "Building (sources changed since the last build)…");
  const code = run(bin("react-router"), ["build"]);
  if (code !== 0) process.exit(code);
}

const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: process.env.PORT || "3000",
  DATA_DIR: process.env.DATA_DIR || "./data",
  DEMO_DATA: process.env.DEMO_DATA ?? "1",
};
const server = spawn(process.execPath, ["server.js"], { cwd: root, env, stdio: "inherit" });

// Pass Ctrl-C and `kill` on to the server, which closes the database cleanly before exiting; this
// process waits for it. (A terminal's Ctrl-C reaches both; server.js ignores the second signal.)
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
