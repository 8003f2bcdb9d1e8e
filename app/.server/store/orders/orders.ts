import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { orderDeliveryProofs, orderEvents, orders, orderStatuses, payments, products, uploads } from "../../db/schema";
import { announceOrderEvent } from "../messages";
import { createAwaitingFundsRefund } from "../refunds";
import { creditOrderReward, rewardRuleOf, type Reward } from "./balance";
import { canCancel, canConfirmArrival } from "~/lib/order-actions";
import { canTransition, isReleasedStatus, ORDER_STATUS, ORDER_TRANSITIONS } from "~/lib/order-status";
import { MAX_DELIVERY_PROOFS } from "~/lib/photo-files";
// The ONE module through which orders, stock and statuses change (DESIGN §6). Every change is a
// conditional update inside a transaction with its event row, so two requests racing for the last
// unit, the same NIK or the same status change cannot both win.

export const TRANSITION_REFUSED = "Status pesanan tidak dapat diubah.";

/** DESIGN §6: the statuses each status may move to (named in ~/lib/order-status, shared with the screens). */
export { ORDER_TRANSITIONS };

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
/** Id, invoice and status of the user's own order; null for anyone else's (the route answers 404). */
export async function getOwnedOrderSummary(
  orderId: number,
  userId: number,
): Promise<{ id: number; invoiceId: string; statusId: number; statusName: string } | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ id: orders.id, invoiceId: orders.invoiceId, statusId: orders.statusId, statusName: orderStatuses.name })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  return row ?? null;
}

/**
 * DESIGN §6 status machine: one conditional update (WHERE status_id = from) + an order_events row;
 * leaving a live status for 1 or 2 returns the stock unit. Refused transitions change nothing.
 */
