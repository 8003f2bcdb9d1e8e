import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { notifications, orderReceipts, orders, payments, refundEvents } from "../../db/schema";
import { runOpsCommand } from "../../ops/commands";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "../../testing/payment-fixtures";
import { applyOpsDecision, MONEY_RECEIVED_REQUIRED } from "../back-office";
import { cancelOrder, transitionOrder } from "../orders";
import { markPaid } from "../payments";
import { FUNDS_NOTE_REQUIRED } from "~/lib/refunds";
import { confirmRefundFunds, financeReport, listOwnedRefunds, openRefundsOf, submitRefundAccount } from "./index";

// Issue 45 items 1, 2 and 4 through the store's own functions: every rejection of a transfer proof
// says whether the money arrived; a rejected proof gives a fresh window or its money becomes a
// refund; a manual transfer's refund waits in 'Menunggu Konfirmasi Dana' until finance confirms the
// amount on the statement; a receipt comes only from a money event.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
beforeAll(async () => {
  await getDb();
});

const ACCOUNT = { bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" };

async function transferIn302() {
  const buyer = await createBuyer();
  const orderId = await placeOrder(buyer, await createStockedProduct({ price: 5_000_000 }), "MANUAL-BNI");
  expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
  const db = await getDb();
  const [payment] = await db.select({ total: payments.total }).from(payments).where(eq(payments.orderId, orderId));
  return { buyer, orderId, total: payment!.total };
}

async function receiptsOf(orderId: number) {
  const db = await getDb();
  return db
    .select({ amount: orderReceipts.amount, source: orderReceipts.source })
    .from(orderReceipts)
    .where(eq(orderReceipts.orderId, orderId));
}

async function statusOf(orderId: number) {
  const db = await getDb();
  const [row] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  return row!.statusId;
}

async function ops(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const operator = async () => ({ operatorId: (await createBuyer()).id });
const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

describe("rejecting a transfer proof (issue 45 item 1)", () => {
  it("must say whether the money arrived, in the back office's function and in the CLI", async () => {
    const { orderId } = await transferIn302();
    const op = await operator();
    for (const decision of ["reject-transfer", "reject-transfer-final"] as const)
      expect(await applyOpsDecision(orderId, decision, op, { reason: "Nominal tidak sesuai" })).toMatchObject({
        ok: false,
        kind: "invalid",
        errors: { moneyReceived: MONEY_RECEIVED_REQUIRED },
      });
    expect((await ops("orders:reject-transfer-final", String(orderId), "Nominal", "tidak", "sesuai")).code).not.toBe(0);
    expect((await ops("orders:reject-transfer", String(orderId), "Nominal", "tidak", "sesuai")).code).not.toBe(0);
    expect(await statusOf(orderId)).toBe(302);
    const done = await ops("orders:reject-transfer-final", String(orderId), "--money-received", "Nominal", "tidak", "sesuai");
    expect(done).toMatchObject({ code: 0, out: `order ${orderId}: 302 → 2` });
  });

  it("without money: the buyer gets a fresh window, so a deadline that passed while the proof waited does not expire the new proof", async () => {
    const { buyer, orderId } = await transferIn302();
    const db = await getDb();
    // The proof waited past the payment's deadline.
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(payments.orderId, orderId));
    expect(
      await applyOpsDecision(orderId, "reject-transfer", await operator(), { reason: "Bukti buram", moneyReceived: false }),
    ).toMatchObject({
      ok: true,
    });
    expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
    expect(await statusOf(orderId)).toBe(302);
    expect(await listOwnedRefunds(orderId, buyer.id)).toEqual([]);
  });

  it("with money (302 → 200): its money becomes a refund awaiting finance, with no receipt until finance confirms it", async () => {
    const { buyer, orderId, total } = await transferIn302();
    expect(
      await applyOpsDecision(orderId, "reject-transfer", await operator(), { reason: "Nominal tidak sesuai", moneyReceived: true }),
    ).toMatchObject({ ok: true, to: 200 });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ state: "awaiting-funds", amount: total, method: "transfer" }]);
    expect(await receiptsOf(orderId)).toEqual([]);
    // A cancel in 200 afterwards: that refund still stands, nothing is lost.
    expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
    expect(await listOwnedRefunds(orderId, buyer.id)).toHaveLength(1);
  });
});

