// Shared by scripts/test.mjs and scripts/start.mjs: run a command, install dependencies when needed.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Node options of the production server (decision 0012). V8 sizes its heap from the machine's memory
 * and, with gigabytes free, lets garbage pile up far beyond the 35–45 MB the server keeps live.
 * `--optimize-for-size` makes V8 collect and compact early (a 2 MB young generation, small growth
 * steps, unused bytecode flushed): about 40 MB less resident under load for about a fifth of the
 * requests per second. The 128 MB old generation is a ceiling that load never reaches.
 * `--liftoff-only` compiles WebAssembly (PGlite) with V8's baseline compiler only: without it Node
 * 24 peaks at 840 MB on a first start (with PostgreSQL there is no WebAssembly and it changes
 * nothing). They must be given on the command line (V8 ignores them once running): the Dockerfile
 * and `npm run serve` spell out the same three flags.
 */
export const SERVER_NODE_FLAGS = ["--max-old-space-size=128", "--optimize-for-size", "--liftoff-only"];

/** The tests' and benches' DATA_ENCRYPTION_KEY: public, so only for databases that are thrown away. */
export const TEST_DATA_ENCRYPTION_KEY = "mHAOVcbSTnfjVG1UUQNv4VT6UlC6xZra+MH9kj/eBFE=";

/**
 * Environment of the production server. glibc gives every thread that allocates (libuv's pool,
 * V8's workers, libvips) a malloc arena of its own, each holding freed memory: one arena, blocks of
 * 128 KB and more mapped on their own (returned whole when freed) and the heap's top trimmed from
 * 128 KB free, instead of glibc's thresholds that grow up to 32 MB, keep the server 10–25 MB
 * smaller after load for about 5 % of its requests per second (decision 0049). Read when the
 * process starts, so it is set by whoever starts server.js (the Dockerfile and `npm run serve` too).
 */
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: "1",
  MALLOC_TRIM_THRESHOLD_: "131072",
  MALLOC_MMAP_THRESHOLD_: "131072",
  // Production refuses to start without DATA_ENCRYPTION_KEY (issue 35): the tests' and benches'
  // servers (throwaway databases) get a fixed key unless one is given; `npm start` passes its own, a
  // deployment its own secret (the Dockerfile sets none).
  DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY || TEST_DATA_ENCRYPTION_KEY,
};

/**
 * Starts the production server (server.js) as the container runs it: SERVER_NODE_FLAGS, SERVER_ENV,
 * NODE_ENV=production, plus `env` (PORT, DATA_DIR, BUILD_DIR…) over this process's environment.
 */
export function spawnServer(env, stdio = ["ignore", "pipe", "pipe"]) {
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, "server.js")], {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, NODE_ENV: "production", ...env },
    stdio,
  });
}

/**
 * Stops a server started by spawnServer and resolves once it has exited: it drains and closes its
 * database first, so its data folder may go only then (removed under a running server, the server
 * outlived the script). SIGKILL if it has not exited within `graceMs`.
 */
export function stopServer(child, graceMs = 10_000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => (clearTimeout(force), resolve()));
    child.kill("SIGTERM");
  });
}

/**
 * Where `npm start` sends the server's log once it is ready: readable lines (pino-pretty: time,
 * level, message; a request as "GET /home 200 3.2 ms") when `pretty` (its own output is a terminal),
 * else `target` itself, so the server's JSON lines pass unchanged (a log collector, a file). Imported
 * here, not at the top: this file runs before `npm start` has installed the dependencies.
 */
export async function serverLogOutput(target, pretty) {
  if (!pretty) return target;
  const { default: pinoPretty } = await import("pino-pretty");
  return pinoPretty({
    destination: target,
    sync: true,
    colorize: target.isTTY === true,
    translateTime: "SYS:HH:MM:ss",
    singleLine: true,
    ignore: "pid,hostname,reqId,method,route,path,status,ms,userId,aborted",
    messageFormat: (line, key) =>
      line[key] === "request"
        ? `${line.method} ${line.path} ${line.status} ${line.ms} ms${line.aborted ? " (aborted)" : ""}`
        : String(line[key] ?? ""),
  });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until `base`/healthz answers 200; throws if `server` (a child process) exits first or time runs out. */
export async function waitForHealth(base, server, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`The server stopped before it was ready (exit code ${server.exitCode ?? server.signalCode}).`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server was not ready within ${timeoutMs / 1000} s.`);
}

/** Runs a command in the project's root with the terminal attached; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", shell: process.platform === "win32", ...options });
  if (result.error) {
    console.error(`${command}: ${result.error.message}`);
    return 127;
  }
  return result.status ?? 1;
}

/** A binary of an installed package (node_modules/.bin), so no `npx` lookup is needed. */
export const bin = (name) => path.join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** node_modules is missing, or older than package-lock.json (npm writes node_modules/.package-lock.json). */
export function needsInstall() {
  const installed = mtime(path.join(root, "node_modules", ".package-lock.json"));
  return installed === 0 || installed < mtime(path.join(root, "package-lock.json"));
}

/** The newest modification time of a file or of any file below a directory. */
export function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export { mtime };

/**
 * The tests' reports (issue 44): Playwright's and vitest's JSON reports, and steps.jsonl, one line
 * per timed step of `npm test` and `.ci/run` ({"name", "ms", "code"}). Git-ignored; `.ci/run`
 * empties it first and `node scripts/slowest-tests.mjs` prints it at the end.
 */
export const REPORTS_DIR = path.join(root, "test-reports");

/** Appends one timed step to test-reports/steps.jsonl. */
export function recordStepTime(name, ms, code = 0) {
  fs.mkdirSync(REPORTS_DIR, { recursive: true });
  fs.appendFileSync(path.join(REPORTS_DIR, "steps.jsonl"), `${JSON.stringify({ name, ms, code })}\n`);
}

export function formatSeconds(ms) {
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