export async function transitionOrder(
  orderId: number,
  from: number,
  to: number,
  actor: string,
  note?: string,
  // Runs inside the same transaction once the order has moved (confirmDelivery credits the reward
  // there); when it throws, the move is rolled back with it.
  options?: { onMoved?: (tx: Executor) => Promise<void> },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isId(orderId) || !canTransition(from, to)) return { ok: false, message: TRANSITION_REFUSED };
  const db = await getDb();
  return db.transaction(async (tx) => {
    const now = new Date();
    const [moved] = await tx
      .update(orders)
      .set({ statusId: to, statusChangedAt: now, updatedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.statusId, from)))
      .returning({ productId: orders.productId });
    // Someone else moved it first (or it never was in `from`): nothing happens.
    if (!moved) return { ok: false as const, message: TRANSITION_REFUSED };
    const [event] = await tx
      .insert(orderEvents)
      .values({ orderId, fromStatus: from, toStatus: to, actor: actor.slice(0, 100), note: note?.slice(0, 1000) ?? null, createdAt: now })
      .returning({ id: orderEvents.id, actor: orderEvents.actor, note: orderEvents.note });
    if (isReleasedStatus(to) && !isReleasedStatus(from)) {
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} + 1` })
        .where(eq(products.id, moved.productId));
    }
    if (from === ORDER_STATUS.TRANSFER_REVIEW && to === ORDER_STATUS.AWAITING_PAYMENT) {
      // The transfer proof was rejected: the payment forgets it, so the buyer can send another
      // ('Saya sudah bayar' again). The rejected proof stays named in the event that sent it.
      await tx.update(payments).set({ markedPaidAt: null, proofUploadId: null }).where(eq(payments.orderId, orderId));
    }
    // No receipt here: money is received only by a money event (the gateway's settlement, a proof
    // verified against the statement, an issuer's approval), each in its own onMoved (issue 45 item 4).
    await options?.onMoved?.(tx);
    // The buyer's notification and e-mail job, in this transaction: the move and its messages
    // commit or roll back together (issue 28). After onMoved, so a credited reward is in them.
    await announceOrderEvent(tx, { eventId: event!.id, orderId, from, to, actor: event!.actor, note: event!.note });
    return { ok: true as const };
  });
}

// ─── Buyer actions on an order (issue 8, order detail) ────────────────────────────────────────────
// The buyer's own moves, each through transitionOrder: one conditional update, so a stale page, a
// double submit or two tabs racing change the order once and the loser gets a clear message.

export const ORDER_NOT_FOUND = "Pesanan tidak ditemukan.";
export const ORDER_ALREADY_CANCELLED = "Pesanan sudah dibatalkan.";
export const ORDER_NOT_CANCELLABLE = "Pesanan ini tidak dapat dibatalkan lagi.";
export const ORDER_CANCELLED = "Pesanan berhasil dibatalkan.";
export const ORDER_ALREADY_DONE = "Pesanan sudah dikonfirmasi sampai.";
export const ORDER_NOT_SHIPPED = "Pesanan belum dalam pengiriman, belum dapat dikonfirmasi.";
export const PROOF_REQUIRED = "Foto bukti barang sampai tidak boleh kosong.";

type ActionResult = { ok: true } | { ok: false; message: string; notFound?: boolean };

async function ownedStatus(
  orderId: number,
  userId: number,
): Promise<{ statusId: number; amount: number; rewardPercent: number | null; rewardCap: number | null } | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ statusId: orders.statusId, amount: orders.amount, rewardPercent: orders.rewardPercent, rewardCap: orders.rewardCap })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  return row ?? null;
}

const refusalFor = (statusId: number, wanted: "cancel" | "confirm") => {
  if (statusId === ORDER_STATUS.CANCELLED) return ORDER_ALREADY_CANCELLED;
  if (wanted === "confirm") return statusId === ORDER_STATUS.DONE ? ORDER_ALREADY_DONE : ORDER_NOT_SHIPPED;
  return ORDER_NOT_CANCELLABLE;
};

/**
 * 'Batalkan Pesanan' (spec §4: in 100, 200, 301, 302) → 1 Dibatalkan; transitionOrder returns the
 * stock unit. Someone else's order or an unknown id: notFound (the route answers 404).
 */
export async function cancelOrder(orderId: number, userId: number): Promise<ActionResult> {
  // Read, then move conditionally from what was read. If ops moved it in between (say 100 → 200,
  // still cancellable) the move finds nothing; one more read decides with the fresh status.
  for (let attempt = 0; attempt < 2; attempt++) {
    const order = await ownedStatus(orderId, userId);
    if (!order) return { ok: false, notFound: true, message: ORDER_NOT_FOUND };
    if (!canCancel(order.statusId)) return { ok: false, message: refusalFor(order.statusId, "cancel") };
    const moved = await transitionOrder(orderId, order.statusId, ORDER_STATUS.CANCELLED, `buyer:${userId}`, "Dibatalkan oleh pembeli", {
      onMoved: order.statusId === ORDER_STATUS.TRANSFER_REVIEW ? (tx) => refundCancelledTransfer(tx, orderId, userId) : undefined,
    });
    if (moved.ok) return { ok: true };
  }
  const latest = await ownedStatus(orderId, userId);
  return { ok: false, message: refusalFor(latest?.statusId ?? ORDER_STATUS.CANCELLED, "cancel") };
}

/**
 * A cancel in 302 'Verifikasi Bukti Transfer': the buyer says they transferred, but only their
 * picture says so. A refund 'Menunggu Konfirmasi Dana' is created in the transaction of the cancel;
 * nothing is received until finance confirms on the statement what arrived (issue 45 item 2).
 */
async function refundCancelledTransfer(tx: Executor, orderId: number, userId: number): Promise<void> {
  const [payment] = await tx.select({ total: payments.total }).from(payments).where(eq(payments.orderId, orderId));
  if (!payment) return;
  const refund = await createAwaitingFundsRefund(tx, {
    orderId,
    cause: "buyer-cancel",
    reason: "Pesanan dibatalkan oleh pembeli setelah transfer",
    actor: `buyer:${userId}`,
  });
  if (!refund.ok) throw new Error(`refund of cancelled order ${orderId}: ${refund.message}`);
}

export { MAX_DELIVERY_PROOFS };
export const TOO_MANY_PROOFS = `Maksimal ${MAX_DELIVERY_PROOFS} file bukti barang sampai.`;

/**
 * 'Konfirmasi Barang Sampai' (only in 400) → 500 Selesai with the buyer's proofs (1 to 5 uploads of
 * theirs, purpose delivery-proof: one id or a list), written to order_delivery_proofs and named in
 * the event's note, and the reward credited, all in the SAME transaction (once per order). Returns
 * the reward, null when the order earns none.
 */
export async function confirmDelivery(
  orderId: number,
  userId: number,
  proofUploadIds: string | readonly string[],
): Promise<{ ok: true; reward: Reward | null } | { ok: false; message: string; notFound?: boolean }> {
  const order = await ownedStatus(orderId, userId);
  if (!order) return { ok: false, notFound: true, message: ORDER_NOT_FOUND };
  if (!canConfirmArrival(order.statusId)) return { ok: false, message: refusalFor(order.statusId, "confirm") };
  const wanted = [
    ...new Set(
      (typeof proofUploadIds === "string" ? [proofUploadIds] : Array.isArray(proofUploadIds) ? proofUploadIds : []).filter(
        (id): id is string => typeof id === "string" && id !== "",
      ),
    ),
  ];
  if (!wanted.length) return { ok: false, message: PROOF_REQUIRED };
  if (wanted.length > MAX_DELIVERY_PROOFS) return { ok: false, message: TOO_MANY_PROOFS };
  const db = await getDb();
  const own = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.id, wanted), eq(uploads.ownerId, userId), eq(uploads.purpose, "delivery-proof")));
  // Every file named must be the buyer's own delivery proof.
  if (own.length !== wanted.length) return { ok: false, message: PROOF_REQUIRED };
  let reward: Reward | null = null;
  const moved = await transitionOrder(orderId, ORDER_STATUS.SHIPPED, ORDER_STATUS.DONE, `buyer:${userId}`, `bukti:${wanted.join(",")}`, {
    onMoved: async (tx) => {
      await tx.insert(orderDeliveryProofs).values(wanted.map((uploadId, position) => ({ orderId, uploadId, position })));
      reward = await creditOrderReward(tx, orderId, userId, { amount: order.amount, rule: rewardRuleOf(order) });
    },
  });
  if (!moved.ok) {
    const latest = await ownedStatus(orderId, userId);
    return { ok: false, message: refusalFor(latest?.statusId ?? ORDER_STATUS.CANCELLED, "confirm") };
  }
  return { ok: true, reward };
}
