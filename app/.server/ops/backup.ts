import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import { getDb, PGLITE_SETTINGS } from "../db/client";
import { acquireDataDirLock, foreignServerGone } from "../db/data-dir-lock";
import { env } from "../env";
import type { OpsIO } from "./io";
import { dataDirTar } from "./tar-stream";

// Backups (issue 20): one file holds the whole store (the uploads are in the database).
// - PGlite: the data directory as a gzip'd tar in the layout of PGlite's own dump (dumpDataDir), which
//   its loadDataDir restores, taken inside the process that holds the database: the running server
//   (the CLI's command comes over the ops socket) or the CLI itself. The files are copied while no
//   query runs (PGlite's query lock), after a checkpoint; like a crash at that moment, a restore
//   replays the WAL and keeps exactly the committed transactions. Streamed file by file with
//   backpressure (issue 37): PGlite's dumpDataDir reads every file into memory, then the tar, then
//   the gzip (about 170 MB more RSS at 100,000 orders, on the server that serves the buyers).
// - PostgreSQL: pg_dump --format=custom (a consistent snapshot while the store runs), pg_restore.
// A restore goes only into an empty DATA_DIR or an empty database, never over a store.

export type BackupResult = { ok: true; bytes: number; ms: number } | { ok: false; message: string };

/** Where a restore goes: the configured DATABASE_URL or DATA_DIR unless a test names another. */
export type StoreTarget = { databaseUrl?: string; dataDir: string };
const configured = (): StoreTarget => ({ databaseUrl: env().databaseUrl, dataDir: env().dataDir });

/** A PostgreSQL client tool (pg_dump, pg_restore) from PG_BIN or PATH; a clear error naming it when missing. */
export function findPgTool(name: "pg_dump" | "pg_restore"): string {
  const dirs = [process.env.PG_BIN, ...(process.env.PATH ?? "").split(path.delimiter)].filter((dir): dir is string => !!dir);
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  throw new Error(
    `${name} not found: install PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client; the image's base: the same) or set PG_BIN to the folder that holds ${name}`,
  );
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} exited with ${code}: ${stderr.trim().split("\n").slice(-3).join(" ")}`)),
    );
  });
}

/** Writes the backup to `file` (through `file.partial`, renamed when complete). */
export async function backupDatabase(file: string): Promise<BackupResult> {
  const started = performance.now();
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const e = env();
  try {
    if (e.databaseUrl) {
      await run(findPgTool("pg_dump"), ["--format=custom", "--no-owner", "--no-privileges", "--file", partial, "--dbname", e.databaseUrl]);
    } else {
      const client = ((await getDb()) as unknown as { $client: PGlite }).$client;
      await client.query("checkpoint");
      // While no query runs (PGlite's query lock, as its own dumpDataDir takes it), the files are
      // those a crash at that moment would leave: streamed to the file as PGlite's dump lays them out.
      await client.runExclusive(() =>
        pipeline(
          Readable.from(dataDirTar(path.join(e.dataDir, "pglite"))),
          zlib.createGzip(),
          fs.createWriteStream(partial, { mode: 0o600 }),
        ),
      );
    }
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  return { ok: true, bytes: fs.statSync(target).size, ms: Math.round(performance.now() - started) };
}

/** True when the PostgreSQL database has no tables of its own (pg_restore may write into it). */
async function postgresIsEmpty(url: string): Promise<boolean> {
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ tables }] =
      await sql`select count(*)::int as tables from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
    return tables === 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Restores `file` into DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL); refuses a target that holds data. */
export async function restoreDatabase(file: string, e: StoreTarget = configured()): Promise<BackupResult> {
  const started = performance.now();
  const source = path.resolve(file);
  if (!fs.existsSync(source)) return { ok: false, message: `no such file: ${source}` };
  try {
    if (e.databaseUrl) {
      if (!(await postgresIsEmpty(e.databaseUrl)))
        return {
          ok: false,
          message: "the database is not empty: restore into a new, empty database (createdb) and point DATABASE_URL at it",
        };
      await run(findPgTool("pg_restore"), [
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        "--single-transaction",
        "--dbname",
        e.databaseUrl,
        source,
      ]);
    } else {
      const pgDir = path.join(e.dataDir, "pglite");
      if (fs.existsSync(pgDir) && fs.readdirSync(pgDir).length > 0) {
        return {
          ok: false,
          message: `${e.dataDir} already holds a database: restore into an empty DATA_DIR (with no server running on it)`,
        };
      }
      fs.mkdirSync(e.dataDir, { recursive: true });
      const release = acquireDataDirLock(e.dataDir, { foreignHolderGone: await foreignServerGone(e.dataDir) });
      try {
        const { PGlite } = await import("@electric-sql/pglite");
        const dump = new Blob([fs.readFileSync(source)]);
        const client = await PGlite.create(pgDir, { loadDataDir: dump, startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
        // Opening replays the dump's WAL; a query proves the database answers before the files are kept.
        await client.query("select 1");
        await client.close();
      } catch (error) {
        fs.rmSync(pgDir, { recursive: true, force: true });
        throw error;
      } finally {
        release();
      }
    }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  return { ok: true, bytes: fs.statSync(source).size, ms: Math.round(performance.now() - started) };
}

/** The ops commands (commands.ts registers them). */
export async function backupCommand(args: string[], io: OpsIO, usage: (io: OpsIO, text: string) => number): Promise<number> {
  const [file, ...rest] = args;
  if (!file || rest.length > 0) return usage(io, "db:backup <file>");
  const result = await backupDatabase(file);
  if (!result.ok) {
    io.err(`db:backup: ${result.message}`);
    return 1;
  }
  io.out(`backup written to ${path.resolve(file)}: ${result.bytes} bytes in ${result.ms} ms`);
  return 0;
}

export async function restoreCommand(args: string[], io: OpsIO, usage: (io: OpsIO, text: string) => number): Promise<number> {
  const [file, ...rest] = args;
  if (!file || rest.length > 0) return usage(io, "db:restore <file>");
  const result = await restoreDatabase(file);
  if (!result.ok) {
    io.err(`db:restore: ${result.message}`);
    return 1;
  }
  io.out(`restored ${path.resolve(file)} (${result.bytes} bytes) in ${result.ms} ms: start the store on it`);
  return 0;
}
