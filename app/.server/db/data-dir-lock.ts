import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// PGlite is PostgreSQL inside this process: two processes opening the same data directory would
// both write its files and corrupt it. Whoever opens PGlite takes DATA_DIR/pglite.lock (its pid);
// a second process gets a clear message instead. A lock whose process is gone (kill -9, a crash,
// power loss) is stale and taken over. The running server also serves the ops CLI over a socket
// (app/.server/ops/channel.ts), so operators never need to open the database themselves.
// A lock written on another host (another container sharing the volume) cannot be checked by pid:
// it counts as live, except a server's whose socket no longer answers (that server is gone).

export type LockRole = "server" | "ops" | "process";
export type LockOwner = { pid: number; role: LockRole; since: string; procStart: string | null; host: string | null };

export const LOCK_FILE = "pglite.lock";

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    const who = owner.role === "server" ? "the store server" : owner.role === "ops" ? "an ops command" : "another process";
    const foreign = owner.host !== null && owner.host !== os.hostname();
    super(
      `The database in ${dataDir} is in use by ${who} (pid ${owner.pid}${foreign ? ` on host ${owner.host}` : ""}, since ${owner.since}). ` +
        `PGlite allows one process at a time: stop that process, or run ops commands while the server runs (they go through its socket).` +
        (foreign ? ` If that process is certainly gone, delete ${lockPath(dataDir)}.` : ""),
    );
    this.name = "DataDirLockedError";
  }
}

let role: LockRole = "process";
/** What this process is, written into the lock so that the ops CLI knows whom it meets. */
export function setLockRole(next: LockRole) {
  role = next;
}

export const lockPath = (dataDir: string) => path.join(dataDir, LOCK_FILE);

/** Linux: the start time of a process (field 22 of /proc/<pid>/stat), so a reused pid is not mistaken for the owner. */
function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner, foreignHolderGone = false): boolean {
  if (owner.host !== null && owner.host !== os.hostname()) return !foreignHolderGone;
  // This process never holds a lock it does not know about: a lock with our pid is from an
  // earlier life of a container (pid 1 again) and is stale.
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user — alive.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (owner.procStart) {
    const now = processStart(owner.pid);
    if (now !== null && now !== owner.procStart) return false;
  }
  return true;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid !== "number" || !Number.isSafeInteger(value.pid) || value.pid <= 0) return null;
    return {
      pid: value.pid,
      role: value.role ?? "process",
      since: value.since ?? "?",
      procStart: value.procStart ?? null,
      host: value.host ?? null,
    };
  } catch {
    return null;
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The live owner of the data directory's lock, or null when it is free or stale. */
export function liveLockOwner(dataDir: string): LockOwner | null {
  const text = readText(lockPath(dataDir));
  const owner = text === null ? null : parseOwner(text);
  return owner && isAlive(owner) ? owner : null;
}

/**
 * True when the lock was written on another host by a server whose socket (DATA_DIR/ops.sock, on the
 * shared volume) no longer accepts connections: that server is gone and its lock is stale.
 */
export async function foreignServerGone(dataDir: string): Promise<boolean> {
  const text = readText(lockPath(dataDir));
  const owner = text === null ? null : parseOwner(text);
  if (!owner || owner.host === null || owner.host === os.hostname() || owner.role !== "server") return false;
  return new Promise((resolve) => {
    const conn = net.createConnection(path.join(dataDir, "ops.sock"));
    conn.setTimeout(2_000, () => conn.destroy());
    conn.on("connect", () => {
      conn.destroy();
      resolve(false);
    });
    conn.on("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED" || error.code === "ENOENT"));
    conn.on("close", () => resolve(false));
  });
}

const held = new Map<string, string>();

/**
 * Takes the lock of `dataDir` for this process; returns its release. Throws DataDirLockedError when
 * a live process holds it (including this process: one PGlite per directory).
 */
export function acquireDataDirLock(dataDir: string, options: { foreignHolderGone?: boolean } = {}): () => void {
  const file = lockPath(dataDir);
  if (held.has(file)) throw new DataDirLockedError(dataDir, parseOwner(held.get(file)!)!);
  const mine = JSON.stringify({
    pid: process.pid,
    role,
    since: new Date().toISOString(),
    procStart: processStart(process.pid),
    host: os.hostname(),
  } satisfies LockOwner);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // O_EXCL: of two processes starting at once, exactly one creates the file.
      fs.writeFileSync(file, mine, { flag: "wx", mode: 0o600 });
      held.set(file, mine);
      return () => release(file, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const text = readText(file);
    if (text === null) continue; // released in between: try again
    const owner = parseOwner(text);
    if (!owner && attempt < 2) {
      // Being written this very moment by its creator: look again shortly.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      continue;
    }
    if (owner && isAlive(owner, options.foreignHolderGone)) throw new DataDirLockedError(dataDir, owner);
    takeOverStale(file, text);
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing. Is another process starting on ${dataDir}?`);
}

/** Moves a stale lock aside (rename is atomic); if what moved was not the stale one, puts it back. */
function takeOverStale(file: string, staleText: string) {
  const aside = `${file}.stale-${process.pid}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = readText(aside);
  if (moved !== staleText) {
    // Another process took the stale lock over and wrote its own between our read and rename.
    try {
      fs.linkSync(aside, file);
    } catch {
      /* someone created a new lock meanwhile; theirs stands */
    }
  }
  fs.rmSync(aside, { force: true });
}

function release(file: string, mine: string) {
  if (held.get(file) !== mine) return;
  held.delete(file);
  // Only our own lock: never remove one a later process took over.
  if (readText(file) === mine) fs.rmSync(file, { force: true });
}

// A process that exits without closing the database (an uncaught error in a script) leaves no lock.
process.once("exit", () => {
  for (const [file, mine] of held) if (readText(file) === mine) fs.rmSync(file, { force: true });
});
