#!/usr/bin/env node
// `npm run bench:restart`: a rolling restart under load drops no request (issue 20).
//
// Two production instances (server.js from the existing build) on one PostgreSQL behind HAProxy
// (Debian's package: apt-get install haproxy), which checks GET /readyz every second. Twenty
// keep-alive connections ask for a mix of buyer pages through HAProxy for BENCH_SECONDS (60) while
// each instance in turn gets SIGTERM (it turns unready, drains SHUTDOWN_DRAIN_MS, closes) and is
// started again. Every answer other than 2xx/3xx, and every connection error, is a failure.
//
// PostgreSQL: DATABASE_URL (an empty database) or, without it, a temporary server started here
// from PG_BIN (/usr/lib/postgresql/15/bin) as the user store-ci when run as root, as .ci/run does.
// HAProxy runs on loopback in the run's own temporary folder (as its working directory: it must be
// able to enter it again after reading its configuration), as store-ci when run as root (HAProxy
// drops to that user itself, so the process started here is HAProxy and stopping it stops it).
// Before it exits, the bench stops everything it started (HAProxy, the instances, PostgreSQL) and
// checks that nothing answers on their ports any more.
// The last line is one JSON object: {"requests", "failed", "restarts", "p99Ms"}. Exit 1 when failed > 0.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, root, spawnServer } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

await useProjectNode();

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const PAGES = [
  "/home",
  "/detail/1",
  "/detail/2",
  "/detail/3",
  "/res-search?keyword=motor",
  "/search",
  "/login",
  "/authrequired",
  "/home?page=2",
];

