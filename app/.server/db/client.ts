import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { env } from "../env";
import * as schema from "./schema";
import { seedReferenceData } from "./reference-data";
import { acquireDataDirLock, foreignServerGone } from "./data-dir-lock";
import { databaseState } from "./open-state";
import type { Db } from "./types";

// The types live in types.ts so that the seeding modules this file calls can name them without
// importing it back.
export type { Db, Executor } from "./types";

/** Which engine a handle is on: the job queue (store/messages/queue.ts) runs over the same one. */
export type Engine = { kind: "pglite"; client: import("@electric-sql/pglite").PGlite } | { kind: "postgres"; url: string };

type Handle = { db: Db; engine: Engine; close: () => Promise<void>; ping: () => Promise<void> };

const migrationsFolder = resolveMigrationsFolder();

function resolveMigrationsFolder() {
  // Source tree (dev, tests, ops CLI) or next to the server bundle (production build, container).
  const candidates = [path.resolve("app/.server/db/migrations"), path.resolve(path.dirname(fileURLToPath(import.meta.url)), "migrations")];
  return candidates.find((dir) => fs.existsSync(path.join(dir, "meta", "_journal.json"))) ?? candidates[0];
}

/**
 * PostgreSQL settings of the embedded engine. PGlite runs PostgreSQL inside this process and zeroes
 * its whole shared memory at start, so every megabyte of it is resident: 4 MB of shared buffers
 * instead of 128 MB, and no slots for the connections, WAL senders and replication slots a
 * single-user engine never has (15 MB of shared memory → 7 MB; decision 0012). The catalogue reads
 * are cached in the process (store/catalogue/), and the files sit in the page cache anyway.
 */
export const PGLITE_SETTINGS = [
  "shared_buffers=4MB",
  // PostgreSQL's defaults: 100, 10, 10, 16 and 3 (max_connections must exceed the 3 reserved).
  "max_connections=4",
  "max_wal_senders=0",
  "max_replication_slots=0",
  "autovacuum_worker_slots=1",
  "autovacuum_max_workers=1",
].flatMap((setting) => ["-c", setting]);

/**
 * The prepared database lives next to the code that reads it: beside the server bundle's chunk in a
 * build (written by the build: writeDatabaseTemplate). The source tree (dev server, tests) has none,
 * and PGlite's initdb creates a new database instead.
 */
// Next to the server bundle (written by the build), or where DB_TEMPLATE_DIR says (the unit tests
// write one template per run in tests/vitest.global-setup.ts, so no test file loads the areas).
const templateFolder = process.env.DB_TEMPLATE_DIR
  ? path.resolve(process.env.DB_TEMPLATE_DIR)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), "db-template");

function preparedTemplate(): string | null {
  const written = ["PG_VERSION.gz", "PG_VERSION"].some((file) => fs.existsSync(path.join(templateFolder, file)));
  return written ? templateFolder : null;
}

