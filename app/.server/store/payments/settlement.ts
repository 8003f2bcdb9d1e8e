import { and, eq, isNull, lte } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { orders, payments, orderEvents, webhookEvents } from "../../db/schema";
import { gatewayNamed, type GatewayClosing, type GatewayEvent } from "../../gateway";
import { recordPaymentIncident } from "./gateway-payments";
import { log } from "../../log";
import { closeStalePayments } from "./open";
import { transitionOrder } from "../orders";
import { recordPaymentReceipt } from "../refunds";
import { isId } from "./methods";
import { isPaidStatus, isReleasedStatus, ORDER_STATUS as S } from "~/lib/order-status";

// How a payment ends: the gateway's settlements, and expiry (on read, by the sweep). The two call
// each other (an expiry asks the gateway, which may report a payment made at the last minute; a
// gateway's 'expired' closes the order), so they live together.
// ————————————————————————————————————————————— settlements from the gateway

export type { GatewayEvent };
export type SettlementOutcome = "settled" | "already-paid" | "order-closed" | "ignored" | "expired";
export type SettlementResult =
  | { status: 200; outcome: SettlementOutcome; replay: boolean; orderId: number }
  | { status: 404; error: "unknown-va" }
  | { status: 422; error: "amount-mismatch"; orderId: number; total: number };

const eventNote = (eventId: string) => `webhook ${eventId}`;

/**
 * A verified `payment.paid` event (webhook.ts checked the signature). Unknown VA → 404, an amount
 * other than the payment's total → 422; both change nothing and are not recorded. Otherwise the
 * event is recorded once under its id: the first delivery of a payment moves 200 → 300 through
 * transitionOrder (actor 'gateway'); a replay of the same id answers 200 again and changes nothing;
 * an event for an expired or cancelled order is recorded and changes nothing.
 */
