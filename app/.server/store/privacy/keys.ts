import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { personalDataKeys } from "../../db/schema";
import { decryptText, encryptText, keyedHash } from "../../data-crypto";

// The key of the NIK's keyed hash (issue 35, decision 0056): 32 random bytes made once per database,
// kept sealed under DATA_ENCRYPTION_KEY in personal_data_keys. Not derived from DATA_ENCRYPTION_KEY:
// a rotation would then change every hash, and for its length the one-NIK-one-incentive index would
// compare hashes made under two keys. Rotation re-seals this row instead (rotation.ts).

export const NIK_HASH_KEY = "nik-hash";
/** What the sealed key is bound to (data-crypto.ts's context): the row's purpose. */
export const keyContext = (purpose: string) => `personal-data-key:${purpose}`;

// Per executor (the database, or one transaction): the key never changes once made.
const cache = new WeakMap<object, Promise<Buffer>>();

export function nikHashKey(db: Executor): Promise<Buffer> {
  let key = cache.get(db);
  if (!key) {
    key = loadOrCreate(db);
    cache.set(db, key);
    key.catch(() => cache.delete(db));
  }
  return key;
}

async function loadOrCreate(db: Executor): Promise<Buffer> {
  const read = async () => {
    const [row] = await db
      .select({ sealed: personalDataKeys.sealed })
      .from(personalDataKeys)
      .where(eq(personalDataKeys.purpose, NIK_HASH_KEY));
    return row ? Buffer.from(decryptText(row.sealed, keyContext(NIK_HASH_KEY)), "base64") : null;
  };
  const existing = await read();
  if (existing) return existing;
  // Two instances may both get here: the first insert wins, both then read the winner's key.
  const fresh = crypto.randomBytes(32).toString("base64");
  await db
    .insert(personalDataKeys)
    .values({ purpose: NIK_HASH_KEY, sealed: encryptText(fresh, keyContext(NIK_HASH_KEY)) })
    .onConflictDoNothing();
  const made = await read();
  if (!made) throw new Error("personal_data_keys: the NIK hash key could not be stored");
  return made;
}

/** The NIK as the same-NIK rules compare it: HMAC-SHA256 under the store's hash key, never the NIK itself. */
export async function nikHashOf(db: Executor, nik: string): Promise<string> {
  return keyedHash(await nikHashKey(db), normaliseNik(nik));
}

/** The NIK as compared and stored: digits as typed, spaces dropped. */
export function normaliseNik(nik: string): string {
  return nik.replace(/\s+/g, "");
}
