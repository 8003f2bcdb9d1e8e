import { and, asc, eq, gt, like, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { checkoutDrafts, orders } from "../../db/schema";
import { readSetting, writeSetting } from "../../db/settings";
import { DataDecryptionError, encryptText } from "../../data-crypto";
import { nikContext, openNik, sealDraftNik, type NikOwner } from "./nik";

// Issue 45 item 13: a NIK was sealed under the constant 'nik' until its ciphertext was bound to its
// row (nik.ts). This pass re-seals, once, every NIK still under the constant: it runs at start after
// the sealing of rows in clear (rotation.ts), on PostgreSQL under the start-up lock with the
// migrations (one instance does it, the others wait and find the marker). Each row is re-sealed by a
// conditional update (`… WHERE the value is still what was read`), so a row changed meanwhile, or
// re-sealed by another run, is left as it is: two runs at once do no harm either.

/** The marker in store_settings: set once every row was looked at, so later starts open no NIK. */
export const NIK_BOUND_TO_ROWS = "nik-bound-to-rows";
/** Rows per transaction: at start nothing else runs. */
const BATCH = 200;

/** Rows re-sealed, and rows no key in force opens (left as they are: the start goes on, each such order fails alone as before). */
export type BindCounts = { orders: number; drafts: number; unreadable: number };

/** Re-seals every NIK still under the old constant to its row; null when the marker says it was done. */
export async function bindNiksToTheirRows(db: Db): Promise<BindCounts | null> {
  if (await readSetting(db, NIK_BOUND_TO_ROWS)) return null;
  const counts: BindCounts = { orders: 0, drafts: 0, unreadable: 0 };
  /** The NIK if it is still under the old constant, else null. */
  const legacyNik = (stored: string, owner: NikOwner): string | null => {
    try {
      const opened = openNik(stored, owner);
      return opened.legacy ? opened.nik : null;
    } catch (error) {
      if (!(error instanceof DataDecryptionError)) throw error;
      counts.unreadable++;
      return null;
    }
  };

  for (let after = 0; ;) {
    const batch = await db
      .select({ id: orders.id, buyerNik: orders.buyerNik })
      .from(orders)
      // '' (erased) and a value in clear (sealed at start by rotation.ts) have no context to change.
      .where(and(gt(orders.id, after), like(orders.buyerNik, "pd1.%")))
      .orderBy(asc(orders.id))
      .limit(BATCH);
    if (!batch.length) break;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        const owner = { orderId: row.id };
        const nik = legacyNik(row.buyerNik, owner);
        if (nik === null) continue;
        // The hash does not change: same NIK, same hash key.
        const moved = await tx
          .update(orders)
          .set({ buyerNik: encryptText(nik, nikContext(owner)) })
          .where(and(eq(orders.id, row.id), eq(orders.buyerNik, row.buyerNik)))
          .returning({ id: orders.id });
        counts.orders += moved.length;
      }
    });
    after = batch.at(-1)!.id;
  }

  const draftNik = sql<string>`${checkoutDrafts.values}->>'buyerNik'`;
  for (let after = 0; ;) {
    const batch = await db
      .select({ userId: checkoutDrafts.userId, nik: draftNik })
      .from(checkoutDrafts)
      .where(and(gt(checkoutDrafts.userId, after), sql`${draftNik} like 'pd1.%'`))
      .orderBy(asc(checkoutDrafts.userId))
      .limit(BATCH);
    if (!batch.length) break;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        const nik = legacyNik(row.nik, { draftOf: row.userId });
        if (nik === null) continue;
        const sealed = sealDraftNik(row.userId, nik);
        const moved = await tx
          .update(checkoutDrafts)
          .set({ values: sql`jsonb_set(${checkoutDrafts.values}, '{buyerNik}', to_jsonb(${sealed}::text))` })
          .where(and(eq(checkoutDrafts.userId, row.userId), sql`${draftNik} = ${row.nik}`))
          .returning({ userId: checkoutDrafts.userId });
        counts.drafts += moved.length;
      }
    });
    after = batch.at(-1)!.userId;
  }

  await writeSetting(db, NIK_BOUND_TO_ROWS, true, "start-up");
  return counts;
}