export async function settleGatewayEvent(event: GatewayEvent, now = new Date()): Promise<SettlementResult> {
  const db = await getDb();
  const [earlier] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
  if (earlier) {
    if (earlier.orderId === null) return { status: 404, error: "unknown-va" };
    return { status: 200, outcome: earlier.outcome, replay: true, orderId: earlier.orderId };
  }
  // Midtrans's events name its order_id (gatewayRef); the sandbox's name the VA.
  const [payment] = await db
    .select({
      orderId: payments.orderId,
      total: payments.total,
      expiresAt: payments.expiresAt,
      closedAt: payments.closedAt,
      gateway: payments.gateway,
    })
    .from(payments)
    .where(
      event.gatewayRef
        ? eq(payments.gatewayRef, event.gatewayRef)
        : and(eq(payments.vaNumber, event.vaNumber ?? ""), eq(payments.type, "virtual_account")),
    );
  if (!payment) return { status: 404, error: "unknown-va" };
  const orderId = payment.orderId;
  const settles = event.type === "payment.paid";
  if (settles && event.amount !== payment.total) return { status: 422, error: "amount-mismatch", orderId, total: payment.total };

  const record = async (outcome: SettlementOutcome, overwrite = false, executor: Executor = db): Promise<SettlementResult> => {
    const amount = Number.isSafeInteger(event.amount) ? event.amount : payment.total;
    const values = {
      id: event.id,
      type: event.type,
      vaNumber: event.vaNumber,
      gatewayRef: event.gatewayRef ?? null,
      amount,
      paidAt: event.paidAt,
      orderId,
      outcome,
      receivedAt: now,
    };
    const query = executor.insert(webhookEvents).values(values);
    // The delivery that settled overwrites what a concurrent duplicate may have written first.
    const inserted = overwrite
      ? await query.onConflictDoUpdate({ target: webhookEvents.id, set: { outcome, orderId } }).returning({ id: webhookEvents.id })
      : await query.onConflictDoNothing().returning({ id: webhookEvents.id });
    return { status: 200, outcome, replay: inserted.length === 0, orderId };
  };

  // Money for an order the store had closed (expired, cancelled): recorded once per event as an
  // incident, whose money is received and refunded (issue 36). The event's row and the incident with
  // its refund are one transaction: a crash between them, then the gateway's retry, found the event
  // and stopped before the refund (issue 45 item 5).
  const paidAfterClose = (): Promise<SettlementResult> =>
    db.transaction(async (tx) => {
      const recorded = await record("order-closed", false, tx);
      if (recorded.status === 200 && !recorded.replay)
        await recordPaymentIncident(
          {
            kind: "paid-after-close",
            orderId,
            gateway: payment.gateway,
            // Midtrans's events name its order_id; the sandbox's only the event.
            gatewayRef: event.gatewayRef ?? event.id,
            amount: Number.isSafeInteger(event.amount) && event.amount > 0 ? event.amount : null,
            detail: `${payment.gateway} reports ${event.amount} paid (event ${event.id}${event.paidAt ? `, paid at ${event.paidAt.toISOString()}` : ""}) after the store closed the order: refund it.`,
          },
          tx,
        );
      return recorded;
    });

  const [order] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  let statusId = order?.statusId ?? 0;

  if (event.type === "payment.expired") {
    // The gateway closed it (expire, cancel, deny, failure): the order expires as the store's own expiry does.
    if (statusId !== S.AWAITING_PAYMENT && statusId !== S.INSTALLMENT_REVIEW)
      return record(isReleasedStatus(statusId) ? "order-closed" : "ignored");
    const expired = await expirePayment(orderId, {
      from: statusId,
      gatewayClosed: true,
      note: `Pembayaran ditutup oleh gateway (${eventNote(event.id)})`,
    });
    return record(expired ? "expired" : "ignored");
  }
  if (!settles) return record("ignored");

  // A card instalment paid at the gateway (Midtrans Snap) waits in 301 rather than 200.
  if (statusId === S.AWAITING_PAYMENT || (statusId === S.INSTALLMENT_REVIEW && event.gatewayRef)) {
    const from = statusId;
    if (from === S.AWAITING_PAYMENT && !event.gatewayEnforcesDeadline && payment.expiresAt && payment.expiresAt <= now) {
      // Paid after the deadline: the payment is expired (as the sweep would have done); nothing is settled.
      await expirePayment(orderId);
      return paidAfterClose();
    }
    // The settlement is the money event: its amount (the payment's total, checked above) is received
    // in the transaction of the move (issue 45 item 4).
    const moved = await transitionOrder(orderId, from, S.PAYMENT_RECEIVED, "gateway", eventNote(event.id), {
      onMoved: (tx) => recordPaymentReceipt(tx, orderId),
    });
    if (moved.ok) {
      await db
        .update(payments)
        .set({ paidAt: event.paidAt ?? now, closedAt: now, closedReason: "paid" })
        .where(eq(payments.orderId, orderId));
      const settled = await record("settled", true);
      return { ...settled, replay: false } as SettlementResult;
    }
    const [again] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
    statusId = again?.statusId ?? 0;
  }
  if (isPaidStatus(statusId)) {
    // Was it this very event (a concurrent duplicate delivery) that paid it? The transition's note says.
    const [byThisEvent] = await db
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(
        and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, S.PAYMENT_RECEIVED), eq(orderEvents.note, eventNote(event.id))),
      );
    if (byThisEvent) return { status: 200, outcome: "settled", replay: true, orderId };
    return record("already-paid");
  }
  if (isReleasedStatus(statusId)) return paidAfterClose();
  return record("ignored");
}

/** For 'Bayar (Sandbox)': the user's own open virtual-account payment awaiting payment, or null. */
export async function getOpenVaPayment(
  orderId: number,
  userId: number,
): Promise<{ orderId: number; vaNumber: string; total: number } | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ orderId: payments.orderId, vaNumber: payments.vaNumber, total: payments.total })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.orderId, orderId),
        eq(orders.userId, userId),
        eq(orders.statusId, S.AWAITING_PAYMENT),
        eq(payments.type, "virtual_account"),
        isNull(payments.closedAt),
      ),
    );
  return row?.vaNumber ? { orderId: row.orderId, vaNumber: row.vaNumber, total: row.total } : null;
}

