#!/usr/bin/env node
// `npm run bench:messages` (issue 28): no buyer e-mail lost to a crash or a mail outage, none twice.
//
// NEEDS A BUILD (`npm run build`, or BUILD_DIR). For each engine, PGlite and PostgreSQL 15 (started
// here from PG_BIN, default /usr/lib/postgresql/15/bin, as a non-root user in a temporary folder,
// as .ci/run does; skipped with a note when it is missing):
//   1. seed TRANSITIONS (200) orders in 'Pembayaran Diterima' (scripts/bench-messages-store.ts);
//   2. an SMTP sink (smtp-server) that refuses 20 % of deliveries at random (451, try again later)
//      and records the Message-ID of each message it accepts;
//   3. the production server (node server.js, SMTP_URL = the sink, MESSAGE_RETRY_SECONDS=1);
//   4. the transitions (300 → 400 'Dalam Pengiriman', each one buyer e-mail) in KILLS (5) batches,
//      each batch followed at once by `kill -9` of the server and a restart: PGlite's through the
//      server's ops socket (the kill lands once the batch is acknowledged, its e-mails in flight),
//      PostgreSQL's by a process of their own beside the server (the kill lands while it runs);
//   5. wait until the sink has every e-mail (or WAIT_SECONDS, 420), stop the server, and count.
// Last line: {"pglite": {…}, "postgresql": {…}}, each {"engine","transitions","delivered",
// "duplicates","lost","kills","ms"} (+ "shipped" and "notified" from the database).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { freePort, root, spawnServer, stopServer, waitForHealth } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

await useProjectNode();

const TRANSITIONS = Number(process.env.TRANSITIONS ?? 200);
const KILLS = Number(process.env.KILLS ?? 5);
const REFUSE = Number(process.env.REFUSE ?? 0.2);
const WAIT_MS = Number(process.env.WAIT_SECONDS ?? 420) * 1000;
const BUILD_DIR = path.resolve(root, process.env.BUILD_DIR ?? "build");
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

if (!fs.existsSync(path.join(BUILD_DIR, "server", "index.js"))) {
  console.error(`bench:messages needs a production build in ${BUILD_DIR}: run \`npm run build\` first.`);
  process.exit(1);
}