describe("'Menunggu Konfirmasi Dana' (issue 45 item 2)", () => {
  it("a cancel in 302 books no receipt; the buyer gives an account early; finance confirms what arrived and only that is received and owed", async () => {
    const { buyer, orderId, total } = await transferIn302();
    expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
    const [refund] = await listOwnedRefunds(orderId, buyer.id);
    expect(refund).toMatchObject({ state: "awaiting-funds", amount: total });
    expect(await receiptsOf(orderId)).toEqual([]);
    // Not 'Diterima' in /ops/finance, and not an open refund yet (nothing is owed).
    const report = await financeReport(today(), today());
    expect(report.unbalanced.map((u) => u.orderId)).not.toContain(orderId);

    // The buyer gives the account while finance checks: the state stays.
    expect(await submitRefundAccount(refund!.id, buyer.id, ACCOUNT)).toEqual({ ok: true });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ state: "awaiting-funds", accountNumber: "0123456789" }]);

    const finance = await operator();
    const arrived = total - 1_000_000;
    const [a, b] = await Promise.all([
      confirmRefundFunds(refund!.id, finance, { amount: String(arrived) }),
      confirmRefundFunds(refund!.id, finance, { amount: String(arrived) }),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    // The account was already there: straight to 'Sedang Diproses', for the amount that arrived.
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ state: "processing", amount: arrived }]);
    expect(await receiptsOf(orderId)).toEqual([{ amount: arrived, source: "transfer-confirmed" }]);
    expect(await openRefundsOf(buyer.id)).toEqual({ count: 1, amount: arrived });
    const after = await financeReport(today(), today());
    expect(after.unbalanced.map((u) => u.orderId)).not.toContain(orderId);

    const db = await getDb();
    const events = await db.select().from(refundEvents).where(eq(refundEvents.refundId, refund!.id)).orderBy(refundEvents.id);
    expect(events.map((e) => [e.fromState, e.toState])).toEqual([
      [null, "awaiting-funds"],
      ["awaiting-funds", "awaiting-funds"],
      ["awaiting-funds", "processing"],
    ]);
  });

  it("0 arrived closes it as 'Dana tidak diterima' with the reason, which the buyer is told; nothing is received or owed", async () => {
    const { buyer, orderId } = await transferIn302();
    expect(
      await applyOpsDecision(orderId, "reject-transfer-final", await operator(), { reason: "Bukti palsu", moneyReceived: true }),
    ).toMatchObject({ ok: true, to: 2 });
    const [refund] = await listOwnedRefunds(orderId, buyer.id);
    const finance = await operator();
    expect(await confirmRefundFunds(refund!.id, finance, { amount: "0" })).toMatchObject({
      ok: false,
      kind: "invalid",
      errors: { note: FUNDS_NOTE_REQUIRED },
    });
    expect(await confirmRefundFunds(refund!.id, finance, { amount: "abc" })).toMatchObject({ ok: false, kind: "invalid" });
    expect(await confirmRefundFunds(refund!.id, finance, { amount: "0", note: "Tidak ada di mutasi 1–3 Des" })).toEqual({
      ok: true,
      state: "not-received",
    });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([
      { state: "not-received", failureReason: "Tidak ada di mutasi 1–3 Des" },
    ]);
    expect(await receiptsOf(orderId)).toEqual([]);
    expect(await openRefundsOf(buyer.id)).toEqual({ count: 0, amount: 0 });
    const db = await getDb();
    const bell = await db
      .select({ title: notifications.title, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.userId, buyer.id), eq(notifications.orderId, orderId)));
    expect(bell).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          title: "Pengembalian Dana: Dana tidak diterima",
          body: expect.stringContaining("Tidak ada di mutasi 1–3 Des"),
        }),
      ]),
    );
    // The CLI's door: the same function, refused once done.
    expect((await ops("refunds:confirm-funds", String(refund!.id), "--amount", "5000")).code).not.toBe(0);
  });
});

describe("a receipt only from a money event (issue 45 item 4)", () => {
  it("a status change alone records no money; the verified proof records its total", async () => {
    const { orderId, total } = await transferIn302();
    expect(await applyOpsDecision(orderId, "verify-transfer", await operator())).toMatchObject({ ok: true, to: 300 });
    expect(await receiptsOf(orderId)).toEqual([{ amount: total, source: "payment" }]);

    const other = await transferIn302();
    expect(await transitionOrder(other.orderId, 302, 300, "system", "status only")).toEqual({ ok: true });
    expect(await receiptsOf(other.orderId)).toEqual([]);
  });
});
