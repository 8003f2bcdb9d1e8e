import { and, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb } from "../../db/client";
import { orderEvents, orders, payments } from "../../db/schema";
import { createBuyer, createStockedProduct, placeOrder, productStock } from "../../testing/payment-fixtures";
import { expireOverduePayments } from "./settlement";

// Several instances run the expiry sweep every minute each (entry.server.tsx): sweeps that overlap
// must act once per order (one transition, one event, the stock unit back once), as each order's
// move is a conditional update. On PostgreSQL (.ci/run) the sweeps run on separate connections.
it("two sweeps at once expire each overdue order once", async () => {
  const buyer = await createBuyer();
  const product = await createStockedProduct({ stock: 4 });
  const overdue = [await placeOrder(buyer, product, "BNI-VA"), await placeOrder(buyer, product, "BRI-VA")];
  expect(await productStock(product)).toBe(2);
  const db = await getDb();
  await db
    .update(payments)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(inArray(payments.orderId, overdue));

  const [a, b] = await Promise.all([expireOverduePayments(), expireOverduePayments()]);
  const mine = [...a, ...b].filter((id) => overdue.includes(id));
  expect(mine.sort()).toEqual([...overdue].sort());
  expect(await productStock(product)).toBe(4);
  const events = await db
    .select()
    .from(orderEvents)
    .where(and(inArray(orderEvents.orderId, overdue), eq(orderEvents.toStatus, 2)));
  expect(events).toHaveLength(2);
  const statuses = await db.select({ statusId: orders.statusId }).from(orders).where(inArray(orders.id, overdue));
  expect(statuses.map((s) => s.statusId)).toEqual([2, 2]);
});
