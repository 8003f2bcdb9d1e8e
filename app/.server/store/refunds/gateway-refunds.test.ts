import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { FakeMidtrans } from "../../../../tests/fakes/midtrans";
import { getDb } from "../../db/client";
import { orderReceipts, paymentIncidents, payments, refundEvents, refunds } from "../../db/schema";
import { log } from "../../log";
import { storeOnFakeMidtrans } from "../../testing/fake-midtrans-store";
import { createBuyer, createStockedProduct, placeOrder } from "../../testing/payment-fixtures";
import { applyOpsDecision } from "../back-office";
import { expireOverduePayments } from "../payments";
import { getRefund, listOwnedRefunds, markRefundTransferred, refundKey, refundThroughGateway, submitRefundAccount } from "./index";
import { action } from "~/routes/webhooks-midtrans";

// Money back through Midtrans when the calls and the notifications disagree (issue 45 items 3 and 5),
// against the Midtrans fake (tests/fakes/midtrans.ts, real HTTP, its notifications through the
// webhook route): a refund call refused although Midtrans made (or later makes) the refund, and a
// crash between a paid-after-close notification's event row and its refund.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

const ACCOUNT = { bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" };
// The store on the fake Midtrans (its webhook route, the environment), for the whole file.
const midtrans = storeOnFakeMidtrans(action as Parameters<typeof storeOnFakeMidtrans>[0]);
let fake: FakeMidtrans;
beforeAll(() => {
  fake = midtrans.fake;
});

const finance = async () => ({ operatorId: (await createBuyer()).id });

/** A card instalment paid on Snap's page, then cancelled by the store: a card refund 'Sedang Diproses'. */
async function cardRefund() {
  const buyer = await createBuyer();
  const orderId = await placeOrder(buyer, await createStockedProduct({ price: 2_500_000, stock: 5 }), "BNI-INSTALLMENT", { tenor: 6 });
  const db = await getDb();
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  expect((await fetch(`${payment!.redirectUrl}/pay`, { method: "POST", redirect: "manual" })).status).toBe(302);
  expect(await applyOpsDecision(orderId, "cancel-refund", await finance(), { reason: "Barang tidak tersedia" })).toMatchObject({
    ok: true,
  });
  const [refund] = await listOwnedRefunds(orderId, buyer.id);
  expect(refund).toMatchObject({ method: "gateway", state: "processing", amount: payment!.total });
  return { buyer, orderId, ref: payment!.gatewayRef!, total: payment!.total, refundId: refund!.id };
}

/** Midtrans refuses the call (412) and makes the refund later: the store turned it into a transfer. */
async function refusedThenMadeLater() {
  const card = await cardRefund();
  fake.deferNextRefunds = 1;
  const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
  try {
    expect(await refundThroughGateway(card.refundId, await finance())).toMatchObject({ ok: false, kind: "refused" });
  } finally {
    warn.mockRestore();
  }
  expect(await getRefund(card.refundId)).toMatchObject({ state: "failed", method: "transfer" });
  return card;
}

async function incidentsOf(orderId: number) {
  const db = await getDb();
  return db
    .select({ kind: paymentIncidents.kind, amount: paymentIncidents.amount, gatewayRef: paymentIncidents.gatewayRef })
    .from(paymentIncidents)
    .where(eq(paymentIncidents.orderId, orderId));
}

async function notesOf(refundId: number) {
  const db = await getDb();
  const rows = await db
    .select({ from: refundEvents.fromState, to: refundEvents.toState, note: refundEvents.note })
    .from(refundEvents)
    .where(eq(refundEvents.refundId, refundId));
  return rows;
}

describe("a card refund Midtrans refused on the call (issue 45 item 3)", () => {
  it("made all the same: the status API lists its refund_key, so it is given back, not turned into a transfer", async () => {
    const card = await cardRefund();
    fake.refuseAnswersOfNextRefunds = 1;
    expect(await refundThroughGateway(card.refundId, await finance())).toEqual({ ok: true });
    expect(await getRefund(card.refundId)).toMatchObject({ state: "refunded", method: "gateway" });
    expect(fake.transactions.get(card.ref)!.refunds).toMatchObject([{ refund_key: refundKey(card.refundId) }]);
    expect(fake.calls.filter((c) => c === `GET /v2/${card.ref}/status`).length).toBeGreaterThan(0);
  });

  it("made later: the late notification stops the transfer not yet paid (no 'Tandai Sudah Ditransfer' after it) and raises an incident, once", async () => {
    // One waits for the buyer's account ('Gagal Diproses'), the other for finance's transfer.
    for (const givesAccount of [false, true]) {
      const card = await refusedThenMadeLater();
      if (givesAccount) {
        expect(await submitRefundAccount(card.refundId, card.buyer.id, ACCOUNT)).toEqual({ ok: true });
        expect(await getRefund(card.refundId)).toMatchObject({ state: "processing", method: "transfer" });
      }
      const before = await getRefund(card.refundId);
      expect(fake.makeDeferredRefunds(card.ref)).toBe(1);
      expect(await fake.notify(card.ref)).toMatchObject({ status: 200 });
      expect(await getRefund(card.refundId)).toMatchObject({ state: "refunded", method: "gateway", failureReason: null });
      expect((await notesOf(card.refundId)).at(-1)).toMatchObject({
        from: before!.state,
        to: "refunded",
        note: expect.stringContaining("transfer bank dihentikan"),
      });
      expect(await incidentsOf(card.orderId)).toEqual([
        { kind: "refund-transfer-stopped", amount: card.total, gatewayRef: refundKey(card.refundId) },
      ]);
      // Finance can no longer pay it, and Midtrans's retries change nothing.
      expect(
        await markRefundTransferred(card.refundId, "cli", {
          reference: "TRF-1",
          account: { numberEndsWith: ACCOUNT.accountNumber.slice(-4) },
        }),
      ).toMatchObject({ ok: false, kind: "refused" });
      expect(await fake.notify(card.ref)).toMatchObject({ status: 200 });
      expect(await incidentsOf(card.orderId)).toHaveLength(1);
      expect(await getRefund(card.refundId)).toMatchObject({ state: "refunded", method: "gateway" });
    }
  });

  it("made after finance's transfer: recorded on the refund, which stays transferred, and an incident says it was paid twice", async () => {
    const card = await refusedThenMadeLater();
    expect(await submitRefundAccount(card.refundId, card.buyer.id, ACCOUNT)).toEqual({ ok: true });
    expect(
      await markRefundTransferred(card.refundId, "cli", {
        reference: "TRF-20261207-1",
        account: { numberEndsWith: ACCOUNT.accountNumber.slice(-4) },
      }),
    ).toEqual({ ok: true });
    const events = (await notesOf(card.refundId)).length;
    expect(fake.makeDeferredRefunds(card.ref)).toBe(1);
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    try {
      expect(await fake.notify(card.ref)).toMatchObject({ status: 200 });
      expect(await fake.notify(card.ref)).toMatchObject({ status: 200 });
    } finally {
      warn.mockRestore();
    }
    expect(await getRefund(card.refundId)).toMatchObject({ state: "refunded", method: "transfer", transferReference: "TRF-20261207-1" });
    const notes = await notesOf(card.refundId);
    expect(notes).toHaveLength(events + 1);
    expect(notes.at(-1)).toMatchObject({ from: "refunded", to: "refunded", note: expect.stringContaining("dua kali") });
    expect(await incidentsOf(card.orderId)).toEqual([{ kind: "refunded-twice", amount: card.total, gatewayRef: refundKey(card.refundId) }]);
  });
});

describe("a crash between a paid-after-close notification's event and its refund (issue 45 item 5)", () => {
  it("the gateway's retry records the incident and its refund instead of stopping at the event", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct({ price: 2_500_000, stock: 5 }), "BRI-VA");
    const db = await getDb();
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.orderId, orderId));
    expect(await expireOverduePayments()).toContain(orderId);
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    // Midtrans settles it after all (its expire call never arrived there); the store crashes while
    // writing the refund (a constraint refusing this order's refund stands for the crash), then
    // Midtrans retries the notification.
    Object.assign(fake.transactions.get(payment!.gatewayRef!)!, {
      transaction_status: "settlement",
      settlement_time: "2026-11-25 10:00:00",
    });
    const crash = sql.raw(`refunds_crash_${orderId}`);
    await db.execute(sql`alter table refunds add constraint ${crash} check (order_id <> ${sql.raw(String(orderId))}) not valid`);
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    try {
      expect(await fake.notify(payment!.gatewayRef!)).toMatchObject({ status: 500 });
    } finally {
      warn.mockRestore();
      await db.execute(sql`alter table refunds drop constraint ${crash}`);
    }
    expect(await fake.notify(payment!.gatewayRef!)).toMatchObject({ status: 200, body: { outcome: "paid-after-close" } });
    expect(await incidentsOf(orderId)).toEqual([{ kind: "paid-after-close", amount: payment!.total, gatewayRef: payment!.gatewayRef }]);
    const owed = await db
      .select({ amount: refunds.amount, cause: refunds.cause })
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId)));
    expect(owed).toEqual([{ amount: payment!.total, cause: "paid-after-close" }]);
    const received = await db.select({ amount: orderReceipts.amount }).from(orderReceipts).where(eq(orderReceipts.orderId, orderId));
    expect(received).toEqual([{ amount: payment!.total }]);
    expect(await fake.notify(payment!.gatewayRef!)).toMatchObject({ status: 200, body: { outcome: "replay" } });
    expect(await incidentsOf(orderId)).toHaveLength(1);
  });
});
