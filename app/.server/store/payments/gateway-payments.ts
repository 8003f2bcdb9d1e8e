import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { orders, paymentIncidents, payments } from "../../db/schema";
import { RELEASED_STATUSES } from "~/lib/order-status";
import type { PaymentIncidentKind as IncidentKind } from "~/lib/refunds";
import { createRefund, recordReceipt } from "../refunds";

// The bookkeeping a real gateway needs beside the payments store (decision 0021): which payments the
// reconciliation sweep should ask about, and the incidents an operator must look at (money received
// for an order the store had already closed, an amount that does not match). Order and payment
// status changes stay in settlement.ts (settleGatewayEvent); nothing here moves an order. The charge
// attempts made at the gateway are the gateway adapter's own (gateway/charge-attempts.ts).

export type GatewayPayment = {
  orderId: number;
  type: string;
  total: number;
  createdAt: Date;
  closedAt: Date | null;
  closedReason: string | null;
  statusId: number;
};

/** The payment a gateway's reference names (Midtrans order_id), or null. */
export async function findGatewayPayment(gateway: string, ref: string): Promise<GatewayPayment | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      orderId: payments.orderId,
      type: payments.type,
      total: payments.total,
      createdAt: payments.createdAt,
      closedAt: payments.closedAt,
      closedReason: payments.closedReason,
      statusId: orders.statusId,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.gateway, gateway), eq(payments.gatewayRef, ref)));
  return row ?? null;
}

/** The gateway reference of the user's own open payment of `gateway` for `orderId`, or null. */
export async function findOwnedOpenGatewayRef(gateway: string, orderId: number, userId: number): Promise<string | null> {
  if (![orderId, userId].every((n) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ ref: payments.gatewayRef })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.orderId, orderId), eq(orders.userId, userId), eq(payments.gateway, gateway), isNull(payments.closedAt)));
  return row?.ref ?? null;
}

/** A notification (or a status answer) about the payment arrived: the sweep leaves it alone for a while. */
export async function markGatewayHeard(orderId: number, now = new Date()): Promise<void> {
  const db = await getDb();
  await db.update(payments).set({ gatewayCheckedAt: now }).where(eq(payments.orderId, orderId));
}

/**
 * Open payments of `gateway` the store has heard nothing about since `silentSince`, each CLAIMED by
 * one conditional update (its checked time moves to `now`), so several instances sweeping at once
 * each ask about a payment only once.
 */
export async function claimSilentGatewayPayments(
  gateway: string,
  silentSince: Date,
  now = new Date(),
  limit = 50,
): Promise<{ orderId: number; gatewayRef: string }[]> {
  const db = await getDb();
  const silent = or(isNull(payments.gatewayCheckedAt), lt(payments.gatewayCheckedAt, silentSince));
  const candidates = await db
    .select({ orderId: payments.orderId, gatewayRef: payments.gatewayRef })
    .from(payments)
    .where(and(eq(payments.gateway, gateway), isNull(payments.closedAt), lt(payments.createdAt, silentSince), silent))
    .orderBy(asc(payments.gatewayCheckedAt))
    .limit(limit);
  const claimed: { orderId: number; gatewayRef: string }[] = [];
  for (const candidate of candidates) {
    if (!candidate.gatewayRef) continue;
    const won = await db
      .update(payments)
      .set({ gatewayCheckedAt: now })
      .where(and(eq(payments.orderId, candidate.orderId), isNull(payments.closedAt), silent))
      .returning({ orderId: payments.orderId });
    if (won.length) claimed.push({ orderId: candidate.orderId, gatewayRef: candidate.gatewayRef });
  }
  return claimed;
}

/**
 * Open payments of `gateway` whose order was closed elsewhere (the buyer cancelled, ops rejected):
 * the sweep asks the gateway to stop them before the store closes them (closeStalePayments).
 */
