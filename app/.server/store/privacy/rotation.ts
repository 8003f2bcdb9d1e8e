import { and, asc, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { addStartupTask, getDb, type Db, type Executor } from "../../db/client";
import { checkoutDrafts, orders, personalDataKeys, uploads } from "../../db/schema";
import { dataKeyring, decryptText, encryptText } from "../../data-crypto";
import { log } from "../../log";
import { queryRows } from "../../db/query-rows";
import { keyContext } from "./keys";
import { bindNiksToTheirRows } from "./nik-binding";
import { readNik, sealDraftNik, sealNik } from "./nik";
import { openUpload, sealUpload } from "./uploads";

// Sealing personal data under the current key (issue 35, decision 0056), in small batches, each in a
// short transaction of conditional updates (`… WHERE the value is still what was read`), so the server
// serves between them and a row changed meanwhile is simply left for the next pass.
// - scope 'clear': rows stored before encryption existed (at every start, see the end of this file);
// - scope 'all': also rows sealed under an older key (`npm run ops -- data:rotate-key`).

export type SealScope = "clear" | "all";
export type SealCounts = { keys: number; orders: number; drafts: number; uploads: number };

/** Rows per transaction. At start nothing else runs: large batches. */
type Batches = { orders: number; uploads: number };
// Uploads are up to 2 MB each: a batch stays a few MB in memory.
const AT_START: Batches = { orders: 200, uploads: 10 };
// While the store serves, each batch holds PGlite's one connection: small enough that a request
// waits a fraction of a second, not seconds (200 orders per batch gave a p99 of 12 s under
// bench:load traffic, issue 35).
const WHILE_SERVING: Batches = { orders: 20, uploads: 2 };

/** Seals every row the scope names; returns how many rows of each kind were (re)sealed. */
export async function sealPersonalData(
  db: Db,
  scope: SealScope,
  options: { pauseMs?: number; batches?: Batches } = {},
): Promise<SealCounts> {
  const batches = options.batches ?? AT_START;
  const current = dataKeyring().current.id;
  // While serving, each batch is followed by a pause at least as long as the batch held the
  // connection: PGlite runs in the server's own thread, so the requests get at least half of it,
  // whatever a batch costs. (Measured inside the transaction: the time spent waiting for the
  // connection behind the requests is theirs, not the batch's.)
  let held = 0;
  const holding = async <T>(work: (tx: Executor) => Promise<T>) =>
    db.transaction(async (tx) => {
      const started = performance.now();
      try {
        return await work(tx);
      } finally {
        held = performance.now() - started;
      }
    });
  const pause = async () => {
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, Math.max(options.pauseMs!, held)));
  };
  const counts: SealCounts = { keys: 0, orders: 0, drafts: 0, uploads: 0 };
  const notCurrent = (column: typeof orders.buyerNik | typeof personalDataKeys.sealed) =>
    scope === "all" ? sql`${column} not like ${`pd1.${current}.%`}` : sql`${column} not like 'pd1.%'`;

  // The store's own keys first: the NIK hash key must open before any order is hashed.
  for (const row of await db.select().from(personalDataKeys).where(notCurrent(personalDataKeys.sealed))) {
    const clear = decryptText(row.sealed, keyContext(row.purpose));
    await db
      .update(personalDataKeys)
      .set({ sealed: encryptText(clear, keyContext(row.purpose)) })
      .where(and(eq(personalDataKeys.purpose, row.purpose), eq(personalDataKeys.sealed, row.sealed)));
    counts.keys++;
  }

  for (let after = 0; ;) {
    const batch = await db
      .select({ id: orders.id, buyerNik: orders.buyerNik, buyerNikHash: orders.buyerNikHash })
      .from(orders)
      // An erased order's NIK is '' (store/privacy/erasure.ts): nothing to seal, and its kept hash
      // (an incentive's, issue 45 item 9) must not become the hash of ''.
      .where(and(gt(orders.id, after), ne(orders.buyerNik, ""), or(notCurrent(orders.buyerNik), isNull(orders.buyerNikHash))))
      .orderBy(asc(orders.id))
      .limit(batches.orders);
    if (!batch.length) break;
    await holding(async (tx) => {
      for (const row of batch) {
        // Read with the row (or the old constant 'nik'), sealed bound to the row (issue 45 item 13).
        const sealed = await sealNik(tx, row.id, readNik(row.buyerNik, { orderId: row.id }));
        await tx
          .update(orders)
          .set(sealed)
          .where(and(eq(orders.id, row.id), eq(orders.buyerNik, row.buyerNik)));
      }
    });
    counts.orders += batch.length;
    after = batch.at(-1)!.id;
    await pause();
  }

  const draftNik = sql<string>`${checkoutDrafts.values}->>'buyerNik'`;
  for (let after = 0; ;) {
    const batch = await db
      .select({ userId: checkoutDrafts.userId, nik: draftNik })
      .from(checkoutDrafts)
      .where(
        and(
          gt(checkoutDrafts.userId, after),
          sql`${draftNik} <> ''`,
          scope === "all" ? sql`${draftNik} not like ${`pd1.${current}.%`}` : sql`${draftNik} not like 'pd1.%'`,
        ),
      )
      .orderBy(asc(checkoutDrafts.userId))
      .limit(batches.orders);
    if (!batch.length) break;
    await holding(async (tx) => {
      for (const row of batch) {
        const sealed = sealDraftNik(row.userId, readNik(row.nik, { draftOf: row.userId }));
        await tx
          .update(checkoutDrafts)
          .set({ values: sql`jsonb_set(${checkoutDrafts.values}, '{buyerNik}', to_jsonb(${sealed}::text))` })
          .where(and(eq(checkoutDrafts.userId, row.userId), sql`${draftNik} = ${row.nik}`));
      }
    });
    counts.drafts += batch.length;
    after = batch.at(-1)!.userId;
    await pause();
  }

  for (let after = ""; ;) {
    const batch = await db
      .select({ id: uploads.id, bytes: uploads.bytes, keyId: uploads.keyId })
      .from(uploads)
      .where(
        and(
          gt(uploads.id, after),
          isNull(uploads.deletedAt),
          scope === "all" ? or(isNull(uploads.keyId), ne(uploads.keyId, current)) : isNull(uploads.keyId),
        ),
      )
      .orderBy(asc(uploads.id))
      .limit(batches.uploads);
    if (!batch.length) break;
    await holding(async (tx) => {
      for (const row of batch) {
        const sealed = sealUpload(row.id, openUpload(row));
        const sameKey = row.keyId === null ? isNull(uploads.keyId) : eq(uploads.keyId, row.keyId);
        await tx
          .update(uploads)
          .set(sealed)
          .where(and(eq(uploads.id, row.id), sameKey, isNull(uploads.deletedAt)));
      }
    });
    counts.uploads += batch.length;
    after = batch.at(-1)!.id;
    await pause();
  }
  return counts;
}

