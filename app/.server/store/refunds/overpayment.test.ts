import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { operatorAudit, orderReceipts, orders, payments, refunds } from "../../db/schema";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "../../testing/payment-fixtures";
import { applyOpsDecision } from "../back-office";
import { cancelOrder } from "../orders";
import { markPaid } from "../payments";
import { formatRupiah } from "~/lib/money";
import {
  confirmRefundFunds,
  financeReport,
  listOwnedRefunds,
  OVERPAYMENT_ALREADY,
  OVERPAYMENT_AMOUNT_INVALID,
  OVERPAYMENT_NOT_TRANSFER,
  OVERPAYMENT_NOTHING_RECEIVED,
  overpaymentNotAbove,
  recordOverpayment,
} from "./index";

// 'Catat Kelebihan Bayar' (decision 0057): a manual transfer paid twice or above what it asked; the
// difference is received and refunded in one transaction, once per order, audited.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
beforeAll(async () => {
  await getDb();
});

/** A manual-transfer order with its proof sent (302): its invoice, buyer and the total it asked. */
async function transferIn302() {
  const buyer = await createBuyer();
  const orderId = await placeOrder(buyer, await createStockedProduct({ price: 3_000_000 }), "MANUAL-BNI");
  expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
  const db = await getDb();
  const [row] = await db
    .select({ invoiceId: orders.invoiceId, total: payments.total })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.id, orderId));
  return { buyer, orderId, invoiceId: row!.invoiceId, total: row!.total };
}

async function moneyOf(orderId: number) {
  const db = await getDb();
  const received = await db.select({ amount: orderReceipts.amount }).from(orderReceipts).where(eq(orderReceipts.orderId, orderId));
  const given = await db.select({ amount: refunds.amount, cause: refunds.cause }).from(refunds).where(eq(refunds.orderId, orderId));
  return { received: received.reduce((s, r) => s + r.amount, 0), refunds: given };
}

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());

describe("a manual transfer paid above what it asked", () => {
  it("on a paid order: the excess is received and refunded (awaiting the buyer's account), audited, once; the order balances", async () => {
    const finance = await createBuyer();
    const { buyer, orderId, invoiceId, total } = await transferIn302();
    expect(await applyOpsDecision(orderId, "verify-transfer", { operatorId: finance.id })).toMatchObject({ ok: true, to: 300 });

    const typed = formatRupiah(total + 75_000); // "Rp3.075.123", as finance reads it on the statement
    const recorded = await recordOverpayment({ invoiceId: ` ${invoiceId} `, amountReceived: typed }, finance.id);
    expect(recorded).toMatchObject({ ok: true, orderId, amount: 75_000 });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([
      {
        amount: 75_000,
        state: "awaiting-account",
        method: "transfer",
        reason: `Kelebihan bayar: diterima ${typed}, tagihan ${formatRupiah(total)}`,
      },
    ]);
    expect(await moneyOf(orderId)).toEqual({ received: total + 75_000, refunds: [{ amount: 75_000, cause: "over-payment" }] });
    const db = await getDb();
    const audit = await db.select().from(operatorAudit).where(eq(operatorAudit.orderId, orderId));
    expect(audit.filter((a) => a.action === "overpayment-recorded")).toMatchObject([{ operatorId: finance.id }]);
    // The finance check: received = kept (the payment of a paid order) + refunds.
    expect((await financeReport(today(), today())).unbalanced.map((o) => o.orderId)).not.toContain(orderId);

    // Once per order: a second record changes nothing.
    expect(await recordOverpayment({ invoiceId, amountReceived: String(total + 90_000) }, finance.id)).toMatchObject({
      ok: false,
      errors: { invoiceId: OVERPAYMENT_ALREADY },
    });
    expect((await moneyOf(orderId)).refunds).toHaveLength(1);
  });

  it("on an order cancelled in 302 after the transfer: finance confirms all that arrived (twice the total), which all goes back", async () => {
    const finance = await createBuyer();
    const { buyer, orderId, invoiceId, total } = await transferIn302();
    expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
    // Issue 45: nothing is received until 'Konfirmasi Dana' says what arrived; that confirmation is
    // the whole amount, so 'Catat Kelebihan Bayar' has nothing more to add.
    const [refund] = await listOwnedRefunds(orderId, buyer.id);
    expect(await confirmRefundFunds(refund!.id, { operatorId: finance.id }, { amount: String(total * 2) })).toMatchObject({ ok: true });
    expect(await recordOverpayment({ invoiceId, amountReceived: String(total * 3) }, finance.id)).toMatchObject({ ok: false });
    const money = await moneyOf(orderId);
    expect(money.received).toBe(total * 2);
    expect(money.refunds.map((r) => r.amount)).toEqual([total * 2]);
  });

  it("refuses what is not an over-payment of a manual transfer, with the field and an Indonesian reason, recording nothing", async () => {
    const finance = await createBuyer();
    const { orderId, invoiceId, total } = await transferIn302();
    // The proof is not verified yet: nothing counted as received.
    expect(await recordOverpayment({ invoiceId, amountReceived: String(total + 1) }, finance.id)).toMatchObject({
      ok: false,
      errors: { invoiceId: OVERPAYMENT_NOTHING_RECEIVED },
    });
    expect(await applyOpsDecision(orderId, "verify-transfer", { operatorId: finance.id })).toMatchObject({ ok: true });
    for (const amountReceived of ["", "abc", "0", "-5000", "1,5"])
      expect(await recordOverpayment({ invoiceId, amountReceived }, finance.id)).toMatchObject({
        errors: { amountReceived: OVERPAYMENT_AMOUNT_INVALID },
      });
    expect(await recordOverpayment({ invoiceId, amountReceived: String(total) }, finance.id)).toMatchObject({
      errors: { amountReceived: overpaymentNotAbove(total) },
    });
    expect(await recordOverpayment({ invoiceId: "", amountReceived: "5000" }, finance.id)).toMatchObject({
      errors: { invoiceId: expect.any(String) },
    });
    expect(await recordOverpayment({ invoiceId: "INV/TIDAK/ADA", amountReceived: "5000" }, finance.id)).toMatchObject({
      errors: { invoiceId: "Pesanan dengan nomor invoice ini tidak ditemukan." },
    });
    // A virtual account is settled by the gateway, which reports amounts itself (the amount-mismatch incident).
    const buyer = await createBuyer();
    const va = await placeOrder(buyer, await createStockedProduct(), "BNI-VA");
    const db = await getDb();
    const [vaOrder] = await db.select({ invoiceId: orders.invoiceId }).from(orders).where(eq(orders.id, va));
    expect(await recordOverpayment({ invoiceId: vaOrder!.invoiceId, amountReceived: "99000000" }, finance.id)).toMatchObject({
      errors: { invoiceId: OVERPAYMENT_NOT_TRANSFER },
    });
    expect(await moneyOf(orderId)).toEqual({ received: total, refunds: [] });
  });
});
