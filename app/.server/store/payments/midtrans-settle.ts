import {
  claimSilentGatewayPayments,
  findGatewayPayment,
  findOwnedOpenGatewayRef,
  openGatewayPaymentsOfClosedOrders,
  markGatewayHeard,
  recordPaymentIncident,
} from "./gateway-payments";
import { settleGatewayEvent } from "./settlement";
import { settleGatewayRefundNotice } from "../refunds";
import {
  MIDTRANS,
  midtransClient,
  midtransGateway,
  midtransRefunds,
  midtransVerdict,
  statusEvent,
  type MidtransTransaction,
} from "../../gateway";
import { log } from "../../log";

// What Midtrans says about a payment, applied once (issue 18 items 5 and 6): a notification and the
// reconciliation sweep both end here. The status API's answer — never a notification's body — becomes
// the event for the store's one settlement function (settleGatewayEvent), and midtransOutcome() below
// is the ONE place that names the outcome (a metrics counter belongs there).

export type MidtransOutcome =
  | "paid" // the order moved to 300 now
  | "replay" // the same event again: nothing changed
  | "already-paid" // paid before by another event (or by ops)
  | "pending" // nothing to do yet
  | "closed" // expired, cancelled, denied or failed at Midtrans: the order expired
  | "paid-after-close" // money arrived for an order the store had closed: an incident for ops (refund)
  | "amount-mismatch" // refused, an incident for ops
  | "ignored" // refunds, chargebacks, a close for an order already closed
  | "unknown-order"
  | "status-unavailable"
  | "bad-signature"
  | "invalid-body";

export type MidtransDecision = { outcome: MidtransOutcome; status: number; orderId: number | null; log: string };

const HTTP_STATUS: Record<MidtransOutcome, number> = {
  paid: 200,
  replay: 200,
  "already-paid": 200,
  pending: 200,
  closed: 200,
  "paid-after-close": 200,
  ignored: 200,
  "amount-mismatch": 422,
  "unknown-order": 404,
  // Midtrans retries a notification that did not get a 2xx: the status API may answer next time.
  "status-unavailable": 502,
  "bad-signature": 401,
  "invalid-body": 400,
};

/** The one place an outcome is decided and described (the route logs `log`; a counter goes here). */
export function midtransOutcome(outcome: MidtransOutcome, orderId: number | null, detail: string): MidtransDecision {
  return {
    outcome,
    status: HTTP_STATUS[outcome],
    orderId,
    log: `${HTTP_STATUS[outcome]} ${outcome}${orderId ? ` order=${orderId}` : ""} ${detail}`.trim(),
  };
}

/** Midtrans never had a transaction for a Snap page that was not used; after this the order closes. */
export const UNUSED_SNAP_VALIDITY_MS = 24 * 60 * 60 * 1000;

/**
 * Asks the status API about the payment `gatewayRef` names and applies the answer. `source` says who
 * asks: a notification (whose signature was checked), the sweep, or the buyer coming back from Snap.
 */
