import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { orderReceipts, orders, payments, refundEvents, refunds, REFUND_CAUSES } from "../../db/schema";
import { isPaidStatus } from "~/lib/order-status";
import { OWED_STATES, type RefundState } from "~/lib/refunds";
import { announceRefundEvent } from "./refund-messages";

// The ONE module through which refunds and the money received change (DESIGN §6 "Money back",
// issue 36). Like the orders: every change of a refund is one conditional update (… WHERE state =
// expected) plus a refund_events row, in one transaction. A refund is created in the transaction of
// the move that causes it (a cancel in 302, a proof rejected after the money arrived, a paid order
// cancelled by the store, money after the order closed), with the order row locked while the
// receipts and the refunds are summed, so concurrent refunds of one order never exceed what came in.

export type RefundCause = (typeof REFUND_CAUSES)[number];
export type RefundMethod = "gateway" | "transfer";
export type Refund = typeof refunds.$inferSelect;

/** DESIGN §6: the states each state may move to. 'Dana Telah Dikembalikan' is terminal. */
export const REFUND_TRANSITIONS: Record<RefundState, RefundState[]> = {
  // A manual transfer's refund: finance confirms the amount on the bank statement (to the account
  // step, or straight to 'Sedang Diproses' when the buyer already gave one), or finds none.
  "awaiting-funds": ["awaiting-account", "processing", "not-received"],
  // The buyer sends their account; or, for a card refund turned into a transfer after the gateway
  // refused it, the gateway gives the money back after all and the transfer stops (decision 0072).
  "awaiting-account": ["processing", "refunded"],
  // Finance transferred (or the gateway refunded), or it failed.
  processing: ["refunded", "failed"],
  refunded: [],
  // The buyer sends (new) details: finance tries again; or the gateway gave it back after all (above).
  failed: ["processing", "refunded"],
  "not-received": [],
};

export const REFUND_REFUSED = "Status pengembalian dana tidak dapat diubah.";
export const REFUND_NOT_FOUND = "Pengembalian dana tidak ditemukan.";
export const REFUND_ABOVE_RECEIVED = "Jumlah pengembalian melebihi dana yang diterima untuk pesanan ini.";

// ————————————————————————————————————————————— money received

/**
 * Records money received for an order, once per `ref` (inside the caller's transaction). Returns
 * true when this call recorded it.
 */
export async function recordReceipt(
  tx: Executor,
  receipt: { orderId: number; amount: number; source: "payment" | "transfer-confirmed" | "incident"; ref: string },
): Promise<boolean> {
  if (!Number.isSafeInteger(receipt.amount) || receipt.amount <= 0) return false;
  const [payment] = await tx.select({ type: payments.type }).from(payments).where(eq(payments.orderId, receipt.orderId));
  const inserted = await tx
    .insert(orderReceipts)
    .values({ ...receipt, ref: receipt.ref.slice(0, 200), methodType: payment?.type ?? null })
    .onConflictDoNothing({ target: orderReceipts.ref })
    .returning({ id: orderReceipts.id });
  return inserted.length > 0;
}

/**
 * The payment of an order arrived: what it asked is received, once per order. Called by the money
 * events themselves (a gateway's settlement, a proof verified against the statement, an issuer's
 * approval), never by a status change (issue 45 item 4).
 */
export async function recordPaymentReceipt(tx: Executor, orderId: number): Promise<void> {
  const [order] = await tx
    .select({ asked: sql<number>`coalesce(${payments.total}, ${orders.paymentTotal}, ${orders.totalAmount})`.mapWith(Number) })
    .from(orders)
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.id, orderId));
  if (order) await recordReceipt(tx, { orderId, amount: order.asked, source: "payment", ref: `order:${orderId}:paid` });
}