/**
 * `npm run ops -- data:rotate-key`: everything under the first DATA_ENCRYPTION_KEY, while the server
 * serves (a short pause between batches gives PGlite's one connection back to the requests).
 */
export async function rotatePersonalDataKey(): Promise<SealCounts & { keyId: string }> {
  const counts = await sealPersonalData(await getDb(), "all", { pauseMs: 10, batches: WHILE_SERVING });
  return { ...counts, keyId: dataKeyring().current.id };
}

/** How many rows are not yet under the current key (the rotate command's check, the tests). */
export async function rowsNotUnderCurrentKey(db: Executor): Promise<number> {
  const current = `pd1.${dataKeyring().current.id}.%`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`
    select (select count(*) from ${orders} where ${orders.buyerNik} <> '' and (${orders.buyerNik} not like ${current} or ${orders.buyerNikHash} is null))
         + (select count(*) from ${uploads} where ${uploads.deletedAt} is null and ${uploads.keyId} is distinct from ${dataKeyring().current.id})
         + (select count(*) from ${personalDataKeys} where ${personalDataKeys.sealed} not like ${current})
         + (select count(*) from ${checkoutDrafts} where coalesce(${checkoutDrafts.values}->>'buyerNik', '') <> '' and ${checkoutDrafts.values}->>'buyerNik' not like ${current})
      as n`,
  );
  return Number(row?.n ?? 0);
}

// Rows stored before this release (or by a bench writing SQL directly) are sealed at start, after the
// migrations and under the start-up lock: a migration cannot, it has no DATA_ENCRYPTION_KEY.
// Then, once, the NIKs sealed under the old constant 'nik' bound to their rows (nik-binding.ts).
addStartupTask(async (db) => {
  const counts = await sealPersonalData(db, "clear");
  if (counts.orders || counts.drafts || counts.uploads) log.info(counts, "personal data stored in clear sealed at start");
  const bound = await bindNiksToTheirRows(db);
  if (bound) log.info(bound, "NIKs sealed under the old constant bound to their rows at start");
});
