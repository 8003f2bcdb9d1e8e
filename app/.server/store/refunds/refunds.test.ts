import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { notifications, orderReceipts, payments, refundEvents, refunds } from "../../db/schema";
import { createBuyer, createStockedProduct, placeOrder, productStock, proofUpload } from "../../testing/payment-fixtures";
import { applyOpsDecision } from "../back-office";
import { cancelOrder, transitionOrder } from "../orders";
import { markPaid, settleGatewayEvent } from "../payments";
import { ACCOUNT_NUMBER_INVALID, BANK_REQUIRED } from "~/lib/refunds";
import {
  ACCOUNT_CHANGED,
  accountVersionOf,
  confirmRefundFunds,
  createRefund,
  failRefund,
  getRefund,
  listOwnedRefunds,
  markRefundTransferred,
  openRefundsOf,
  recordReceipt,
  REFERENCE_REQUIRED,
  REFUND_ABOVE_RECEIVED,
  refundThroughGateway,
  submitRefundAccount,
} from "./index";

// Refunds through the store's own functions (issue 36), on this file's PGlite or a shared PostgreSQL
// (DATABASE_URL): every buyer, product and order here is new.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
beforeAll(async () => {
  await getDb();
});

const ACCOUNT = { bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" };

async function transferIn302() {
  const buyer = await createBuyer();
  const productId = await createStockedProduct({ price: 5_000_000 });
  const orderId = await placeOrder(buyer, productId, "MANUAL-BNI");
  expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
  const db = await getDb();
  const [payment] = await db
    .select({ total: payments.total, vaNumber: payments.vaNumber })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  return { buyer, productId, orderId, total: payment!.total };
}

async function receivedFor(orderId: number) {
  const db = await getDb();
  const rows = await db.select({ amount: orderReceipts.amount }).from(orderReceipts).where(eq(orderReceipts.orderId, orderId));
  return rows.reduce((sum, r) => sum + r.amount, 0);
}

/**
 * The buyer cancels in 302; finance then sees all of `total` on the bank statement ('Konfirmasi
 * Dana', issue 45): the refund is owed from then on.
 */
async function cancelAndConfirm(t: { buyer: { id: number }; orderId: number; total: number }) {
  expect(await cancelOrder(t.orderId, t.buyer.id)).toEqual({ ok: true });
  const [refund] = await listOwnedRefunds(t.orderId, t.buyer.id);
  expect(refund).toMatchObject({ state: "awaiting-funds", amount: t.total });
  expect(await confirmRefundFunds(refund!.id, "cli", { amount: String(t.total) })).toMatchObject({ ok: true });
  return refund!;
}

/** An operator is an account with staff roles; the store functions take its id (the routes check the role). */
async function newOperator() {
  return { operatorId: (await createBuyer()).id };
}

describe("finance's 'Tandai Sudah Ditransfer' holds only for the details it showed (issue 45 item 6)", () => {
  it("after 'Gagal' and the buyer's new details (or a correction) an old page's press is refused; the current page's goes through", async () => {
    const t = await transferIn302();
    const { id } = await cancelAndConfirm(t);
    expect(await submitRefundAccount(id, t.buyer.id, ACCOUNT)).toEqual({ ok: true });
    const oldPage = { version: accountVersionOf((await getRefund(id))!) };
    const finance = await newOperator();
    expect(await failRefund(id, finance, { reason: "Rekening tidak ditemukan" })).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await submitRefundAccount(id, t.buyer.id, { ...ACCOUNT, accountNumber: "5550001111" })).toEqual({ ok: true });
    const stale = { ok: false, kind: "account-changed", message: ACCOUNT_CHANGED };
    expect(await markRefundTransferred(id, finance, { reference: "TRF-OLD", account: oldPage })).toEqual(stale);
    expect(await getRefund(id)).toMatchObject({ state: "processing", transferReference: null, accountNumber: "5550001111" });
    // A correction while finance works moves the version too; a form without one (or a forged one) never holds.
    const beforeCorrection = { version: accountVersionOf((await getRefund(id))!) };
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await submitRefundAccount(id, t.buyer.id, { ...ACCOUNT, accountNumber: "5550002222" })).toEqual({ ok: true });
    expect(await markRefundTransferred(id, finance, { reference: "TRF-OLD", account: beforeCorrection })).toEqual(stale);
    for (const version of [null, "", "abc", "1e3"])
      expect(await markRefundTransferred(id, finance, { reference: "TRF-OLD", account: { version } })).toEqual(stale);
    const current = { version: accountVersionOf((await getRefund(id))!) };
    expect(await markRefundTransferred(id, finance, { reference: "TRF-NEW", account: current })).toEqual({ ok: true });
    expect(await getRefund(id)).toMatchObject({ state: "refunded", transferReference: "TRF-NEW", accountNumber: "5550002222" });
  });
});