// ————————————————————————————————————————————— expiry

/**
 * Expires one order's payment: 200 → 2 through transitionOrder (the stock unit returns there), then
 * the payment closes. Only the caller whose transition happened closes it, so a settlement racing
 * with the expiry leaves exactly one of the two.
 */
export async function expirePayment(
  orderId: number,
  options: { from?: typeof S.AWAITING_PAYMENT | typeof S.INSTALLMENT_REVIEW; gatewayClosed?: boolean; note?: string } = {},
): Promise<boolean> {
  if (!options.gatewayClosed) {
    // A real gateway stops the payment first; one it reports paid meanwhile is settled instead.
    const closing = await closeAtGateway(orderId);
    if (closing.kind === "settled") {
      await settleGatewayEvent(closing.event);
      return false;
    }
    if (closing.kind === "unreachable") return false;
  }
  const moved = await transitionOrder(
    orderId,
    options.from ?? S.AWAITING_PAYMENT,
    S.EXPIRED_OR_REJECTED,
    options.gatewayClosed ? "gateway" : "system",
    options.note ?? "Pembayaran kedaluwarsa",
  );
  if (!moved.ok) return false;
  const db = await getDb();
  await db
    .update(payments)
    .set({ closedAt: new Date(), closedReason: "expired" })
    .where(and(eq(payments.orderId, orderId), isNull(payments.closedAt)));
  return true;
}

/** When a gateway that cannot be reached holds a payment this long past its deadline, the store expires it anyway. */
const GATEWAY_CLOSE_GRACE_MS = 60 * 60 * 1000;

/**
 * Before the store expires a payment of a real gateway, the gateway is asked to stop it (Midtrans:
 * POST /v2/{order_id}/expire). Unreachable: the expiry waits for a later sweep, up to an hour past
 * the deadline; after that the store expires it alone (a later payment becomes an incident for ops).
 */
export async function closeAtGateway(orderId: number, now = new Date()): Promise<GatewayClosing> {
  const db = await getDb();
  const [payment] = await db
    .select({ gateway: payments.gateway, gatewayRef: payments.gatewayRef, closedAt: payments.closedAt, expiresAt: payments.expiresAt })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  const gateway = payment && !payment.closedAt && payment.gatewayRef ? gatewayNamed(payment.gateway) : null;
  if (!payment || !gateway?.closePayment) return { kind: "closed" };
  const closing = await gateway.closePayment(payment.gatewayRef!);
  if (closing.kind !== "unreachable") return closing;
  const overdueBy = payment.expiresAt ? now.getTime() - payment.expiresAt.getTime() : 0;
  log.warn(
    { orderId, gateway: gateway.name, reason: closing.reason },
    overdueBy > GATEWAY_CLOSE_GRACE_MS
      ? "payments: the gateway could not close the payment; expiring it anyway"
      : "payments: the gateway could not close the payment; trying again later",
  );
  return overdueBy > GATEWAY_CLOSE_GRACE_MS ? { kind: "closed" } : closing;
}

/**
 * The periodic sweep: every open payment past its expiry whose order still awaits payment (200)
 * expires; payments whose order moved on otherwise are closed. The server runs it every minute
 * (entry.server.tsx) and ops on demand (`npm run ops -- orders:expire`). Returns the expired orders.
 */
export async function expireOverduePayments(now = new Date()): Promise<number[]> {
  const db = await getDb();
  const expired: number[] = [];
  for (;;) {
    const due = await db
      .select({ orderId: payments.orderId })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(isNull(payments.closedAt), lte(payments.expiresAt, now), eq(orders.statusId, S.AWAITING_PAYMENT)))
      .limit(200);
    if (!due.length) break;
    let progress = 0;
    for (const { orderId } of due) {
      if (!(await expirePayment(orderId))) continue;
      expired.push(orderId);
      progress++;
    }
    if (progress === 0) break;
  }
  await closeStalePayments();
  return expired;
}
