import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { orderReceipts, payments } from "../../db/schema";
import { runOpsCommand } from "../../ops/commands";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "../../testing/payment-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { applyOpsDecision } from "../back-office";
import { cancelOrder } from "../orders";
import { markPaid } from "../payments";
import {
  confirmRefundFunds,
  financeReport,
  listOwnedRefunds,
  markRefundTransferred,
  type MoneyPicture,
  recordReceipt,
  submitRefundAccount,
} from "./index";

// The whole picture of /ops/finance and `finance:report` (issue 45 item 7): received = kept +
// refunded + open, for all time and for a period, with the difference a wrong row leaves, and
// 'Bersih' without the open refunds. All time reads the whole store: this file has its own database.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
ownDatabaseForThisFile();
beforeAll(async () => {
  await getDb();
});

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());

/** A manual transfer with its proof (302): its buyer and what it asked. */
async function transferIn302(price: number) {
  const buyer = await createBuyer();
  const orderId = await placeOrder(buyer, await createStockedProduct({ price }), "MANUAL-BNI");
  expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
  const db = await getDb();
  const [payment] = await db.select({ total: payments.total }).from(payments).where(eq(payments.orderId, orderId));
  return { buyer, orderId, total: payment!.total };
}

/** The buyer cancels in 302 and finance confirms all of it on the statement: a refund owed, awaiting the account. */
async function cancelledAndConfirmed(price: number) {
  const order = await transferIn302(price);
  expect(await cancelOrder(order.orderId, order.buyer.id)).toEqual({ ok: true });
  const [refund] = await listOwnedRefunds(order.orderId, order.buyer.id);
  expect(await confirmRefundFunds(refund!.id, "cli", { amount: String(order.total) })).toMatchObject({ ok: true });
  return { ...order, refundId: refund!.id };
}

const balanced = (kept: number, refunded: number, open: number): MoneyPicture => ({
  received: kept + refunded + open,
  kept,
  refunded,
  open,
  difference: 0,
  net: kept,
});

describe("the whole picture of the money", () => {
  it("adds up for all time and for a period (kept, refunded, open); a stray receipt shows as a difference; the CLI prints the same", async () => {
    const finance = { operatorId: (await createBuyer()).id };
    // Kept: a transfer verified, the order paid (300).
    const kept = await transferIn302(2_000_000);
    expect(await applyOpsDecision(kept.orderId, "verify-transfer", finance)).toMatchObject({ ok: true, to: 300 });
    // Open: cancelled after the money came, the refund waiting for the buyer's account.
    const open = await cancelledAndConfirmed(3_000_000);
    // Given back: cancelled, the buyer's account, finance's transfer.
    const given = await cancelledAndConfirmed(5_000_000);
    const account = { bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" };
    expect(await submitRefundAccount(given.refundId, given.buyer.id, account)).toEqual({ ok: true });
    expect(await markRefundTransferred(given.refundId, finance, { reference: "TRF-1", account: { numberEndsWith: "6789" } })).toEqual({
      ok: true,
    });

    const day = today();
    const report = await financeReport(day, day);
    const whole = balanced(kept.total, given.total, open.total);
    expect(report.allTime).toEqual(whole);
    expect(report.period).toEqual(whole);
    // The open refund is owed, not the store's: 'Bersih' is what it keeps.
    expect(report.allTime.net).toBe(report.allTime.received - report.allTime.refunded - report.allTime.open);
    // A period before any of it: nothing.
    expect((await financeReport("2020-01-01", "2020-01-31")).period).toEqual(balanced(0, 0, 0));

    // A period holds the orders whose money first arrived in it: the kept payment, moved to three
    // days ago, leaves today's picture and stays in one that reaches back to it.
    const db = await getDb();
    await db
      .update(orderReceipts)
      .set({ createdAt: new Date(Date.now() - 3 * 86_400_000) })
      .where(eq(orderReceipts.orderId, kept.orderId));
    expect((await financeReport(day, day)).period).toEqual(balanced(0, given.total, open.total));
    const threeDaysAgo = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date(Date.now() - 3 * 86_400_000));
    expect((await financeReport(threeDaysAgo, day)).period).toEqual(whole);

    // A wrong row: money received for the cancelled order that no payment or refund accounts for.
    await db.transaction((tx) =>
      recordReceipt(tx, { orderId: open.orderId, amount: 5_000, source: "incident", ref: `stray-${randomUUID()}` }),
    );
    const off = await financeReport(day, day);
    expect(off.allTime).toEqual({ ...whole, received: whole.received + 5_000, difference: 5_000, net: whole.net + 5_000 });
    expect(off.period).toMatchObject({ difference: 5_000 });

    // The CLI prints the days, then the same two pictures.
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOpsCommand(["finance:report", "--from", day, "--to", day], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    const text = out.join("\n");
    expect(text).toMatch(/^Tanggal,Metode,Diterima,Dikembalikan,Bersih\n/);
    const a = off.allTime;
    const p = off.period;
    expect(text.split("\n\n")[1]).toBe(
      [
        "Cakupan,Diterima,Disimpan,Dikembalikan,Pengembalian Terbuka,Selisih,Bersih",
        `sejak awal,${a.received},${a.kept},${a.refunded},${a.open},5000,${a.net}`,
        `${day}..${day},${p.received},${p.kept},${p.refunded},${p.open},5000,${p.net}`,
      ].join("\n"),
    );
  });
});
