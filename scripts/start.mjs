#!/usr/bin/env node
// `npm start`: the store on http://localhost:3000 from a fresh checkout in one command. Installs the
// dependencies when needed, builds when the build is missing or older than the sources, then runs
// the production server (server.js) with the demo data and the on-disk outbox.
// It prints one short line per step with its time; the output of npm and of the build goes to a log
// file, whose path is printed only when a step fails.
// Environment: PORT (3000), DATA_DIR (./data), DEMO_DATA (1), BUILD_DIR (build); see README.md.
// `npm start -- --no-demo` (or DEMO_DATA=0 npm start): a real start, without the demo data.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bin, formatSeconds, mtime, needsInstall, newestMtime, root, serverLogOutput, spawnServer } from "./lib.mjs";
import { commandStartedAt, useProjectNode } from "./node-runtime.mjs";

// On a Node older than 24 this runs the script again on the project's Node 24 (and never returns).
await useProjectNode();

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
// From the first process's start: a download of the project's Node counts too.
const startedAt = commandStartedAt();
const logFile = path.join(os.tmpdir(), `toko-pegawai-start-${process.pid}.log`);
const port = process.env.PORT || "3000";
const DEMO_LOGIN = { email: "demo@pln.co.id", password: "Demo12345!" };
const noDemoFlag = process.argv.slice(2).includes("--no-demo");

/** Runs a command with its output appended to the log file; on failure prints where to look. */
async function step(label, command, args) {
  const stepStart = performance.now();
  process.stdout.write(`• ${label}… `);
  fs.appendFileSync(logFile, `\n$ ${command} ${args.join(" ")}\n`);
  const out = fs.openSync(logFile, "a");
  const code = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", out, out], shell: process.platform === "win32" });
    child.on("error", (error) => {
      fs.appendFileSync(logFile, `${error.message}\n`);
      resolve(127);
    });
    child.on("exit", (status) => resolve(status ?? 1));
  });
  fs.closeSync(out);
  if (code !== 0) {
    console.log("failed");
    console.error(`\n${label} failed (exit code ${code}). Its output is in ${logFile}:\n`);
    console.error(tail(fs.readFileSync(logFile, "utf8"), 30));
    process.exit(code);
  }
  console.log(`done (${formatSeconds(performance.now() - stepStart)})`);
}

function tail(text, lines) {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

if (needsInstall()) await step("Installing the dependencies (npm ci)", npm, ["ci", "--no-audit", "--no-fund"]);

const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
const SOURCES = ["app", "public", "package-lock.json", "package.json", "react-router.config.ts", "vite.config.ts", "tsconfig.json"];
const builtAt = mtime(path.join(buildDir, "server", "index.js"));
const changedAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
if (builtAt === 0 || builtAt < changedAt) {
  await step(
    builtAt === 0 ? "Building the app and its first-start database" : "Building (the sources changed since the last build)",
    bin("react-router"),
    ["build"],
  );
}

// Chosen here (unless given), so it can be printed with the address: it opens the outbox from another machine.
const outboxKey = process.env.OUTBOX_KEY || randomBytes(18).toString("base64url");
const dataDir = process.env.DATA_DIR || "./data";
const env = {
  // The demo pays with the sandbox; production names its gateway itself (env.ts refuses none).
  PAYMENT_GATEWAY: process.env.PAYMENT_GATEWAY || "sandbox",
  OUTBOX_KEY: outboxKey,
  PORT: port,
  DATA_DIR: dataDir,
  DEMO_DATA: noDemoFlag ? "0" : (process.env.DEMO_DATA ?? "1"),
  DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY || demoDataEncryptionKey(path.resolve(root, dataDir)),
};
const demo = env.DEMO_DATA === "1";

/**
 * The production server requires DATA_ENCRYPTION_KEY (issue 35). For the demo: one generated at the
 * first start and kept beside the database (DATA_DIR/data-encryption-key, as a developer's server
 * keeps it), so every later start reads the same NIKs and photos. A deployment sets its own.
 */
function demoDataEncryptionKey(dir) {
  const file = path.join(dir, "data-encryption-key");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString("base64");
  fs.writeFileSync(file, key, { mode: 0o600 });
  return key;
}
const firstStart = !fs.existsSync(path.join(root, env.DATA_DIR, "pglite", "PG_VERSION")) && !process.env.DATABASE_URL;
const serverStart = performance.now();
const preparing = demo ? "Preparing the database and the demo data (first start)" : "Preparing the database (first start)";
process.stdout.write(`• ${firstStart ? preparing : "Starting the server"}… `);

// Until the server is ready its lines are kept (and shown only if it stops); afterwards they pass
// through, readable in a terminal and as JSON lines otherwise.
const server = spawnServer(env);
let ready = false;
let startupOutput = "";
const serverOutput = await serverLogOutput(process.stdout, process.stdout.isTTY === true);
for (const [stream, target] of [
  [server.stdout, serverOutput],
  [server.stderr, process.stderr],
]) {
  stream.on("data", (chunk) => {
    if (ready) target.write(chunk);
    else startupOutput += chunk;
  });
}

// Pass Ctrl-C and `kill` on to the server, which closes the database cleanly before exiting; this
// process waits for it. (A terminal's Ctrl-C reaches both; server.js ignores the second signal.)
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on("exit", (code, signal) => {
  if (!ready) {
    console.log("failed");
    console.error(`\nThe server stopped before it was ready:\n${startupOutput}`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});

while (!ready) {
  try {
    ready = (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  } catch {
    // not listening yet
  }
  if (!ready) await new Promise((resolve) => setTimeout(resolve, 250));
}
console.log(`done (${formatSeconds(performance.now() - serverStart)})`);

// The server's warnings from its start (sandbox gateway in production, no SMTP, …), held back until
// now with the rest of its start-up lines: the operator must read them (issue 38).
// The production log names its levels ("warn"); a number is pino's own form (40 = warn).
const WARNING_LEVELS = new Set(["warn", "error", "fatal"]);
for (const line of startupOutput.split("\n")) {
  try {
    const { level } = JSON.parse(line);
    if (WARNING_LEVELS.has(level) || level >= 40) serverOutput.write(`${line}\n`);
  } catch {
    // not a log line
  }
}

const url = `http://localhost:${port}`;
console.log(`
Toko Pegawai PLN is ready in ${formatSeconds(Date.now() - startedAt)}: ${url}
${demo ? `  Demo account:  ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}\n` : ""}${demo ? "" : `  Without demo data: the first admin registers at ${url}/register, then \`npm run ops -- users:grant-operator <email>\`.\n`}${process.env.SMTP_URL ? "" : `  E-mails (activation, password reset) are not sent; read them in the outbox: ${url}/outbox\n  From another machine, with its key (keep it secret: it opens every account): ${url}/outbox?key=${outboxKey}\n`}  Stop with Ctrl-C.
`);
