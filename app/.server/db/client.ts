import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { env } from "../env";
import * as schema from "./schema";
import { seedReferenceData } from "./reference-data";

/**
 * The store's database: PGlite (embedded PostgreSQL, files in DATA_DIR) by default, a PostgreSQL
 * server when DATABASE_URL is set. Both speak the same SQL and run the same migrations; the rest of
 * the code sees one Drizzle type.
 */
export type Db = PgliteDatabase<typeof schema>;

/**
 * A database or an open transaction. Store functions that run inside another's transaction take
 * one: on PGlite (one connection) a query outside the open transaction would wait for it forever.
 */
export type Executor = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

type Handle = { db: Db; close: () => Promise<void>; ping: () => Promise<void> };

const migrationsFolder = resolveMigrationsFolder();

function resolveMigrationsFolder() {
  // Source tree (dev, tests, ops CLI) or next to the server bundle (production build, container).
  const candidates = [
    path.resolve("app/.server/db/migrations"),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "migrations"),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, "meta", "_journal.json"))) ?? candidates[0];
}

async function openPglite(dataDir: string | null): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(path.join(dataDir, "pglite")) : new PGlite();
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db,
    close: () => client.close(),
    ping: async () => void (await client.query("select 1")),
  };
}

async function openPostgres(url: string): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    close: () => client.end({ timeout: 5 }),
    ping: async () => void (await client`select 1`),
  };
}

/** Opens a database, applies migrations and loads the reference data (idempotent). */
export async function openDatabase(options: { url?: string; dataDir?: string | null; demoData?: boolean }) {
  const handle = options.url ? await openPostgres(options.url) : await openPglite(options.dataDir ?? null);
  await seedReferenceData(handle.db);
  if (options.demoData) {
    const { seedDemoData } = await import("./demo-data");
    await seedDemoData(handle.db);
  }
  return handle;
}

let current: Promise<Handle> | undefined;

function handle(): Promise<Handle> {
  current ??= (() => {
    const e = env();
    return openDatabase({ url: e.databaseUrl, dataDir: e.dataDir, demoData: e.demoData });
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
  await (await open).close();
}
