import { desc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { getDb } from "../../db/client";
import { orderEvents, orders, orderStatuses, payments } from "../../db/schema";
import { amountToPay, transitionOrder } from "../orders";
import { createAwaitingFundsRefund, createRefund, recordPaymentReceipt } from "../refunds";
import { gatewayNamed } from "../../gateway";
import { reopenTransferWindow } from "../payments";
import { recordAudit } from "../people";
import {
  COURIER_NAME_MAX,
  COURIERS,
  isOpsDecision,
  isRejection,
  OPS_TRANSITIONS,
  OTHER_COURIER,
  REASON_MAX,
  TRACKING_MAX,
  type OpsDecision,
  type OpsTransition,
} from "~/lib/ops-decisions";

// What the operators do to orders (the /ops back office and the ops CLI, DESIGN §6): list them, and
// move them through the one status machine (transitionOrder), so the rules, the stock and the
// buyer's e-mail are exactly those of the app. Both doors call applyOpsDecision.

export type OpsOrderRow = {
  id: number;
  invoiceId: string;
  statusId: number;
  statusName: string;
  buyerEmail: string;
  amount: number;
  createdAt: Date;
};

export const OPS_LIST_LIMIT = 500;

/** Newest first, optionally only one status; at most OPS_LIST_LIMIT rows. */
export async function listOrdersForOps(options: { statusId?: number } = {}): Promise<OpsOrderRow[]> {
  const db = await getDb();
  return db
    .select({
      id: orders.id,
      invoiceId: orders.invoiceId,
      statusId: orders.statusId,
      statusName: orderStatuses.name,
      buyerEmail: orders.buyerEmail,
      // What the buyer pays (the payment's total once opened), as every screen shows it.
      amount: amountToPay(),
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(options.statusId === undefined ? undefined : eq(orders.statusId, options.statusId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(OPS_LIST_LIMIT);
}

/** The operators' decisions, each one allowed move of the status machine (the table in ~/lib/ops-decisions). */
export { OPS_TRANSITIONS, isOpsDecision, isRejection, type OpsDecision };
export const REJECTIONS: readonly OpsDecision[] = (Object.keys(OPS_TRANSITIONS) as OpsDecision[]).filter(isRejection);

export { COURIERS, OTHER_COURIER, REASON_MAX, TRACKING_MAX };

export const ORDER_NOT_FOUND = "Pesanan tidak ditemukan.";
export const REASON_REQUIRED = "Alasan tidak boleh kosong.";
export const REASON_TOO_LONG = `Alasan maksimal ${REASON_MAX} karakter.`;
export const COURIER_REQUIRED = "Kurir tidak boleh kosong.";
export const COURIER_NAME_REQUIRED = "Nama kurir tidak boleh kosong.";
export const TRACKING_REQUIRED = "Nomor Resi tidak boleh kosong.";
export const TRACKING_TOO_LONG = `Nomor Resi maksimal ${TRACKING_MAX} karakter.`;
export const MONEY_RECEIVED_REQUIRED = "Pilih apakah dana sudah masuk ke rekening toko.";
export const PAID_AT_GATEWAY =
  "Cicilan kartu ini dibayar di Midtrans: pesanan menjadi Pembayaran Diterima setelah Midtrans melaporkan pembayarannya, tidak dapat disetujui manual.";

/** Who decides: an operator in the back office (their id goes in the event row and the audit), or the CLI. */
export type OpsActor = { operatorId: number } | "cli";
export const actorLabel = (actor: OpsActor) => (actor === "cli" ? "ops" : `operator:${actor.operatorId}`);

export type DecisionInput = {
  reason?: string;
  courier?: string;
  courierOther?: string;
  trackingNumber?: string;
  /**
   * 'Dana diterima' / 'Dana tidak diterima' (every rejection of a transfer proof): whether the
   * transfer reached the store's account. Required there: undefined is refused (issue 45 item 1).
   */
  moneyReceived?: boolean;
};
export type DecisionFieldErrors = Partial<Record<"reason" | "courier" | "courierOther" | "trackingNumber" | "moneyReceived", string>>;
export type DecisionResult =
  | { ok: true; from: number; to: number }
  | { ok: false; kind: "invalid"; errors: DecisionFieldErrors; message: string }
  | { ok: false; kind: "not-found"; message: string }
  // Someone (another operator, the buyer, the gateway) moved the order first; `current` is where it is now.
  | { ok: false; kind: "refused"; message: string; current: { statusId: number; statusName: string } };

/** The decision's own fields: 'Alasan' for every rejection, 'Kurir' and 'Nomor Resi' for shipping. */
export function checkDecisionInput(
  decision: OpsDecision,
  input: DecisionInput,
): { ok: true; note: string; courier?: string; trackingNumber?: string } | { ok: false; errors: DecisionFieldErrors } {
  if (isRejection(decision)) {
    const reason = (input.reason ?? "").trim();
    const errors: DecisionFieldErrors = {};
    if (!reason) errors.reason = REASON_REQUIRED;
    else if (reason.length > REASON_MAX) errors.reason = REASON_TOO_LONG;
    const transition: OpsTransition = OPS_TRANSITIONS[decision];
    if (transition.asksMoneyReceived && typeof input.moneyReceived !== "boolean") errors.moneyReceived = MONEY_RECEIVED_REQUIRED;
    if (Object.keys(errors).length) return { ok: false, errors };
    // The note is the reason itself: the buyer's pages and e-mail show it as written.
    return { ok: true, note: reason };
  }
  if (decision === "ship") {
    const errors: DecisionFieldErrors = {};
    const picked = (input.courier ?? "").trim();
    let courier = picked;
    if (!picked) errors.courier = COURIER_REQUIRED;
    else if (picked === OTHER_COURIER) {
      courier = (input.courierOther ?? "").trim().slice(0, COURIER_NAME_MAX);
      if (!courier) errors.courierOther = COURIER_NAME_REQUIRED;
    } else if (!(COURIERS as readonly string[]).includes(picked)) errors.courier = COURIER_REQUIRED;
    const trackingNumber = (input.trackingNumber ?? "").trim();
    if (!trackingNumber) errors.trackingNumber = TRACKING_REQUIRED;
    else if (trackingNumber.length > TRACKING_MAX) errors.trackingNumber = TRACKING_TOO_LONG;
    if (Object.keys(errors).length) return { ok: false, errors };
    return { ok: true, note: `${OPS_TRANSITIONS.ship.note}: ${courier} ${trackingNumber}`, courier, trackingNumber };
  }
  return { ok: true, note: OPS_TRANSITIONS[decision].note };
}

/**
 * Applies an operator's decision through the one status machine. Refused (with the order's current
 * status) when the order does not exist or is no longer in the status the decision starts from:
 * nothing changes then. The operator's id goes into the event row, and the decision into the audit
 * in the same transaction; the courier and tracking number are written with the move to 400.
 */
export async function applyOpsDecision(
  orderId: number,
  decision: OpsDecision,
  actor: OpsActor,
  input: DecisionInput = {},
): Promise<DecisionResult> {
  const { from, to } = OPS_TRANSITIONS[decision];
  const checked = checkDecisionInput(decision, input);
  if (!checked.ok) return { ok: false, kind: "invalid", errors: checked.errors, message: Object.values(checked.errors)[0]! };
  // A payment the gateway collects itself reaches 300 by its settlement only: an approval would
  // record money that never came (issue 45 item 4).
  if (decision === "approve-installment" && (await paidAtGateway(orderId)))
    return { ok: false, kind: "invalid", errors: {}, message: PAID_AT_GATEWAY };
  const moved = await transitionOrder(orderId, from, to, actorLabel(actor), checked.note, {
    onMoved: async (tx) => {
      if (checked.courier)
        await tx.update(orders).set({ courier: checked.courier, trackingNumber: checked.trackingNumber }).where(eq(orders.id, orderId));
      await moneyForDecision(tx, orderId, decision, actorLabel(actor), checked.note, input.moneyReceived === true);
      if (actor !== "cli")
        await recordAudit(tx, actor.operatorId, "order-decision", { orderId, detail: `${decision} ${from}→${to}: ${checked.note}` });
    },
  });
  if (moved.ok) return { ok: true, from, to };
  const current = Number.isSafeInteger(orderId) && orderId > 0 ? await orderStatus(orderId) : null;
  if (!current) return { ok: false, kind: "not-found", message: ORDER_NOT_FOUND };
  if (actor !== "cli")
    await recordAudit(null, actor.operatorId, "order-decision-refused", { orderId, detail: `${decision}: status ${current.statusId}` });
  return {
    ok: false,
    kind: "refused",
    current,
    message: `${moved.message} Pesanan berstatus ${current.statusId} ${current.statusName}; perintah ini hanya untuk status ${from}.`,
  };
}

/**
 * Whether an order's payment is one its gateway collects itself (a Midtrans card instalment):
 * the back office offers no 'Setujui' for it, and the store refuses one.
 */
export async function paidAtGateway(orderId: number, db?: Executor): Promise<boolean> {
  if (!Number.isSafeInteger(orderId) || orderId <= 0 || orderId > 2_147_483_647) return false;
  const executor = db ?? (await getDb());
  const [payment] = await executor
    .select({ gateway: payments.gateway, gatewayRef: payments.gatewayRef })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  return !!payment?.gatewayRef && gatewayNamed(payment.gateway)?.collectsMoney === true;
}

/**
 * The money a decision moves, in its transaction (issues 36, 45):
 * - 'Verifikasi': the proof matched the statement (amount and unique code): the payment's total is received.
 * - 'Setujui' of an instalment or paylater: the issuer approved and pays the store; received.
 * - a rejected proof whose money arrived ('Dana diterima'): a refund 'Menunggu Konfirmasi Dana'
 *   (finance confirms the amount on the statement; nothing is received before);
 * - a proof rejected for another try ('Tolak', 302 → 200): the buyer gets a fresh payment window, so
 *   a deadline that passed while the proof waited does not expire the new one;
 * - a paid order the store cancels: everything received and not yet refunded goes back.
 */
async function moneyForDecision(
  tx: Executor,
  orderId: number,
  decision: OpsDecision,
  actor: string,
  reason: string,
  moneyReceived: boolean,
) {
  if (decision === "verify-transfer" || decision === "approve-installment") await recordPaymentReceipt(tx, orderId);
  if ((decision === "reject-transfer" || decision === "reject-transfer-final") && moneyReceived) {
    const refund = await createAwaitingFundsRefund(tx, { orderId, cause: "proof-rejected", reason, actor });
    if (!refund.ok) throw new Error(`refund of rejected order ${orderId}: ${refund.message}`);
  }
  if (decision === "reject-transfer") await reopenTransferWindow(tx, orderId);
  if (decision === "cancel-refund") {
    const refund = await createRefund(tx, { orderId, amount: "rest", cause: "ops-cancel", reason, actor });
    if (!refund.ok) throw new Error(`refund of cancelled order ${orderId}: ${refund.message}`);
  }
}

async function orderStatus(orderId: number) {
  if (orderId > 2_147_483_647) return null;
  const db = await getDb();
  const [row] = await db
    .select({ statusId: orders.statusId, statusName: orderStatuses.name })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(eq(orders.id, orderId));
  return row ?? null;
}

/** What each rejection rejected, as the buyer's order detail names it. */
const REJECTION_KIND: Partial<Record<OpsDecision, "incentive" | "installment" | "transfer">> = {
  "reject-incentive": "incentive",
  "reject-installment": "installment",
  "reject-transfer": "transfer",
  "reject-transfer-final": "transfer",
};

export type BuyerOpsFacts = {
  courier: string | null;
  trackingNumber: string | null;
  /** The operator's reason when the order's last move was a rejection ('Tolak'). */
  rejection: { reason: string; at: Date; kind: "incentive" | "installment" | "transfer" } | null;
};

/**
 * What the operators' decisions tell the buyer on their order detail: the courier and tracking
 * number once shipped, and the reason of a rejection. The caller has checked the order is theirs.
 */
export async function getBuyerOpsFacts(orderId: number): Promise<BuyerOpsFacts> {
  const db = await getDb();
  const [order] = await db
    .select({ courier: orders.courier, trackingNumber: orders.trackingNumber })
    .from(orders)
    .where(eq(orders.id, orderId));
  const [last] = await db
    .select({
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      actor: orderEvents.actor,
      note: orderEvents.note,
      createdAt: orderEvents.createdAt,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(desc(orderEvents.id))
    .limit(1);
  const byOperator = last && (last.actor.startsWith("operator:") || last.actor === "ops");
  // The rejection this move was, by its from → to in the decisions' table.
  const rejected = byOperator
    ? (Object.keys(OPS_TRANSITIONS) as OpsDecision[]).find(
        (d) => isRejection(d) && OPS_TRANSITIONS[d].from === last.fromStatus && OPS_TRANSITIONS[d].to === last.toStatus,
      )
    : undefined;
  const kind = rejected ? REJECTION_KIND[rejected] : null;
  return {
    courier: order?.courier ?? null,
    trackingNumber: order?.trackingNumber ?? null,
    rejection: kind && last?.note ? { reason: last.note, at: last.createdAt, kind } : null,
  };
}