describe("a buyer who cancels in 302 after transferring", () => {
  it("gets a refund of payment_total in the cancel's transaction, gives a valid account, and finance transfers it once", async () => {
    const { buyer, orderId, total } = await transferIn302();
    expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
    // Nothing is received on the buyer's picture alone (issue 45): finance confirms the money first.
    expect(await receivedFor(orderId)).toBe(0);
    const [waiting] = await listOwnedRefunds(orderId, buyer.id);
    expect(await confirmRefundFunds(waiting!.id, "cli", { amount: String(total) })).toMatchObject({ ok: true });
    const [refund] = await listOwnedRefunds(orderId, buyer.id);
    expect(refund).toMatchObject({ amount: total, state: "awaiting-account", method: "transfer" });
    expect(await receivedFor(orderId)).toBe(total);
    expect(await openRefundsOf(buyer.id)).toEqual({ count: 1, amount: total });
    // Someone else's order: nothing to see, nothing to change.
    const stranger = await createBuyer();
    expect(await listOwnedRefunds(orderId, stranger.id)).toEqual([]);
    expect(await submitRefundAccount(refund!.id, stranger.id, ACCOUNT)).toMatchObject({ ok: false, kind: "not-found" });

    expect(await submitRefundAccount(refund!.id, buyer.id, { ...ACCOUNT, accountNumber: "12ab" })).toMatchObject({
      ok: false,
      kind: "invalid",
      errors: { accountNumber: ACCOUNT_NUMBER_INVALID },
    });
    expect(await submitRefundAccount(refund!.id, buyer.id, { ...ACCOUNT, bankName: "Bank Entah" })).toMatchObject({
      errors: { bankName: BANK_REQUIRED },
    });
    expect(await submitRefundAccount(refund!.id, buyer.id, { ...ACCOUNT, accountNumber: "9876 5432 10" })).toEqual({ ok: true });
    // Until finance acts the buyer corrects a mistyped number: the state stays, the new details are what finance reads.
    expect(await submitRefundAccount(refund!.id, buyer.id, { ...ACCOUNT, accountNumber: "12ab" })).toMatchObject({ kind: "invalid" });
    expect(await submitRefundAccount(refund!.id, buyer.id, { ...ACCOUNT, accountNumber: "0123 4567 89" })).toEqual({ ok: true });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ state: "processing", accountNumber: "0123456789" }]);

    const finance = await newOperator();
    const account = { version: accountVersionOf((await getRefund(refund!.id))!) };
    expect(await markRefundTransferred(refund!.id, finance, { reference: " ", account })).toMatchObject({
      errors: { reference: REFERENCE_REQUIRED },
    });
    const [a, b] = await Promise.all([
      markRefundTransferred(refund!.id, finance, { reference: "TRF-001", account }),
      markRefundTransferred(refund!.id, finance, { reference: "TRF-002", account }),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const [done] = await listOwnedRefunds(orderId, buyer.id);
    expect(done).toMatchObject({ state: "refunded", accountNumber: "0123456789" });
    // Once finance has transferred, the details are what the money went to: no correction.
    expect(await submitRefundAccount(refund!.id, buyer.id, ACCOUNT)).toMatchObject({ ok: false, kind: "refused" });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ accountNumber: "0123456789" }]);
    expect(["TRF-001", "TRF-002"]).toContain(done!.transferReference);
    expect(await openRefundsOf(buyer.id)).toEqual({ count: 0, amount: 0 });

    const db = await getDb();
    const events = await db.select().from(refundEvents).where(eq(refundEvents.refundId, refund!.id));
    expect(events.map((e) => [e.fromState, e.toState])).toEqual([
      [null, "awaiting-funds"],
      ["awaiting-funds", "awaiting-account"],
      ["awaiting-account", "processing"],
      ["processing", "processing"],
      ["processing", "refunded"],
    ]);
    const bell = await db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.userId, buyer.id), eq(notifications.orderId, orderId)));
    expect(bell.map((n) => n.title)).toEqual(
      expect.arrayContaining(["Pengembalian Dana: Menunggu Data Rekening", "Pengembalian Dana: Dana Telah Dikembalikan"]),
    );
  });

  it("a failed transfer goes back to the buyer with the reason, who sends new details", async () => {
    const transfer = await transferIn302();
    const { buyer, orderId } = transfer;
    const refund = await cancelAndConfirm(transfer);
    expect(await submitRefundAccount(refund.id, buyer.id, ACCOUNT)).toEqual({ ok: true });
    const finance = await newOperator();
    expect(await failRefund(refund!.id, finance, { reason: "" })).toMatchObject({ kind: "invalid" });
    expect(await failRefund(refund!.id, finance, { reason: "Nama pemilik rekening tidak sesuai" })).toEqual({ ok: true });
    expect((await listOwnedRefunds(orderId, buyer.id))[0]).toMatchObject({
      state: "failed",
      failureReason: "Nama pemilik rekening tidak sesuai",
    });
    expect(await submitRefundAccount(refund!.id, buyer.id, { ...ACCOUNT, accountHolder: "Budi S" })).toEqual({ ok: true });
    expect((await listOwnedRefunds(orderId, buyer.id))[0]).toMatchObject({
      state: "processing",
      accountHolder: "Budi S",
      failureReason: null,
    });
  });
});

