import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { orderReceipts, orders, payments } from "../../db/schema";
import { runOpsCommand } from "../../ops/commands";
import { storeOnFakeMidtrans } from "../../testing/fake-midtrans-store";
import { createBuyer, createStockedProduct, placeOrder } from "../../testing/payment-fixtures";
import { listOwnedRefunds } from "../refunds";
import { applyOpsDecision, PAID_AT_GATEWAY, paidAtGateway } from "./index";
import { decisionsFrom } from "~/lib/ops-decisions";
import { action } from "~/routes/webhooks-midtrans";

// Issue 45 item 4 against the Midtrans fake (tests/fakes/midtrans.ts, real HTTP): a card instalment
// waits in 301 while the buyer is on Snap's page. The back office offers no 'Setujui' for it and the
// store refuses one in every door, so no receipt is recorded for money that never came; Midtrans's
// settlement records it, and only then does a cancel refund it.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

// The store on the fake Midtrans (its webhook route, the environment), for the whole file.
storeOnFakeMidtrans(action as Parameters<typeof storeOnFakeMidtrans>[0]);

async function facts(orderId: number) {
  const db = await getDb();
  const [order] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  const receipts = await db.select({ amount: orderReceipts.amount }).from(orderReceipts).where(eq(orderReceipts.orderId, orderId));
  return { statusId: order!.statusId, received: receipts.reduce((sum, r) => sum + r.amount, 0) };
}

describe("a Midtrans card instalment in 301 (issue 45 item 4)", () => {
  it("has no 'Setujui' and refuses one in every door; Midtrans's settlement records the money, which a cancel then refunds", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct({ price: 2_500_000, stock: 5 }), "BNI-INSTALLMENT", { tenor: 6 });
    const db = await getDb();
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(await facts(orderId)).toEqual({ statusId: 301, received: 0 });

    expect(await paidAtGateway(orderId)).toBe(true);
    expect(decisionsFrom(301, { paidAtGateway: true }).map((d) => d.intent)).toEqual(["reject-installment"]);
    const op = { operatorId: (await createBuyer()).id };
    expect(await applyOpsDecision(orderId, "approve-installment", op)).toEqual({
      ok: false,
      kind: "invalid",
      errors: {},
      message: PAID_AT_GATEWAY,
    });
    const cli: string[] = [];
    expect(
      await runOpsCommand(["orders:approve-installment", String(orderId)], { out: (l) => cli.push(l), err: (l) => cli.push(l) }),
    ).not.toBe(0);
    expect(await facts(orderId)).toEqual({ statusId: 301, received: 0 });

    // The buyer pays on Snap's page: the settlement is the money event.
    expect((await fetch(`${payment!.redirectUrl}/pay`, { method: "POST", redirect: "manual" })).status).toBe(302);
    expect(await facts(orderId)).toEqual({ statusId: 300, received: payment!.total });
    expect(await applyOpsDecision(orderId, "cancel-refund", op, { reason: "Barang tidak tersedia" })).toMatchObject({ ok: true });
    expect(await listOwnedRefunds(orderId, buyer.id)).toMatchObject([{ method: "gateway", amount: payment!.total }]);
  });
});