if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
  console.error(`No build in ${buildDir}: run \`npm run build\` first (bench:restart builds nothing).`);
  process.exit(1);
}
const haproxy = ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"].find((file) => fs.existsSync(file));
if (!haproxy) {
  console.error("HAProxy not found: install Debian's package (apt-get install haproxy).");
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
const RUN_AS = "store-ci";
if (isRoot && spawnSync("id", [RUN_AS], { stdio: "ignore" }).status !== 0) {
  spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", RUN_AS], { stdio: "inherit" });
}
const asUser = (file, args) => (isRoot ? ["runuser", ["-u", RUN_AS, "--", file, ...args]] : [file, args]);
const idOf = (flag) => spawnSync("id", [flag, RUN_AS], { encoding: "utf8" }).stdout.trim();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-restart-"));
fs.chmodSync(work, 0o755);
if (isRoot) spawnSync("chown", [RUN_AS, work]);
const cleanups = [];
// Runs once: at the end of the run, or at exit after an error.
const cleanup = () => {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      step();
    } catch {
      // best effort
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
};
process.on("exit", cleanup);
process.on("SIGINT", () => process.exit(130));

/** The database: DATABASE_URL, or a temporary PostgreSQL 15 server of this run. */
async function database() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  const port = await freePort();
  const dataDir = path.join(work, "pg");
  const pg = (command, args) => {
    const [file, argv] = asUser(path.join(bin, command), args);
    const result = spawnSync(file, argv, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} failed: ${(result.stderr || result.stdout).trim()}`);
  };
  pg("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]);
  pg("pg_ctl", [
    "-D",
    dataDir,
    "-l",
    path.join(work, "pg.log"),
    "-w",
    "-o",
    `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
    "start",
  ]);
  cleanups.push(() => pg("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]));
  pg("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "bench_restart"]);
  return `postgres://postgres@127.0.0.1:${port}/bench_restart`;
}

const databaseUrl = await database();
const ports = [await freePort(), await freePort()];
const proxyPort = await freePort();
const shared = {
  DATABASE_URL: databaseUrl,
  DEMO_DATA: "1",
  PAYMENT_GATEWAY: "sandbox",
  BUILD_DIR: buildDir,
  SESSION_SECRET: "bench-restart-session-secret",
  PAYMENT_WEBHOOK_SECRET: "bench-restart-webhook-secret",
  LOG_LEVEL: "warn",
};
const instances = ports.map((port, i) => ({ port, name: `app${i + 1}`, child: null, log: "" }));

function start(instance) {
  const child = spawnServer({
    ...shared,
    PORT: String(instance.port),
    DATA_DIR: path.join(work, instance.name),
    APP_URL: `http://127.0.0.1:${proxyPort}`,
  });
  child.stdout.on("data", (chunk) => (instance.log += chunk));
  child.stderr.on("data", (chunk) => (instance.log += chunk));
  instance.child = child;
  return child;
}

async function untilReady(instance, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null)
      throw new Error(`${instance.name} exited (${instance.child.exitCode}):\n${instance.log.slice(-2000)}`);
    const status = await fetch(`http://127.0.0.1:${instance.port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${instance.name} not ready in time`);
}

// Both at once on the empty database (the start-up lock lets one migrate and load the demo data).
let started = performance.now();
for (const instance of instances) start(instance);
cleanups.push(() => instances.forEach((instance) => instance.child?.exitCode === null && instance.child.kill("SIGKILL")));
await Promise.all(instances.map((instance) => untilReady(instance)));
console.log(`two instances ready on ports ${ports.join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const config = `global
  maxconn 512
${isRoot ? `  uid ${idOf("-u")}\n  gid ${idOf("-g")}\n` : ""}defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  # A busy server may answer its check late: give it time, and call it down after two misses (2-3 s,
  # well within the instances' 5 s drain).
  timeout check 3s
  option redispatch
  retries 3
  retry-on conn-failure empty-response
frontend store
  bind 127.0.0.1:${proxyPort}
  default_backend app
backend app
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
${instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`).join("\n")}
`;
const configFile = path.join(work, "haproxy.cfg");
fs.writeFileSync(configFile, config, { mode: 0o644 });
// Started directly (not through runuser, whose child a kill would not reach), in the run's folder.
const proxy = spawn(haproxy, ["-db", "-f", configFile], { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
let proxyLog = "";
proxy.stderr.on("data", (chunk) => (proxyLog += chunk));
cleanups.push(() => proxy.exitCode === null && proxy.kill("SIGKILL"));
for (let tries = 0; ; tries++) {
  const status = await fetch(`http://127.0.0.1:${proxyPort}/readyz`).then(
    (r) => r.status,
    () => 0,
  );
  if (status === 200) break;
  if (tries > 100 || proxy.exitCode !== null) throw new Error(`HAProxy did not come up:\n${proxyLog}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
// Both servers seen up (rise 2 at 1 s) before the load starts.
await new Promise((resolve) => setTimeout(resolve, 2500));
console.log(
  `HAProxy ${spawnSync(haproxy, ["-v"], { encoding: "utf8" }).stdout.split("\n")[0]} on port ${proxyPort}; ${connections} connections for ${seconds} s`,
);

// The load: each connection asks for one page after another.
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const durations = [];
const failures = [];
let requests = 0;
const endAt = Date.now() + seconds * 1000;

function get(pathname) {
  return new Promise((resolve) => {
    const begun = performance.now();
    const request = http.get(
      { host: "127.0.0.1", port: proxyPort, path: pathname, agent, headers: { "Accept-Encoding": "gzip" } },
      (response) => {
        let body = "";
        response.on("data", (chunk) => response.statusCode >= 400 && body.length < 200 && (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode, ms: performance.now() - begun, error: body.replace(/\s+/g, " ").slice(0, 120) }),
        );
        response.on("error", (error) => resolve({ status: 0, error: error.message, ms: performance.now() - begun }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", (error) => resolve({ status: 0, error: error.message, ms: performance.now() - begun }));
  });
}

async function worker(index) {
  for (let n = index; Date.now() < endAt; n++) {
    const page = PAGES[n % PAGES.length];
    const result = await get(page);
    requests++;
    durations.push(result.ms);
    if (!(result.status >= 200 && result.status < 400)) failures.push(`${page}: ${result.status} ${result.error ?? ""}`);
  }
}

/** SIGTERM one instance, wait for its exit, start it again, wait until it is ready. */
async function restart(instance) {
  const begun = performance.now();
  const exited = new Promise((resolve) => instance.child.once("exit", resolve));
  instance.child.kill("SIGTERM");
  const code = await exited;
  const stoppedMs = performance.now() - begun;
  start(instance);
  await untilReady(instance);
  console.log(
    `${instance.name}: SIGTERM → exit ${code} after ${(stoppedMs / 1000).toFixed(1)} s, ready again after ${((performance.now() - begun) / 1000).toFixed(1)} s`,
  );
  if (code !== 0) failures.push(`${instance.name} exited with ${code}`);
}

let restarts = 0;
async function rollingRestarts() {
  // The first a sixth of the way in, the second once the first is back (and HAProxy saw it up).
  await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 6));
  for (const instance of instances) {
    if (Date.now() > endAt - 15_000) break;
    await restart(instance);
    restarts++;
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

started = performance.now();
await Promise.all([...Array.from({ length: connections }, (_, i) => worker(i)), rollingRestarts()]);
const elapsed = (performance.now() - started) / 1000;
agent.destroy();

durations.sort((a, b) => a - b);
const p99Ms = Math.round(durations[Math.min(durations.length - 1, Math.floor(durations.length * 0.99))] ?? 0);
console.log(
  `${requests} requests in ${elapsed.toFixed(1)} s (${Math.round(requests / elapsed)}/s), ${failures.length} failed, ${restarts} restarts, p99 ${p99Ms} ms`,
);
for (const failure of failures.slice(0, 10)) console.log(`  failed: ${failure}`);

/** Stops a child process and waits for it (SIGTERM, then SIGKILL after 10 s). */
async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(killer);
}
// Everything this run started stops before it reports: HAProxy, the instances, then PostgreSQL.
await Promise.all([stop(proxy), ...instances.map((instance) => stop(instance.child))]);
cleanup();
const stillAnswering = [];
for (const port of [proxyPort, ...ports])
  if (
    await fetch(`http://127.0.0.1:${port}/readyz`).then(
      () => true,
      () => false,
    )
  )
    stillAnswering.push(port);
if (stillAnswering.length) failures.push(`still answering after the run: port ${stillAnswering.join(", ")}`);
console.log(
  stillAnswering.length
    ? `still answering after the run: port ${stillAnswering.join(", ")}`
    : "stopped HAProxy, both instances and the PostgreSQL it started",
);
console.log(JSON.stringify({ requests, failed: failures.length, restarts, p99Ms }));
process.exit(failures.length === 0 && restarts === instances.length ? 0 : 1);
