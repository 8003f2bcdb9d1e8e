import { eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { catalogueVersion } from "../../db/schema";
import { env } from "../../env";
import { cached, invalidateCatalogueCache } from "./cache";

// The catalogue's version counter (issue 26 item 9). Every catalogue write bumps the one row of
// catalogue_version in its own transaction; before trusting its in-process cache, an instance on a
// shared PostgreSQL reads that row (a primary-key lookup) and forgets its cache when another instance
// wrote meanwhile. So a change shows on every instance's next request, not after the cache's 30 s.
// PGlite is one process: its writes invalidate the cache directly and the read is skipped.

/** Reads within this window share one query (a burst of page loads costs one lookup, not one each). */
const SHARE_MS = 250;

let seen: number | null = null;
let pending: { at: number; read: Promise<void> } | null = null;

async function readVersion(): Promise<void> {
  const db = await getDb();
  const [row] = await db.select({ version: catalogueVersion.version }).from(catalogueVersion).where(eq(catalogueVersion.id, 1));
  const version = row?.version ?? 0;
  if (seen !== null && version !== seen) invalidateCatalogueCache();
  seen = version;
}

/** Makes sure the cache is not older than the database's catalogue (PostgreSQL only). */
export async function syncCatalogueVersion(): Promise<void> {
  if (!env().databaseUrl) return;
  const now = Date.now();
  if (!pending || now - pending.at > SHARE_MS) {
    const read = readVersion().catch(() => {
      // A failed lookup trusts nothing: the next read asks again, and the cache starts over.
      invalidateCatalogueCache();
      pending = null;
    });
    pending = { at: now, read };
  }
  await pending.read;
}

/** A cached catalogue read, after the version check. */
export async function cachedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  await syncCatalogueVersion();
  return cached(key, read);
}

/** Call inside every catalogue write's transaction; invalidate this process's cache after the commit. */
export async function bumpCatalogueVersion(tx: Executor): Promise<void> {
  await tx
    .insert(catalogueVersion)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: catalogueVersion.id, set: { version: sql`${catalogueVersion.version} + 1` } });
}

/** Runs a catalogue write in one transaction with the version bump, then forgets the local cache. */
export async function catalogueWrite<T>(write: (tx: Executor) => Promise<T>): Promise<T> {
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      const result = await write(tx);
      await bumpCatalogueVersion(tx);
      return result;
    });
  } finally {
    invalidateCatalogueCache();
  }
}
