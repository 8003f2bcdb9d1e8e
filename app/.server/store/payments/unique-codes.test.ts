import { randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { orders, payments } from "../../db/schema";
import { createBuyer, createStockedProduct, methodId, placeOrder, productStock, readyDraft } from "../../testing/payment-fixtures";
import { chooseDraftMethod, payDraft } from "../checkout";
import { getPaymentDetail } from "./page";
import { setOrderPayment } from "./set-payment";
import { UNIQUE_CODES_EXHAUSTED } from "./methods";
import { UNIQUE_CODE_MAX, UNIQUE_CODE_MIN } from "~/lib/payment-pricing";

// All 999 manual-transfer codes in use (issue 16 item 8): the buyer is told UNIQUE_CODES_EXHAUSTED
// and chooses another method; never a 500. Filling every code would break the manual transfers of
// other test files running at the same time on a shared PostgreSQL, so this runs on this file's
// own PGlite only.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 240_000 });

/** Holds every code still free with an open manual-transfer payment of a copy of `templateOrderId`. */
async function holdEveryFreeCode(templateOrderId: number): Promise<void> {
  const db = await getDb();
  const [template] = await db.select().from(orders).where(eq(orders.id, templateOrderId));
  const [templatePayment] = await db.select().from(payments).where(eq(payments.orderId, templateOrderId));
  const held = new Set(
    (
      await db
        .select({ code: payments.uniqueCode })
        .from(payments)
        .where(and(isNotNull(payments.uniqueCode), isNull(payments.closedAt)))
    ).map((p) => p.code),
  );
  const free: number[] = [];
  for (let code = UNIQUE_CODE_MIN; code <= UNIQUE_CODE_MAX; code++) if (!held.has(code)) free.push(code);
  const { id: _id, ...order } = template!;
  const copies = await db
    .insert(orders)
    .values(free.map((code) => ({ ...order, invoiceId: `INV/HELD/${code}-${randomUUID().slice(0, 8)}`, idempotencyKey: randomUUID() })))
    .returning({ id: orders.id });
  await db.insert(payments).values(
    copies.map(({ id }, i) => ({
      ...templatePayment!,
      orderId: id,
      gatewayRef: templatePayment!.gatewayRef && `${templatePayment!.gatewayRef}-${i}`,
      uniqueCode: free[i]!,
      total: templatePayment!.amount + free[i]!,
    })),
  );
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("all manual-transfer codes in use", () => {
  it("refuses the manual transfer with UNIQUE_CODES_EXHAUSTED before any order is made; another method goes through", async () => {
    const buyer = await createBuyer();
    await holdEveryFreeCode(await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI"));

    const product = await createStockedProduct({ stock: 4 });
    await readyDraft(buyer, product);
    await chooseDraftMethod(buyer.id, await methodId("MANUAL-BNI"));
    expect(await payDraft(buyer.id, randomUUID())).toEqual({ ok: false, code: "METHOD", message: UNIQUE_CODES_EXHAUSTED });
    expect(await productStock(product)).toBe(4);
    await chooseDraftMethod(buyer.id, await methodId("BNI-VA"));
    expect(await payDraft(buyer.id, randomUUID())).toMatchObject({ ok: true, created: true });
    expect(await productStock(product)).toBe(3);
  });

  // After the first case: every code is held.
  it("an order made with a manual transfer whose payment finds no code: the page releases the method and the buyer picks another", async () => {
    const buyer = await createBuyer();
    const db = await getDb();
    // An order whose payment was never opened, made just before the last code went: one held code
    // is let go for its making, then held again.
    const [held] = await db
      .select({ orderId: payments.orderId })
      .from(payments)
      .where(and(isNotNull(payments.uniqueCode), isNull(payments.closedAt)))
      .limit(1);
    await db.update(payments).set({ closedAt: new Date() }).where(eq(payments.orderId, held!.orderId));
    const orderId = await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI");
    await db.delete(payments).where(eq(payments.orderId, orderId));
    await db.update(payments).set({ closedAt: null }).where(eq(payments.orderId, held!.orderId));

    const detail = await getPaymentDetail(orderId, buyer.id);
    expect(detail).toMatchObject({ statusId: 200, method: null, notice: UNIQUE_CODES_EXHAUSTED, canMarkPaid: false });
    expect(await setOrderPayment(buyer.id, orderId, { paymentMethodId: await methodId("MANUAL-BNI") })).toEqual({
      ok: false,
      code: "METHOD",
      message: UNIQUE_CODES_EXHAUSTED,
    });
    expect(await setOrderPayment(buyer.id, orderId, { paymentMethodId: await methodId("BNI-VA") })).toMatchObject({ ok: true, orderId });
    expect(await getPaymentDetail(orderId, buyer.id)).toMatchObject({ method: { code: "BNI-VA" }, notice: null, canSandboxPay: true });
  });
});