describe("refunds created by the back office", () => {
  it("a proof rejected for good refunds only with 'Dana diterima', awaiting finance's confirmation of the amount", async () => {
    const finance = await newOperator();
    const first = await transferIn302();
    expect(
      await applyOpsDecision(first.orderId, "reject-transfer-final", finance, { reason: "Nominal tidak sesuai", moneyReceived: false }),
    ).toMatchObject({
      ok: true,
      to: 2,
    });
    expect(await listOwnedRefunds(first.orderId, first.buyer.id)).toEqual([]);
    const second = await transferIn302();
    expect(
      await applyOpsDecision(second.orderId, "reject-transfer-final", finance, { reason: "Nominal tidak sesuai", moneyReceived: true }),
    ).toMatchObject({ ok: true });
    expect(await listOwnedRefunds(second.orderId, second.buyer.id)).toMatchObject([
      { amount: second.total, reason: "Nominal tidak sesuai", state: "awaiting-funds" },
    ]);
    expect(await receivedFor(second.orderId)).toBe(0);
  });

  it("'Batalkan dan Kembalikan Dana' moves a paid order 300 → 1, returns the stock unit and refunds what was received; a reason is required", async () => {
    const ops = await newOperator();
    const { buyer, orderId, productId, total } = await transferIn302();
    expect(await applyOpsDecision(orderId, "verify-transfer", ops)).toMatchObject({ ok: true, to: 300 });
    expect(await receivedFor(orderId)).toBe(total);
    const stock = await productStock(productId);
    expect(await applyOpsDecision(orderId, "cancel-refund", ops, { reason: "" })).toMatchObject({ ok: false, kind: "invalid" });
    expect(await applyOpsDecision(orderId, "cancel-refund", ops, { reason: "Stok rusak di gudang" })).toMatchObject({
      ok: true,
      from: 300,
      to: 1,
    });
    expect(await productStock(productId)).toBe(stock + 1);
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ amount: total, state: "awaiting-account" }]);
  });
});

describe("the guard: never more than was received", () => {
  it("refuses a refund above what is left, and of concurrent refunds of one order only one wins", async () => {
    const transfer = await transferIn302();
    const { orderId, total } = transfer;
    await cancelAndConfirm(transfer);
    const db = await getDb();
    expect(
      await db.transaction((tx) => createRefund(tx, { orderId, amount: 1, cause: "buyer-cancel", reason: "x", actor: "system" })),
    ).toEqual({
      ok: false,
      message: REFUND_ABOVE_RECEIVED,
    });
    // A second arrival of money, then two refunds of all of it racing.
    await db.insert(orderReceipts).values({ orderId, amount: 10_000, source: "incident", ref: `test:${randomUUID()}` });
    const race = await Promise.allSettled(
      [1, 2].map(() =>
        db.transaction(async (tx) => {
          const made = await createRefund(tx, {
            orderId,
            amount: "rest",
            cause: "amount-mismatch",
            reason: "lebih bayar",
            actor: "system",
          });
          if (!made.ok) throw new Error(made.message);
          return made;
        }),
      ),
    );
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const all = await db.select({ amount: refunds.amount }).from(refunds).where(eq(refunds.orderId, orderId));
    expect(all.reduce((s, r) => s + r.amount, 0)).toBe(total + 10_000);
  });
});