const tsx = path.join(root, "node_modules", ".bin", "tsx");
/** Runs the store helper on the bench's database; its last output line is JSON. */
function store(env, ...args) {
  const result = spawnSync(tsx, ["scripts/bench-messages-store.ts", ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) throw new Error(`bench-messages-store ${args[0]} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) || "null");
}

/** The SMTP sink: refuses REFUSE of the deliveries at random, keeps the Message-IDs it accepted. */
async function startSink() {
  const accepted = [];
  let refused = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, done) {
      let raw = "";
      stream.on("data", (chunk) => (raw += chunk));
      stream.on("end", () => {
        if (Math.random() < REFUSE) {
          refused++;
          const error = new Error("Mailbox busy, try again later");
          error.responseCode = 451;
          return done(error);
        }
        accepted.push(raw.match(/^Message-ID:\s*(<[^>\r\n]+>)/im)?.[1] ?? "(none)");
        done();
      });
    },
  });
  // A server killed in the middle of a delivery resets its connection: that is the test, not an error.
  sink.on("error", () => {});
  const port = await freePort();
  await new Promise((resolve) => sink.listen(port, "127.0.0.1", resolve));
  return { port, accepted, refused: () => refused, close: () => new Promise((resolve) => sink.close(resolve)) };
}

/** One command over the PGlite server's ops socket (what `npm run ops` does while it runs). */
function opsSocket(dataDir, argv) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(dataDir, "ops.sock"));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => {
      try {
        resolve(JSON.parse(answer.trim()));
      } catch (error) {
        reject(error);
      }
    });
    socket.on("error", reject);
    socket.write(`${JSON.stringify({ argv })}\n`);
  });
}

async function runEngine(engine, databaseUrl) {
  const started = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-messages-"));
  // Every process that starts the job queue sets its retry policy (the last one started wins): the
  // bench's helpers use the server's.
  const dbEnv = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? "", MESSAGE_RETRY_SECONDS: "1" };
  console.log(`[${engine}] seeding ${TRANSITIONS} orders…`);
  // The build's prepared database (migrations, reference data) saves the seeding PGlite's initdb.
  const ids = store(
    { ...dbEnv, NODE_ENV: "test", DB_TEMPLATE_DIR: path.join(BUILD_DIR, "server", "assets", "db-template") },
    "seed",
    String(TRANSITIONS),
  );
  const sink = await startSink();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serverEnv = {
    ...dbEnv,
    PORT: String(port),
    BUILD_DIR,
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    LOG_LEVEL: "warn",
    SHUTDOWN_DRAIN_MS: "0",
    PAYMENT_GATEWAY: "sandbox",
  };
  let server;
  const start = async () => {
    server = spawnServer(serverEnv);
    server.stdout.resume();
    server.stderr.resume();
    await waitForHealth(base, server, 180_000);
  };
  const kill = async () => {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
  };
  await start();
  const batches = Array.from({ length: KILLS }, (_, i) =>
    ids.slice(Math.floor((i * ids.length) / KILLS), Math.floor(((i + 1) * ids.length) / KILLS)),
  );
  let kills = 0;
  for (const batch of batches) {
    if (databaseUrl) {
      // Beside the server: the transitions commit in PostgreSQL whatever happens to the server.
      const shipping = spawn(tsx, ["scripts/bench-messages-store.ts", "ship", JSON.stringify(batch)], {
        cwd: root,
        env: { ...process.env, ...dbEnv, LOG_LEVEL: "warn" },
        stdio: "ignore",
      });
      await new Promise((resolve) => setTimeout(resolve, 300)); // the kill lands while they are being made and sent
      await kill();
      kills++;
      const code = await new Promise((resolve) =>
        shipping.exitCode !== null ? resolve(shipping.exitCode) : shipping.once("exit", resolve),
      );
      if (code !== 0) throw new Error(`[${engine}] the transitions of a batch failed`);
    } else {
      for (const id of batch) {
        const answer = await opsSocket(dataDir, ["orders:ship", String(id), "JNE", `BENCH${id}`]);
        if (answer.code !== 0) throw new Error(`[${engine}] orders:ship ${id}: ${answer.err.join(" ")}`);
      }
      // Killed the moment the batch's last move is acknowledged: its e-mails are still being sent.
      await kill();
      kills++;
    }
    await start();
    console.log(`[${engine}] batch of ${batch.length} done, kill -9 #${kills}, restarted; ${sink.accepted.length} e-mails accepted so far`);
  }
  const deadline = Date.now() + WAIT_MS;
  while (new Set(sink.accepted).size < ids.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
  await stopServer(server);
  await sink.close();
  const checked = store(dbEnv, "check", JSON.stringify(ids));
  fs.rmSync(dataDir, { recursive: true, force: true });
  const unique = new Set(sink.accepted).size;
  const result = {
    engine,
    transitions: checked.events,
    delivered: unique,
    duplicates: sink.accepted.length - unique,
    lost: ids.length - unique,
    kills,
    ms: Math.round(performance.now() - started),
    shipped: checked.shipped,
    notified: checked.notified,
    refusedBySink: sink.refused(),
  };
  console.log(`[${engine}] ${JSON.stringify(result)}`);
  return result;
}

/** PostgreSQL 15 in a temporary folder, as a non-root user (it refuses root); null when not installed. */
async function startPostgres() {
  if (!fs.existsSync(path.join(PG_BIN, "initdb"))) return null;
  const isRoot = process.getuid?.() === 0;
  const user = "store-ci";
  if (isRoot && spawnSync("id", [user]).status !== 0)
    spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user]);
  const asPg = (cmd, args) => spawnSync(isRoot ? "runuser" : cmd, isRoot ? ["-u", user, "--", cmd, ...args] : args, { encoding: "utf8" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-messages-pg-"));
  fs.chmodSync(dir, 0o755);
  if (isRoot) spawnSync("chown", [user, dir]);
  const port = await freePort();
  if (asPg(path.join(PG_BIN, "initdb"), ["-D", `${dir}/data`, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]).status !== 0)
    throw new Error("initdb failed");
  const started = asPg(path.join(PG_BIN, "pg_ctl"), [
    "-D",
    `${dir}/data`,
    "-l",
    `${dir}/server.log`,
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    "start",
  ]);
  if (started.status !== 0) throw new Error(`PostgreSQL did not start: ${fs.readFileSync(`${dir}/server.log`, "utf8")}`);
  asPg(path.join(PG_BIN, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "bench_messages"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/bench_messages`,
    stop() {
      asPg(path.join(PG_BIN, "pg_ctl"), ["-D", `${dir}/data`, "-m", "fast", "-w", "stop"]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const results = {};
const engines = (process.env.ENGINES ?? "pglite,postgresql").split(",");
if (engines.includes("pglite")) results.pglite = await runEngine("pglite");
if (engines.includes("postgresql")) {
  const pg = await startPostgres();
  if (!pg) {
    console.log(`PostgreSQL 15 not found in ${PG_BIN}: the postgresql run is skipped (set PG_BIN).`);
    results.postgresql = null;
  } else {
    try {
      results.postgresql = await runEngine("postgresql", pg.url);
    } finally {
      pg.stop();
    }
  }
}
console.log(JSON.stringify(results));
const failed = Object.values(results).some((r) => r && (r.lost || r.duplicates || r.transitions !== TRANSITIONS));
process.exit(failed ? 1 : 0);