export async function openGatewayPaymentsOfClosedOrders(gateway: string, limit = 50): Promise<{ orderId: number; gatewayRef: string }[]> {
  const db = await getDb();
  const rows = await db
    .select({ orderId: payments.orderId, gatewayRef: payments.gatewayRef })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.gateway, gateway), isNull(payments.closedAt), inArray(orders.statusId, [...RELEASED_STATUSES])))
    .limit(limit);
  return rows.filter((r): r is { orderId: number; gatewayRef: string } => r.gatewayRef !== null);
}

// ————————————————————————————————————————————— incidents for operators

/** The incidents that bring money in (the refunds domain raises the others, decision 0072). */
export type PaymentIncidentKind = Extract<IncidentKind, "paid-after-close" | "amount-mismatch">;
export type PaymentIncident = typeof paymentIncidents.$inferSelect & { invoiceId: string; statusId: number };

/**
 * Records an incident once per gateway reference and kind; true when this call recorded it. The
 * money it reports is received, and all of it is refunded (the order was closed, or the settlement
 * was refused for its amount), in the same transaction (issue 36): the caller's `executor` when it
 * gives one (the settlement's, with the gateway's event row: issue 45 item 5), else its own.
 */
export async function recordPaymentIncident(
  incident: {
    kind: PaymentIncidentKind;
    orderId: number;
    gateway: string;
    gatewayRef: string;
    amount: number | null;
    detail: string;
  },
  executor?: Executor,
): Promise<boolean> {
  const amount = incident.amount !== null && Number.isSafeInteger(incident.amount) ? incident.amount : null;
  const record = async (tx: Executor) => {
    const inserted = await tx
      .insert(paymentIncidents)
      .values({ ...incident, amount, detail: incident.detail.slice(0, 1000) })
      .onConflictDoNothing()
      .returning({ id: paymentIncidents.id });
    if (!inserted.length) return false;
    if (amount !== null && amount > 0) {
      const ref = `incident:${inserted[0]!.id}`;
      await recordReceipt(tx, { orderId: incident.orderId, amount, source: "incident", ref });
      const refund = await createRefund(tx, {
        orderId: incident.orderId,
        amount,
        cause: incident.kind,
        reason:
          incident.kind === "paid-after-close"
            ? "Pembayaran diterima setelah pesanan ditutup"
            : "Jumlah pembayaran tidak sesuai dengan tagihan",
        actor: "gateway",
      });
      if (!refund.ok) throw new Error(`refund of incident ${ref}: ${refund.message}`);
    }
    return true;
  };
  return executor ? record(executor) : (await getDb()).transaction(record);
}

/** The incidents for operators, newest first; `open` (default): those nobody resolved yet. */
export async function listPaymentIncidents(options: { open?: boolean; limit?: number } = {}): Promise<PaymentIncident[]> {
  const db = await getDb();
  const rows = await db
    .select({ incident: paymentIncidents, invoiceId: orders.invoiceId, statusId: orders.statusId })
    .from(paymentIncidents)
    .innerJoin(orders, eq(orders.id, paymentIncidents.orderId))
    .where(options.open === false ? sql`true` : isNull(paymentIncidents.resolvedAt))
    .orderBy(desc(paymentIncidents.createdAt), desc(paymentIncidents.id))
    .limit(options.limit ?? 200);
  return rows.map((r) => ({ ...r.incident, invoiceId: r.invoiceId, statusId: r.statusId }));
}

/** The open incidents for the /ops home's card: how many, and since when the oldest is open. */
export async function openIncidentSummary(): Promise<{ count: number; since: Date | null }> {
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number), since: sql<string | Date | null>`min(${paymentIncidents.createdAt})` })
    .from(paymentIncidents)
    .where(isNull(paymentIncidents.resolvedAt));
  return { count: row?.count ?? 0, since: row?.since ? new Date(row.since) : null };
}

/** An operator dealt with it (refunded, or checked the amount): it leaves the open list. */
export async function resolvePaymentIncident(id: number, now = new Date()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return false;
  const db = await getDb();
  const done = await db
    .update(paymentIncidents)
    .set({ resolvedAt: now })
    .where(and(eq(paymentIncidents.id, id), isNull(paymentIncidents.resolvedAt)))
    .returning({ id: paymentIncidents.id });
  return done.length > 0;
}