describe("money from the gateway", () => {
  it("a VA paid after the store expired the order becomes a paid-after-close refund", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "BNI-VA");
    const db = await getDb();
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(await transitionOrder(orderId, 200, 2, "system", "Pembayaran kedaluwarsa")).toEqual({ ok: true });
    const event = {
      id: `late-${randomUUID()}`,
      type: "payment.paid",
      vaNumber: payment!.vaNumber,
      amount: payment!.total,
      paidAt: new Date(),
    };
    expect(await settleGatewayEvent(event)).toMatchObject({ status: 200, outcome: "order-closed", replay: false });
    expect(await settleGatewayEvent(event)).toMatchObject({ status: 200, replay: true });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([
      { amount: payment!.total, state: "awaiting-account", method: "transfer" },
    ]);
    expect(await receivedFor(orderId)).toBe(payment!.total);
  });

  it("a card instalment goes back through the gateway's refund API, once even when pressed twice (sandbox refunds at once)", async () => {
    const ops = await newOperator();
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "BNI-INSTALLMENT", { tenor: 3 });
    expect(await applyOpsDecision(orderId, "approve-installment", ops)).toMatchObject({ ok: true });
    expect(await applyOpsDecision(orderId, "cancel-refund", ops, { reason: "Barang tidak tersedia" })).toMatchObject({ ok: true });
    const [refund] = await listOwnedRefunds(orderId, buyer.id);
    expect(refund).toMatchObject({ method: "gateway", state: "processing" });
    expect(await submitRefundAccount(refund!.id, buyer.id, ACCOUNT)).toMatchObject({ ok: false, kind: "refused" });
    const first = await refundThroughGateway(refund!.id, ops);
    const second = await refundThroughGateway(refund!.id, ops);
    expect(first).toEqual({ ok: true });
    expect(second).toEqual({ ok: true, already: true });
    const db = await getDb();
    expect(
      await db
        .select()
        .from(refundEvents)
        .where(and(eq(refundEvents.refundId, refund!.id), eq(refundEvents.toState, "refunded"))),
    ).toHaveLength(1);
  });
});

describe("where every rupiah is (/ops/finance, finance:report)", () => {
  it("counts the money received and refunded per WIB day and method, the open refunds, and finds no unbalanced order", async () => {
    const cancelled = await transferIn302();
    const { orderId, total } = cancelled;
    await cancelAndConfirm(cancelled);
    const { financeCsv, financeReport } = await import("./index");
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
    const report = await financeReport(day, day);
    const transfer = report.days.find((d) => d.method === "bank_transfer")!;
    expect(transfer.received).toBeGreaterThanOrEqual(total);
    expect(transfer.net).toBe(transfer.received - transfer.refunded);
    expect(report.open.amount).toBeGreaterThanOrEqual(total);
    expect(report.unbalanced.map((o) => o.orderId)).not.toContain(orderId);
    expect(financeCsv(report.days)).toMatch(new RegExp(`^Tanggal,Metode,Diterima,Dikembalikan,Bersih\\n${day},`));

    // Money received that no refund or payment accounts for: listed for the period it arrived in.
    const stray = await transferIn302();
    const db = await getDb();
    await db.transaction((tx) =>
      recordReceipt(tx, { orderId: stray.orderId, amount: 5_000, source: "incident", ref: `stray-${randomUUID()}` }),
    );
    expect((await financeReport(day, day)).unbalanced).toContainEqual(
      expect.objectContaining({ orderId: stray.orderId, received: 5_000, kept: 0, refunds: 0 }),
    );
    expect((await financeReport("2020-01-01", "2020-01-31")).unbalanced.map((o) => o.orderId)).not.toContain(stray.orderId);
  });
});
