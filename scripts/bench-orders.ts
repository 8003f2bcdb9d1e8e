// npm run bench:orders [-- --buyers 300 --stock 100] — many buyers at once on one product.
//
// N concurrent buyers (default 300, each its own verified account with a complete checkout draft)
// submit an order for ONE product with stock 100 through the real store function
// (createOrderFromDraft), on PGlite (a temporary directory) and on PostgreSQL 15 (a server started
// here like .ci/run does: a temporary cluster on a free port, as a non-root user when run as root;
// skipped with a message when PG_BIN, default /usr/lib/postgresql/15/bin, has no initdb).
// Exactly `stock` orders must be created, the rest refused with 'Stok produk habis.', the stock must
// end at 0. It prints a readable report and, as its LAST line, one JSON object:
//   {"pglite": {"buyers", "stock", "orders", "errors", "ms"}, "postgres": {…} | null}
// `ms` is the time of the concurrent submits only (setup excluded). Exit code 1 when an engine made
// a number of orders other than the stock, or had errors.
//
// Each engine runs in its own child process (the store opens one database per process).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

type EngineResult = { buyers: number; stock: number; orders: number; errors: number; ms: number };
type ChildReport = EngineResult & { refused: number; stockLeft: number; ordersInDb: number; setupMs: number; errorSamples: string[] };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPORT_PREFIX = "BENCH-RESULT ";

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number(process.env[`BENCH_${name.toUpperCase()}`] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Child: one engine, chosen by the environment (DATABASE_URL or DATA_DIR), as the app chooses.

async function runEngine(buyers: number, stock: number): Promise<ChildReport> {
  const { getDb, closeDb } = await import("~/.server/db/client");
  const { startCheckout, saveDraftAddress } = await import("~/.server/store/checkout");
  const { createOrderFromDraft } = await import("~/.server/store/checkout");
  const { createProduct, createVerifiedUser, productStock, realAddress, submission, ICP_PROMO } =
    await import("~/.server/testing/fixtures");
  const { orders } = await import("~/.server/db/schema");
  const { eq, count } = await import("drizzle-orm");
  try {
    const setupStarted = Date.now();
    const db = await getDb(); // migrations and reference data (the administrative areas) included
    const address = await realAddress(db);
    const productId = await createProduct(db, { title: "Motor Listrik Bench", price: 25_000_000, stock, promos: [ICP_PROMO] });
    const users = [];
    for (let i = 0; i < buyers; i++) {
      const user = await createVerifiedUser(db);
      const started = await startCheckout({ id: user.id, verified: true }, productId);
      if (!started.ok) throw new Error(`setup: ${started.message}`);
      await saveDraftAddress(user.id, address);
      users.push(user);
    }
    const setupMs = Date.now() - setupStarted;

    const started = performance.now();
    const results = await Promise.all(
      users.map((user, i) =>
        createOrderFromDraft(user.id, `bench-${i}`, submission(user), { statusId: 200 }).catch((error: unknown) => ({
          thrown: error instanceof Error ? error.message : String(error),
        })),
      ),
    );
    const ms = Math.round(performance.now() - started);

    let created = 0;
    let refused = 0;
    const errorSamples: string[] = [];
    for (const result of results) {
      if ("thrown" in result) errorSamples.push(`threw: ${result.thrown}`);
      else if (result.ok && result.created) created++;
      else if (!result.ok && result.message === "Stok produk habis.") refused++;
      else errorSamples.push(JSON.stringify(result));
    }
    const [{ n }] = (await db.select({ n: count() }).from(orders).where(eq(orders.productId, productId))) as [{ n: number }];
    return {
      buyers,
      stock,
      orders: created,
      errors: errorSamples.length,
      ms,
      refused,
      stockLeft: await productStock(db, productId),
      ordersInDb: Number(n),
      setupMs,
      errorSamples: errorSamples.slice(0, 5),
    };
  } finally {
    await closeDb();
  }
}

// ---------------------------------------------------------------------------------------------
// Parent: starts the engines, prints the report.

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs this script as a child for one engine; resolves with its report, or null with the reason printed. */
function runChild(label: string, env: NodeJS.ProcessEnv, buyers: number, stock: number): Promise<ChildReport | null> {
  return new Promise((resolve) => {
    const tsx = path.join(root, "node_modules", ".bin", "tsx");
    const child = spawn(tsx, [fileURLToPath(import.meta.url), "--child", "--buyers", String(buyers), "--stock", String(stock)], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "test", DEMO_DATA: "0", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      const line = output.split("\n").find((l) => l.startsWith(REPORT_PREFIX));
      if (code !== 0 || !line) {
        console.log(`${label}: the run failed (exit ${code}).\n${output}`);
        resolve(null);
        return;
      }
      resolve(JSON.parse(line.slice(REPORT_PREFIX.length)) as ChildReport);
    });
  });
}