async function openPglite(dataDir: string | null): Promise<Handle & { created: boolean }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let created = false;
  let pgDir: string | undefined;
  if (dataDir) {
    pgDir = path.join(dataDir, "pglite");
    fs.mkdirSync(dataDir, { recursive: true });
  }
  // One process per data directory (data-dir-lock.ts); throws a clear message when it is taken.
  const releaseLock = dataDir ? acquireDataDirLock(dataDir, { foreignHolderGone: await foreignServerGone(dataDir) }) : () => {};
  try {
    if (pgDir) {
      if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) {
        // First start. PGlite's initdb holds about 600 MB until the database is closed; a prepared
        // database copied file by file (streamed, a few MB at a time) needs none of it.
        const template = preparedTemplate();
        if (template) await copyTemplate(template, pgDir);
        else created = true;
      }
    } else created = true;
    const client = new PGlite(pgDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder });
    return {
      db,
      engine: { kind: "pglite", client },
      created,
      close: async () => {
        try {
          await client.close();
        } finally {
          releaseLock();
        }
      },
      ping: async () => void (await client.query("select 1")),
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * Copies the prepared database into `target`, atomically by a rename: gzip-compressed files are
 * inflated (the build's), plain ones copied as they are (the unit tests': a clone where the file
 * system can, else a copy, instead of inflating 84 MB for every test file).
 */
async function copyTemplate(template: string, target: string) {
  const { pipeline } = await import("node:stream/promises");
  const zlib = await import("node:zlib");
  const partial = `${target}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.rmSync(target, { recursive: true, force: true });
  for (const entry of fs.readdirSync(template, { recursive: true, withFileTypes: true })) {
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(partial, path.relative(template, from));
    if (entry.isDirectory()) fs.mkdirSync(to, { recursive: true, mode: 0o700 });
    else if (entry.name.endsWith(".gz")) {
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      await pipeline(fs.createReadStream(from), zlib.createGunzip(), fs.createWriteStream(to.slice(0, -3), { mode: 0o600 }));
    } else if (entry.isFile()) {
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      await fs.promises.copyFile(from, to, fs.constants.COPYFILE_FICLONE);
      await fs.promises.chmod(to, 0o600);
    }
  }
  fs.renameSync(partial, target);
}

/**
 * Writes the prepared database that a first start copies: an empty PGlite database with the
 * migrations applied and the reference data (companies, order statuses, payment methods, the 83,762
 * villages and their districts, regencies and provinces) loaded, each file gzip-compressed (20 MB
 * instead of 84 in the build) unless `compress` is false (the unit tests' template, copied once per
 * test file). Run by the build (react-router.config.ts), so servers never run initdb or load the
 * areas themselves.
 */
export async function writeDatabaseTemplate(target = templateFolder, { compress = true }: { compress?: boolean } = {}) {
  const { pipeline } = await import("node:stream/promises");
  const zlib = await import("node:zlib");
  const os = await import("node:os");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "store-db-template-"));
  try {
    const handle = await openPglite(work);
    await seedReferenceData(handle.db);
    // The job queue's schema and queues too (store/messages/queue.ts): a first start then only checks them.
    for (const companion of companions) {
      await companion.start(handle.engine);
      await companion.stop();
    }
    await handle.db.execute(sql`vacuum analyze`);
    await handle.close();
    const source = path.join(work, "pglite");
    fs.rmSync(target, { recursive: true, force: true });
    for (const entry of fs.readdirSync(source, { recursive: true, withFileTypes: true })) {
      const from = path.join(entry.parentPath, entry.name);
      const to = path.join(target, path.relative(source, from));
      if (entry.isDirectory()) fs.mkdirSync(to, { recursive: true });
      else if (entry.isFile() && entry.name !== "postmaster.pid") {
        fs.mkdirSync(path.dirname(to), { recursive: true });
        if (compress) await pipeline(fs.createReadStream(from), zlib.createGzip(), fs.createWriteStream(`${to}.gz`));
        else fs.copyFileSync(from, to);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Key of the PostgreSQL advisory lock that the start-up work (migrations, reference data, demo data)
 * runs under. Several instances starting together on an empty database (a two-replica deployment's
 * first rollout) would otherwise create the same tables at once and fail on duplicate keys in
 * PostgreSQL's catalogue: the first takes the lock and does the work, the others wait for it and
 * find everything done. An arbitrary constant ("toko" in ASCII), the same in every instance.
 */
export const STARTUP_LOCK_KEY = 0x746f6b6f;

async function openPostgres(url: string, prepare: (db: Db) => Promise<void>): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // The work runs on a connection of its own that holds a session lock until it unlocks (or drops,
  // when the instance holding it dies half-way: the next one then takes over and finishes).
  const setup = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await setup`select pg_advisory_lock(${STARTUP_LOCK_KEY})`;
    const db = drizzle(setup, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder });
    await prepare(db);
    await setup`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`;
  } finally {
    await setup.end({ timeout: 5 });
  }
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzle(client, { schema });
  return {
    db: db as unknown as Db,
    engine: { kind: "postgres", url },
    close: () => client.end({ timeout: 5 }),
    ping: async () => void (await client`select 1`),
  };
}

/**
 * How demo data (DEMO_DATA=1) is seeded. Its module (app/.server/demo/) lies above the store (it
 * uses the catalogue's sizes and cache), so this layer does not import it: the server's entry
 * registers it (entry.server.tsx). A process that registers none (the ops CLI, a bench) opens
 * without adding demo data; the server adds it at its next start (the seeding runs at every start
 * and is idempotent).
 */
type DemoSeeder = (db: Db) => Promise<void>;
let demoSeeder: DemoSeeder | null = null;

export function registerDemoSeeder(seed: DemoSeeder): void {
  demoSeeder = seed;
}

/** Opens a database, applies migrations and loads the reference data (idempotent). */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string | null;
  /** Seed demo data with the registered seeder (registerDemoSeeder), if any. */
  demoData?: boolean;
  /** Reopen a database PGlite has just created: returns the ~600 MB initdb keeps (long-lived servers). */
  releaseInitdbMemory?: boolean;
}): Promise<Handle> {
  const prepare = async (db: Db) => {
    await seedReferenceData(db);
    if (options.demoData && demoSeeder) await demoSeeder(db);
    for (const task of startupTasks) await task(db);
  };
  // PostgreSQL: under the start-up lock (several instances may start together). PGlite needs none:
  // one process holds its data directory (data-dir-lock.ts).
  if (options.url) return openPostgres(options.url, prepare);
  const opened = await openPglite(options.dataDir ?? null);
  let handle: Handle = opened;
  await seedReferenceData(opened.db);
  if (opened.created && options.dataDir && options.releaseInitdbMemory) {
    await opened.close();
    handle = await openPglite(options.dataDir);
  }
  if (options.demoData && demoSeeder) await demoSeeder(handle.db);
  for (const task of startupTasks) await task(handle.db);
  return handle;
}

/**
 * Work a domain needs done on its data after the migrations, before anyone is served: on PostgreSQL
 * under the start-up lock with the migrations (one instance does it, the others find it done). The
 * one today: sealing rows stored before personal data was encrypted (store/privacy, issue 35), which
 * a migration cannot do because it has no DATA_ENCRYPTION_KEY. Each task must be idempotent.
 */
export type StartupTask = (db: Db) => Promise<void>;
const startupTasks: StartupTask[] = [];

/** Registers a start-up task (once, at module load, before the database is first opened). */
export function addStartupTask(task: StartupTask): void {
  startupTasks.push(task);
}

/**
 * Something that lives on the process-wide database: started once it is open (before getDb()
 * answers anyone), stopped before it closes. The job queue (store/messages/queue.ts) is one: on
 * PGlite it shares the one connection, so it must be up before any transaction creates a job and
 * down before PGlite closes.
 */
export type DatabaseCompanion = { start(engine: Engine): Promise<void>; stop(): Promise<void> };
const companions: DatabaseCompanion[] = [];
let current: Promise<Handle> | undefined;

/** Registers a companion (once, at module load). A database already open starts it at once. */
export function addDatabaseCompanion(companion: DatabaseCompanion): void {
  companions.push(companion);
  if (current) current = current.then(async (open) => (await companion.start(open.engine), open));
}

function handle(): Promise<Handle> {
  databaseState.opened = true;
  current ??= (async () => {
    const e = env();
    const open = await openDatabase({
      url: e.databaseUrl,
      dataDir: e.dataDir,
      demoData: e.demoData,
      releaseInitdbMemory: e.nodeEnv !== "test",
    });
    for (const companion of companions) await companion.start(open.engine);
    return open;
  })();
  return current;
}

/** The process-wide database, opened (and migrated) on first use. */
export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

export async function pingDb(): Promise<void> {
  await (await handle()).ping();
}

export async function closeDb(): Promise<void> {
  if (!current) return;
  const open = current;
  current = undefined;
  const opened = await open;
  for (const companion of [...companions].reverse()) await companion.stop();
  await opened.close();
}
