import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orderReceipts, orders, payments } from "../../db/schema";
import { recordAudit } from "../people";
import { createRefund, recordReceipt } from "./refunds";
import { formatRupiah } from "~/lib/money";
import { paymentKind } from "~/lib/payment-kinds";

// 'Catat Kelebihan Bayar' (issue 36, decision 0057): a buyer transferred more than a manual-transfer
// order asked (twice, or a wrong amount), which the bank statement shows and the store cannot see by
// itself. Finance records the amount that arrived; the difference is received (a receipt) and goes
// back as an over-payment refund created by `createRefund`, the function the gateway's incidents use,
// in one transaction with the audit row. Once per order: the receipt's ref is the order's.

export const OVERPAYMENT_INVOICE_REQUIRED = "Nomor Invoice tidak boleh kosong.";
export const OVERPAYMENT_ORDER_NOT_FOUND = "Pesanan dengan nomor invoice ini tidak ditemukan.";
export const OVERPAYMENT_AMOUNT_INVALID = "Jumlah Diterima harus berupa angka rupiah lebih dari 0.";
export const OVERPAYMENT_NOT_TRANSFER = "Kelebihan bayar hanya dicatat untuk pesanan dengan pembayaran transfer manual.";
export const OVERPAYMENT_NOTHING_RECEIVED = "Belum ada dana yang tercatat diterima untuk pesanan ini (bukti transfer belum diverifikasi).";
export const OVERPAYMENT_ALREADY = "Kelebihan bayar pesanan ini sudah dicatat.";
export const overpaymentNotAbove = (counted: number) =>
  `Jumlah Diterima harus lebih besar dari dana yang sudah tercatat diterima (${formatRupiah(counted)}).`;

export type OverpaymentFields = "invoiceId" | "amountReceived";
export type OverpaymentResult =
  | { ok: true; orderId: number; refundId: number; amount: number }
  | { ok: false; errors: Partial<Record<OverpaymentFields, string>>; message: string };

/** "Rp5.001.234", "5.001.234" or "5001234" → 5001234; null for anything else. */
export function parseRupiah(text: string): number | null {
  const digits = text
    .trim()
    .replace(/^Rp\.?\s*/i, "")
    .replace(/\./g, "");
  if (!/^\d{1,12}$/.test(digits)) return null;
  const amount = Number(digits);
  return amount > 0 && Number.isSafeInteger(amount) ? amount : null;
}

const refused = (field: OverpaymentFields, message: string): OverpaymentResult => ({ ok: false, errors: { [field]: message }, message });

/** Thrown inside the transaction to roll it back: nothing is recorded, the refusal is the answer. */
class Refused extends Error {
  constructor(readonly result: OverpaymentResult) {
    super(result.ok ? "refused" : result.message);
  }
}

/**
 * Records that `amountReceived` rupiah arrived for a manual-transfer order (all of what the buyer
 * sent for it) and refunds what is above the money already counted as received for its transfer.
 */
export async function recordOverpayment(
  input: { invoiceId?: string; amountReceived?: string },
  operatorId: number,
  now = new Date(),
): Promise<OverpaymentResult> {
  const invoiceId = (input.invoiceId ?? "").trim().slice(0, 100);
  if (!invoiceId) return refused("invoiceId", OVERPAYMENT_INVOICE_REQUIRED);
  const amount = parseRupiah(input.amountReceived ?? "");
  if (amount === null) return refused("amountReceived", OVERPAYMENT_AMOUNT_INVALID);
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      const [order] = await tx
        .select({ id: orders.id, type: payments.type })
        .from(orders)
        .leftJoin(payments, eq(payments.orderId, orders.id))
        .where(eq(orders.invoiceId, invoiceId))
        .for("update", { of: orders });
      if (!order) throw new Refused(refused("invoiceId", OVERPAYMENT_ORDER_NOT_FOUND));
      if (!order.type || !paymentKind(order.type).transferProof) throw new Refused(refused("invoiceId", OVERPAYMENT_NOT_TRANSFER));
      // What the store counts as arrived for the transfer: its verified payment, or the transfer of
      // an order cancelled or rejected in 302 after the money came.
      const [counted] = await tx
        .select({ total: sql<number>`coalesce(sum(${orderReceipts.amount}), 0)`.mapWith(Number) })
        .from(orderReceipts)
        .where(and(eq(orderReceipts.orderId, order.id), inArray(orderReceipts.source, ["payment", "transfer-claimed"])));
      const asked = counted?.total ?? 0;
      if (asked === 0) throw new Refused(refused("invoiceId", OVERPAYMENT_NOTHING_RECEIVED));
      if (amount <= asked) throw new Refused(refused("amountReceived", overpaymentNotAbove(asked)));
      const excess = amount - asked;
      const recorded = await recordReceipt(tx, { orderId: order.id, amount: excess, source: "incident", ref: `overpaid:${order.id}` });
      if (!recorded) throw new Refused(refused("invoiceId", OVERPAYMENT_ALREADY));
      const refund = await createRefund(
        tx,
        {
          orderId: order.id,
          amount: excess,
          cause: "over-payment",
          reason: `Kelebihan bayar: diterima ${formatRupiah(amount)}, tagihan ${formatRupiah(asked)}`,
          actor: `operator:${operatorId}`,
        },
        now,
      );
      if (!refund.ok) throw new Refused(refused("amountReceived", refund.message));
      await recordAudit(tx, operatorId, "overpayment-recorded", {
        orderId: order.id,
        detail: `refund ${refund.refundId}: received ${amount}, counted ${asked}, excess ${excess}`,
      });
      return { ok: true, orderId: order.id, refundId: refund.refundId, amount: excess };
    });
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}
