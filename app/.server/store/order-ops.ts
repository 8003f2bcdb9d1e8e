import { and, asc, desc, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { orders, orderStatuses } from "../db/schema";
import { transitionOrder } from "./orders";

// What the operators do to orders (the ops CLI, DESIGN §6): list them, and move them through the
// one status machine (transitionOrder, actor 'ops'), so the rules, the stock and the buyer's e-mail
// are exactly those of the app.

export type OpsOrderRow = { id: number; invoiceId: string; statusId: number; statusName: string; buyerEmail: string; amount: number; createdAt: Date };

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
      amount: orders.totalAmount,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(options.statusId === undefined ? undefined : eq(orders.statusId, options.statusId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(OPS_LIST_LIMIT);
}

/** The operators' decisions, each one allowed move of the status machine. */
export const OPS_TRANSITIONS = {
  "approve-incentive": { from: 100, to: 200, note: "Insentif disetujui" },
  "reject-incentive": { from: 100, to: 2, note: "Insentif ditolak" },
  "approve-installment": { from: 301, to: 300, note: "Cicilan disetujui" },
  "reject-installment": { from: 301, to: 2, note: "Cicilan ditolak" },
  "verify-transfer": { from: 302, to: 300, note: "Bukti transfer terverifikasi" },
  // The buyer may upload a proof again.
  "reject-transfer": { from: 302, to: 200, note: "Bukti transfer ditolak" },
  ship: { from: 300, to: 400, note: "Dikirim" },
} as const satisfies Record<string, { from: number; to: number; note: string }>;
export type OpsDecision = keyof typeof OPS_TRANSITIONS;

export const ORDER_NOT_FOUND = "Pesanan tidak ditemukan.";

/**
 * Applies an operator's decision. Refused (with the order's current status in the message) when the
 * order does not exist or is not in the status the decision starts from; nothing changes then.
 */
export async function applyOpsDecision(orderId: number, decision: OpsDecision, note?: string): Promise<{ ok: true; from: number; to: number } | { ok: false; message: string }> {
  const { from, to, note: defaultNote } = OPS_TRANSITIONS[decision];
  const moved = await transitionOrder(orderId, from, to, "ops", note?.trim() || defaultNote);
  if (moved.ok) return { ok: true, from, to };
  const current = Number.isSafeInteger(orderId) && orderId > 0 ? await orderStatus(orderId) : null;
  if (!current) return { ok: false, message: ORDER_NOT_FOUND };
  return { ok: false, message: `${moved.message} Pesanan berstatus ${current.statusId} ${current.statusName}; perintah ini hanya untuk status ${from}.` };
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

