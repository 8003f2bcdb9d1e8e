import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orders, refundEvents, refunds } from "../../db/schema";
import { checkAccountInput, type AccountErrors, type AccountInput, type RefundState } from "~/lib/refunds";
import { isId, moveRefund, REFUND_NOT_FOUND, REFUND_REFUSED, type RefundMethod } from "./refunds";

// The buyer's side of the refunds domain (issue 36, issue 43 item 5): the refunds of their own
// orders as the order page and the API show them, and the bank details they give or correct. Every
// change still goes through refunds.ts's moveRefund, or one conditional update plus its event row.

export type BuyerRefund = {
  id: number;
  amount: number;
  state: RefundState;
  method: RefundMethod;
  reason: string;
  bankName: string | null;
  accountNumber: string | null;
  accountHolder: string | null;
  transferReference: string | null;
  proofUploadId: string | null;
  failureReason: string | null;
  createdAt: Date;
  refundedAt: Date | null;
};

const buyerColumns = {
  id: refunds.id,
  amount: refunds.amount,
  state: refunds.state,
  method: refunds.method,
  reason: refunds.reason,
  bankName: refunds.bankName,
  accountNumber: refunds.accountNumber,
  accountHolder: refunds.accountHolder,
  transferReference: refunds.transferReference,
  proofUploadId: refunds.proofUploadId,
  failureReason: refunds.failureReason,
  createdAt: refunds.createdAt,
  refundedAt: refunds.refundedAt,
};

/** The refunds of the user's own order, oldest first; [] for anyone else's order. */
export async function listOwnedRefunds(orderId: number, userId: number): Promise<BuyerRefund[]> {
  if (!isId(orderId) || !isId(userId)) return [];
  const db = await getDb();
  return db
    .select(buyerColumns)
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.orderId, orderId), eq(orders.userId, userId)))
    .orderBy(asc(refunds.id));
}

/** For the transaction list's cards: the state of the latest refund of each of these orders (the user's own). */
export async function refundStatesOf(userId: number, orderIds: number[]): Promise<Map<number, RefundState>> {
  const ids = orderIds.filter(isId);
  if (!isId(userId) || !ids.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ orderId: refunds.orderId, state: refunds.state })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(inArray(refunds.orderId, ids), eq(orders.userId, userId)))
    .orderBy(asc(refunds.id));
  return new Map(rows.map((r) => [r.orderId, r.state]));
}

/** Refunds of the user's orders not yet given back (account erasure must wait for them, issue 35). */
export async function openRefundsOf(userId: number): Promise<{ count: number; amount: number }> {
  if (!isId(userId)) return { count: 0, amount: 0 };
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number), amount: sql<number>`coalesce(sum(${refunds.amount}), 0)`.mapWith(Number) })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(orders.userId, userId), sql`${refunds.state} not in ('refunded', 'not-received')`));
  return { count: row?.count ?? 0, amount: row?.amount ?? 0 };
}

export type AccountResult =
  | { ok: true }
  | { ok: false; kind: "invalid"; errors: AccountErrors; message: string }
  | { ok: false; kind: "not-found" | "refused"; message: string };

/**
 * 'Kirim Data Rekening': the buyer's account for a transfer refund of their own order, in
 * 'Menunggu Data Rekening' or 'Gagal Diproses' → 'Sedang Diproses'. In 'Sedang Diproses' (finance
 * has neither transferred nor failed it yet) the same form corrects the details (issue 43 item 5).
 */
export async function submitRefundAccount(refundId: number, userId: number, raw: Record<string, unknown>): Promise<AccountResult> {
  const checked = checkAccountInput(raw);
  if (!checked.ok) return { ok: false, kind: "invalid", errors: checked.errors, message: Object.values(checked.errors)[0]! };
  if (!isId(refundId) || !isId(userId)) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  const db = await getDb();
  const [refund] = await db
    .select({ state: refunds.state, method: refunds.method })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.id, refundId), eq(orders.userId, userId)));
  if (!refund) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  const from = refund.state;
  // While finance checks the money ('Menunggu Konfirmasi Dana') the buyer gives their account
  // already, so nothing waits on them once it is confirmed (issue 45 item 2).
  if (refund.method === "transfer" && (from === "processing" || from === "awaiting-funds"))
    return correctRefundAccount(refundId, userId, checked.value, from);
  if (refund.method !== "transfer" || (from !== "awaiting-account" && from !== "failed"))
    return { ok: false, kind: "refused", message: REFUND_REFUSED };
  const now = new Date();
  const moved = await moveRefund(
    refundId,
    from,
    "processing",
    `buyer:${userId}`,
    { changes: { ...checked.value, accountGivenAt: now, failureReason: null }, note: "Data rekening dikirim", onlyMethod: "transfer" },
    now,
  );
  return moved ? { ok: true } : { ok: false, kind: "refused", message: REFUND_REFUSED };
}

/**
 * A correction of the details while the refund waits for finance: one conditional update (still
 * 'Sedang Diproses', still a transfer, so never after finance marked it transferred or failed) and
 * an event row naming the change for finance's history. The state does not change, so the buyer is
 * not notified of it (they made it). Finance's list and CSV read the row, so they show the new
 * details from then on.
 */
async function correctRefundAccount(
  refundId: number,
  userId: number,
  account: AccountInput,
  state: "processing" | "awaiting-funds",
): Promise<AccountResult> {
  const db = await getDb();
  const now = new Date();
  const corrected = await db.transaction(async (tx) => {
    const moved = await tx
      .update(refunds)
      .set({ ...account, accountGivenAt: now, updatedAt: now })
      .where(and(eq(refunds.id, refundId), eq(refunds.state, state), eq(refunds.method, "transfer")))
      .returning({ id: refunds.id });
    if (!moved.length) return false;
    await tx.insert(refundEvents).values({
      refundId,
      fromState: state,
      toState: state,
      actor: `buyer:${userId}`,
      note: state === "awaiting-funds" ? "Data rekening dikirim" : "Data rekening diubah",
      createdAt: now,
    });
    return true;
  });
  return corrected ? { ok: true } : { ok: false, kind: "refused", message: REFUND_REFUSED };
}