type PgServer = { url: string; stop: () => void };

/** A throwaway PostgreSQL cluster like .ci/run's, or null (with the reason) when none is installed. */
async function startPostgres(): Promise<PgServer | null> {
  const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  if (!fs.existsSync(path.join(bin, "initdb"))) {
    console.log(`PostgreSQL: skipped — no initdb in ${bin} (install postgresql-15 or set PG_BIN).`);
    return null;
  }
  const isRoot = process.getuid?.() === 0;
  const pgUser = "store-ci";
  // PostgreSQL refuses to run as root: use a dedicated system user, as .ci/run does.
  if (isRoot && spawnSync("id", [pgUser], { stdio: "ignore" }).status !== 0) {
    const made = spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", pgUser], { stdio: "inherit" });
    if (made.status !== 0) {
      console.log(`PostgreSQL: skipped — could not create the user ${pgUser} to run it as.`);
      return null;
    }
  }
  const asPg = (command: string, args: string[]) =>
    isRoot
      ? spawnSync("runuser", ["-u", pgUser, "--", path.join(bin, command), ...args], { encoding: "utf8" })
      : spawnSync(path.join(bin, command), args, { encoding: "utf8" });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-orders-pg-"));
  fs.chmodSync(dir, 0o755);
  if (isRoot) spawnSync("chown", [pgUser, dir]);
  const port = await freePort();
  const stop = () => {
    asPg("pg_ctl", ["-D", path.join(dir, "data"), "-m", "fast", "-w", "stop"]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const steps: [string, string[]][] = [
    ["initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]],
    [
      "pg_ctl",
      [
        "-D",
        path.join(dir, "data"),
        "-l",
        path.join(dir, "server.log"),
        "-w",
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        "start",
      ],
    ],
    ["createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "bench_orders"]],
  ];
  for (const [command, args] of steps) {
    const result = asPg(command, args);
    if (result.status !== 0) {
      console.log(`PostgreSQL: skipped — ${command} failed: ${(result.stderr || result.stdout).trim()}`);
      stop();
      return null;
    }
  }
  const version = spawnSync(path.join(bin, "postgres"), ["--version"], { encoding: "utf8" }).stdout.trim();
  console.log(`PostgreSQL: ${version}, temporary cluster on port ${port} (fsync off, as in CI)`);
  return { url: `postgres://postgres@127.0.0.1:${port}/bench_orders`, stop };
}

function describe(label: string, report: ChildReport | null) {
  if (!report) return;
  const verdict =
    report.orders === report.stock && report.errors === 0 && report.stockLeft === 0 && report.ordersInDb === report.stock ? "OK" : "WRONG";
  console.log(
    [
      `${label}: ${verdict}`,
      `  buyers ${report.buyers} at once on stock ${report.stock}`,
      `  orders created ${report.orders} (in the database: ${report.ordersInDb}), refused 'Stok produk habis.' ${report.refused}, errors ${report.errors}`,
      `  stock left ${report.stockLeft}`,
      `  ${report.ms} ms for all submits (${(report.ms / report.buyers).toFixed(1)} ms per buyer on average); setup ${report.setupMs} ms`,
      ...report.errorSamples.map((e) => `  error: ${e}`),
    ].join("\n"),
  );
}

const summary = (r: ChildReport | null): EngineResult | null =>
  r ? { buyers: r.buyers, stock: r.stock, orders: r.orders, errors: r.errors, ms: r.ms } : null;

async function main() {
  const buyers = option("buyers", 300);
  const stock = option("stock", 100);

  if (process.argv.includes("--child")) {
    const report = await runEngine(buyers, stock);
    console.log(REPORT_PREFIX + JSON.stringify(report));
    return;
  }

  console.log(`bench:orders — ${buyers} buyers, one product with stock ${stock}, through createOrderFromDraft\n`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-orders-pglite-"));
  let pglite: ChildReport | null;
  try {
    pglite = await runChild("PGlite", { DATA_DIR: dataDir, DATABASE_URL: "" }, buyers, stock);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  describe("PGlite", pglite);

  let postgres: ChildReport | null = null;
  const server = await startPostgres();
  if (server) {
    const stopOnSignal = () => {
      server.stop();
      process.exit(130);
    };
    process.once("SIGINT", stopOnSignal);
    try {
      postgres = await runChild("PostgreSQL", { DATABASE_URL: server.url }, buyers, stock);
    } finally {
      server.stop();
      process.off("SIGINT", stopOnSignal);
    }
    describe("PostgreSQL", postgres);
  }

  const failed = [pglite, postgres].some((r) => r && (r.orders !== r.stock || r.errors > 0 || r.stockLeft !== 0));
  if (!pglite) process.exitCode = 1;
  if (failed) process.exitCode = 1;
  console.log(JSON.stringify({ pglite: summary(pglite), postgres: summary(postgres) }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