export async function applyMidtransStatus(
  gatewayRef: string,
  source: "notification" | "sweep" | "return",
  now = new Date(),
): Promise<MidtransDecision> {
  const tag = `ref=${gatewayRef} via=${source}`;
  const payment = await findGatewayPayment(MIDTRANS, gatewayRef);
  if (!payment) return midtransOutcome("unknown-order", null, tag);
  let tx: MidtransTransaction | null;
  try {
    tx = await midtransClient().status(gatewayRef);
  } catch (error) {
    return midtransOutcome("status-unavailable", payment.orderId, `${tag} (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!tx) {
    // No transaction at Midtrans: a Snap page nobody used yet. Once its validity is over the order closes.
    const unused =
      source === "sweep" &&
      payment.type === "installment" &&
      !payment.closedAt &&
      payment.createdAt.getTime() < now.getTime() - UNUSED_SNAP_VALIDITY_MS;
    if (!unused)
      return midtransOutcome(
        source === "notification" ? "status-unavailable" : "pending",
        payment.orderId,
        `${tag} (no transaction at Midtrans yet)`,
      );
    tx = {
      status_code: "407",
      transaction_status: "expire",
      transaction_id: `${gatewayRef}-unused`,
      order_id: gatewayRef,
      gross_amount: `${payment.total}.00`,
    };
  }
  if (tx.order_id && tx.order_id !== gatewayRef)
    return midtransOutcome("status-unavailable", payment.orderId, `${tag} (the status API answered for ${tx.order_id})`);
  await markGatewayHeard(payment.orderId, now);

  if (tx.transaction_status === "refund" || tx.transaction_status === "partial_refund") {
    // A refund notification (issue 36): the store's refunds whose refund_key Midtrans lists settle,
    // even one turned into a bank transfer after Midtrans refused the call (issue 45 item 3).
    await settleGatewayRefundNotice(MIDTRANS, gatewayRef, midtransRefunds(tx));
  }
  const event = statusEvent(tx, gatewayRef);
  const verdict = midtransVerdict(tx);
  const about = `${tag} status=${tx.transaction_status ?? "?"} event=${event.id} amount=${tx.gross_amount ?? "?"}`;
  const result = await settleGatewayEvent(event, now);
  if (result.status === 404) return midtransOutcome("unknown-order", null, about);
  if (result.status === 422) {
    await recordPaymentIncident({
      kind: "amount-mismatch",
      orderId: result.orderId,
      gateway: MIDTRANS,
      gatewayRef,
      amount: Number.isSafeInteger(event.amount) ? event.amount : null,
      detail: `Midtrans reports ${tx.gross_amount ?? "?"} received (${tx.transaction_status}); the payment's total is ${result.total}. Not settled.`,
    });
    return midtransOutcome("amount-mismatch", result.orderId, `${about} expected=${result.total}`);
  }
  if (result.replay) return midtransOutcome("replay", result.orderId, about);
  switch (result.outcome) {
    case "settled":
      return midtransOutcome("paid", result.orderId, about);
    case "already-paid":
      return midtransOutcome("already-paid", result.orderId, about);
    case "expired":
      return midtransOutcome("closed", result.orderId, about);
    case "order-closed":
      // Money for an order the store had expired or cancelled: never lost, the settlement recorded
      // the incident and its refund with the event (issue 45 item 5).
      return midtransOutcome(verdict === "paid" ? "paid-after-close" : "ignored", result.orderId, about);
    case "ignored":
      return midtransOutcome(verdict === "pending" ? "pending" : "ignored", result.orderId, about);
  }
}

/** How long an open Midtrans payment may stay silent before the sweep asks its status. */
export const RECONCILE_SILENCE_MS = 10 * 60 * 1000;

/**
 * The reconciliation sweep (runs with the expiry sweep): asks the status API about open Midtrans
 * payments nothing was heard about for RECONCILE_SILENCE_MS, so a missed notification still settles
 * (or closes) the order. Each payment is claimed first, so instances sweeping at once ask once.
 */
export async function reconcileMidtransPayments(now = new Date(), silenceMs = RECONCILE_SILENCE_MS): Promise<MidtransDecision[]> {
  const claimed = await claimSilentGatewayPayments(MIDTRANS, new Date(now.getTime() - silenceMs), now);
  const decisions: MidtransDecision[] = [];
  for (const { gatewayRef } of claimed) decisions.push(await applyMidtransStatus(gatewayRef, "sweep", now));
  return decisions;
}

/**
 * Orders closed elsewhere (cancelled by the buyer, rejected by ops) whose Midtrans payment is still
 * open: Midtrans is asked to expire it, so it can no longer be paid. One found paid meanwhile is
 * applied (the order is closed, so it becomes a paid-after-close incident for a refund).
 */
export async function closeMidtransPaymentsOfClosedOrders(): Promise<MidtransDecision[]> {
  const decisions: MidtransDecision[] = [];
  for (const { gatewayRef } of await openGatewayPaymentsOfClosedOrders(MIDTRANS)) {
    const closing = await midtransGateway.closePayment!(gatewayRef);
    if (closing.kind === "settled") decisions.push(await applyMidtransStatus(gatewayRef, "sweep"));
    else if (closing.kind === "unreachable")
      log.warn({ gatewayRef, reason: closing.reason }, "payments: Midtrans could not expire the payment of a closed order");
  }
  return decisions;
}

/**
 * The buyer came back from Midtrans's page (the finish URL): the status API is asked about the
 * buyer's own open Midtrans payment right away. Changes nothing for anyone else's order.
 */
export async function refreshOwnedGatewayPayment(orderId: number, userId: number): Promise<MidtransDecision | null> {
  const ref = await findOwnedOpenGatewayRef(MIDTRANS, orderId, userId);
  return ref ? applyMidtransStatus(ref, "return") : null;
}