/** What was received for an order and what was (or is being) given back, read inside `tx`. */
async function moneyOf(tx: Executor, orderId: number): Promise<{ received: number; payment: number; refunded: number }> {
  const [received] = await tx
    .select({
      total: sql<number>`coalesce(sum(${orderReceipts.amount}), 0)`.mapWith(Number),
      payment: sql<number>`coalesce(sum(${orderReceipts.amount}) filter (where ${orderReceipts.source} = 'payment'), 0)`.mapWith(Number),
    })
    .from(orderReceipts)
    .where(eq(orderReceipts.orderId, orderId));
  // Only refunds the store owes: one waiting for finance to confirm its money, or closed because
  // none came, has no receipt behind it and owes nothing.
  const [refunded] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)`.mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), inArray(refunds.state, [...OWED_STATES])));
  return { received: received?.total ?? 0, payment: received?.payment ?? 0, refunded: refunded?.total ?? 0 };
}

// ————————————————————————————————————————————— creating a refund

export type CreateRefundResult = { ok: true; refundId: number; amount: number } | { ok: false; message: string };

/**
 * Creates a refund of `amount` (or, 'rest', all that was received and not yet refunded) inside the
 * caller's transaction. The order row is locked first, so a concurrent refund of the same order
 * waits and then sees this one: the sum of refunds never exceeds the receipts. A card payment made
 * at a gateway goes back through the gateway's refund API ('Sedang Diproses' at once); every other
 * payment by bank transfer to an account the buyer gives ('Menunggu Data Rekening').
 */
export async function createRefund(
  tx: Executor,
  input: { orderId: number; amount: number | "rest"; cause: RefundCause; reason: string; actor: string },
  now = new Date(),
): Promise<CreateRefundResult> {
  const [order] = await tx.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, input.orderId)).for("update");
  if (!order) return { ok: false, message: REFUND_NOT_FOUND };
  const money = await moneyOf(tx, input.orderId);
  // A paid order on its way to the buyer keeps its payment: only money beyond it may go back.
  const kept = isPaidStatus(order.statusId) ? money.payment : 0;
  const left = money.received - kept - money.refunded;
  const amount = input.amount === "rest" ? left : input.amount;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left) return { ok: false, message: REFUND_ABOVE_RECEIVED };
  const [payment] = await tx
    .select({ type: payments.type, gateway: payments.gateway, gatewayRef: payments.gatewayRef })
    .from(payments)
    .where(eq(payments.orderId, input.orderId));
  // Midtrans refunds card payments only (not bank transfer/VA): a card instalment goes back through it.
  const byGateway = payment?.type === "installment" && payment.gatewayRef !== null;
  const method: RefundMethod = byGateway ? "gateway" : "transfer";
  const state: RefundState = byGateway ? "processing" : "awaiting-account";
  const refundId = await insertRefund(
    tx,
    {
      orderId: input.orderId,
      amount,
      cause: input.cause,
      reason: input.reason.slice(0, 1000),
      method,
      state,
      gateway: byGateway ? payment.gateway : null,
      gatewayRef: byGateway ? payment.gatewayRef : null,
    },
    input.actor,
    now,
  );
  return { ok: true, refundId, amount };
}

/**
 * A manual transfer the buyer says they made (a cancel in 302) or an operator says arrived (a proof
 * rejected with 'Dana diterima'): the store has not seen it on its statement, so nothing is
 * received yet. A transfer refund 'Menunggu Konfirmasi Dana' of what the payment asked is created
 * in the caller's transaction; finance confirms the amount that arrived (confirm-funds.ts), which
 * records the receipt and makes the refund owed. Once per order while one waits (the order row is
 * locked first).
 */
export async function createAwaitingFundsRefund(
  tx: Executor,
  input: { orderId: number; cause: RefundCause; reason: string; actor: string },
  now = new Date(),
): Promise<CreateRefundResult> {
  const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId)).for("update");
  if (!order) return { ok: false, message: REFUND_NOT_FOUND };
  const [waiting] = await tx
    .select({ id: refunds.id, amount: refunds.amount })
    .from(refunds)
    .where(and(eq(refunds.orderId, input.orderId), eq(refunds.state, "awaiting-funds")));
  if (waiting) return { ok: true, refundId: waiting.id, amount: waiting.amount };
  const [payment] = await tx.select({ total: payments.total }).from(payments).where(eq(payments.orderId, input.orderId));
  if (!payment || payment.total <= 0) return { ok: false, message: REFUND_NOT_FOUND };
  const refundId = await insertRefund(
    tx,
    {
      orderId: input.orderId,
      amount: payment.total,
      expectedAmount: payment.total,
      cause: input.cause,
      reason: input.reason.slice(0, 1000),
      method: "transfer",
      state: "awaiting-funds",
    },
    input.actor,
    now,
  );
  return { ok: true, refundId, amount: payment.total };
}

/** A new refund row and its first event (its reason as the note), announced to the buyer; its id. */
async function insertRefund(
  tx: Executor,
  values: Omit<typeof refunds.$inferInsert, "createdAt" | "updatedAt"> & { state: RefundState; reason: string },
  actor: string,
  now: Date,
): Promise<number> {
  const [created] = await tx
    .insert(refunds)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning({ id: refunds.id });
  const [event] = await tx
    .insert(refundEvents)
    .values({
      refundId: created!.id,
      fromState: null,
      toState: values.state,
      actor: actor.slice(0, 100),
      note: values.reason,
      createdAt: now,
    })
    .returning({ id: refundEvents.id });
  await announceRefundEvent(tx, event!.id);
  return created!.id;
}

// ————————————————————————————————————————————— moving a refund

type Changes = Partial<
  Pick<
    typeof refunds.$inferInsert,
    | "bankName"
    | "accountNumber"
    | "accountHolder"
    | "accountGivenAt"
    | "transferReference"
    | "proofUploadId"
    | "failureReason"
    | "refundedAt"
    | "method"
    | "amount"
    | "fundsConfirmedAt"
    | "fundsConfirmedBy"
    | "fundsNote"
  >
>;

/**
 * One conditional update (WHERE state = from) plus its event row, in one transaction; `onMoved`
 * runs in it (the audit row). Refused (false) when the refund is not in `from` any more.
 */
export async function moveRefund(
  refundId: number,
  from: RefundState,
  to: RefundState,
  actor: string,
  options: {
    changes?: Changes;
    note?: string;
    onlyMethod?: RefundMethod;
    /** A further condition of the update (finance's transfer: the account it was made to is still the refund's). */
    onlyWhile?: SQL;
    onMoved?: (tx: Executor) => Promise<void>;
  } = {},
  now = new Date(),
): Promise<boolean> {
  if (!isId(refundId) || !REFUND_TRANSITIONS[from].includes(to)) return false;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const conditions = [eq(refunds.id, refundId), eq(refunds.state, from)];
    if (options.onlyMethod) conditions.push(eq(refunds.method, options.onlyMethod));
    if (options.onlyWhile) conditions.push(options.onlyWhile);
    const moved = await tx
      .update(refunds)
      .set({ ...options.changes, state: to, updatedAt: now })
      .where(and(...conditions))
      .returning({ id: refunds.id });
    if (!moved.length) return false;
    const [event] = await tx
      .insert(refundEvents)
      .values({
        refundId,
        fromState: from,
        toState: to,
        actor: actor.slice(0, 100),
        note: options.note?.slice(0, 1000) ?? null,
        createdAt: now,
      })
      .returning({ id: refundEvents.id });
    await options.onMoved?.(tx);
    await announceRefundEvent(tx, event!.id);
    return true;
  });
}

export const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;

// ————————————————————————————————————————————— reading for finance

export type OpsRefund = Refund & { invoiceId: string; orderStatusId: number };

/** How many refunds finance's list shows at most (the page's tabs and the CLI's `refunds:list`). */
export const REFUND_LIST_LIMIT = 200;

export async function listRefundsForOps(options: { state?: RefundState; limit?: number } = {}): Promise<OpsRefund[]> {
  const db = await getDb();
  const rows = await db
    .select({ refund: refunds, invoiceId: orders.invoiceId, orderStatusId: orders.statusId })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(options.state ? eq(refunds.state, options.state) : undefined)
    // A queue to work (awaiting, processing, failed) reads oldest first; what was given back and the
    // whole list read newest first, so that what just happened is on top even when the list is cut.
    .orderBy(
      ...(options.state === "refunded"
        ? [desc(refunds.refundedAt), desc(refunds.id)]
        : options.state
          ? [asc(refunds.createdAt), asc(refunds.id)]
          : [desc(refunds.createdAt), desc(refunds.id)]),
    )
    .limit(options.limit ?? REFUND_LIST_LIMIT);
  return rows.map((r) => ({ ...r.refund, invoiceId: r.invoiceId, orderStatusId: r.orderStatusId }));
}

/**
 * Per state: how many, how much, and since when the longest of them has been in that state (its
 * `updated_at` moves with each change of state): the /ops home's 'Sedang Diproses' card says how
 * long a transfer has waited for finance.
 */
export async function refundCounts(): Promise<Record<RefundState, { count: number; amount: number; since: Date | null }>> {
  const db = await getDb();
  const rows = await db
    .select({
      state: refunds.state,
      count: sql<number>`count(*)`.mapWith(Number),
      amount: sql<number>`coalesce(sum(${refunds.amount}), 0)`.mapWith(Number),
      since: sql<string | Date | null>`min(${refunds.updatedAt})`,
    })
    .from(refunds)
    .groupBy(refunds.state);
  const counts: Record<RefundState, { count: number; amount: number; since: Date | null }> = {
    "awaiting-funds": { count: 0, amount: 0, since: null },
    "not-received": { count: 0, amount: 0, since: null },
    "awaiting-account": { count: 0, amount: 0, since: null },
    processing: { count: 0, amount: 0, since: null },
    refunded: { count: 0, amount: 0, since: null },
    failed: { count: 0, amount: 0, since: null },
  };
  for (const r of rows) counts[r.state] = { count: r.count, amount: r.amount, since: r.since ? new Date(r.since) : null };
  return counts;
}

export async function getRefund(refundId: number): Promise<Refund | null> {
  if (!isId(refundId)) return null;
  const db = await getDb();
  const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  return row ?? null;
}

export async function refundEventsOf(refundId: number) {
  const db = await getDb();
  return db.select().from(refundEvents).where(eq(refundEvents.refundId, refundId)).orderBy(asc(refundEvents.id));
}

/** The invoice of a refund's order: how finance's pages name a refund (its own id means nothing to them). */
export async function refundInvoice(refundId: number): Promise<string | null> {
  if (!isId(refundId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ invoiceId: orders.invoiceId })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.id, refundId));
  return row?.invoiceId ?? null;
}

/** The buyer whose order a refund belongs to (finance's proof image is stored as theirs, so they may open it). */
export async function refundOwner(refundId: number): Promise<number | null> {
  if (!isId(refundId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ userId: orders.userId })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.id, refundId));
  return row?.userId ?? null;
}
