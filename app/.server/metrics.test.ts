import { describe, expect, it } from "vitest";
import { countMailFailure, countPaymentNotification, countRateLimited, mayReadMetrics, registry, scrapeMetrics } from "./metrics";
import { registerStoreMetrics } from "./store/back-office";
import { eq, sql } from "drizzle-orm";
import { getDb } from "./db/client";
import { queryRows } from "./db/query-rows";
import { orders } from "./db/schema";
import { ORDER_STATUSES } from "./db/reference-data";
import { createOrderInStatus } from "./testing/order-fixtures";
import { createBuyer, createStockedProduct, placeOrder } from "./testing/payment-fixtures";

// As http/serving.ts does for GET /metrics.
registerStoreMetrics(registry);

describe("who may read /metrics", () => {
  const token = "metrics-token-0123456789";
  it("a client on this machine talking to the app directly", () => {
    expect(mayReadMetrics(true, undefined, undefined)).toBe(true);
  });
  it("anyone else only with the bearer token", () => {
    expect(mayReadMetrics(false, undefined, token)).toBe(false);
    expect(mayReadMetrics(false, "Bearer wrong-token-0123456789", token)).toBe(false);
    expect(mayReadMetrics(false, `Basic ${token}`, token)).toBe(false);
    expect(mayReadMetrics(false, `Bearer ${token}`, token)).toBe(true);
    // No token configured: nobody from elsewhere.
    expect(mayReadMetrics(false, "Bearer ", undefined)).toBe(false);
  });
});

describe("the scrape", () => {
  it("exports every known order status and every queue from the first scrape, 0 when empty (issue 25)", async () => {
    const db = await getDb();
    // What the database holds (nothing on this file's own PGlite; other files' rows on the shared
    // PostgreSQL of CI's second run): the scrape says the same, 0 included.
    const [done] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from orders where status_id = 500`);
    const [asked] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from balance_entries where kind = 'withdrawal' and status = 'Dalam Proses'`,
    );
    const { body } = await scrapeMetrics();
    for (const { id } of ORDER_STATUSES) expect(body).toMatch(new RegExp(`^store_orders\\{status="${id}"\\} \\d+$`, "m"));
    expect(body).toMatch(new RegExp(`^store_orders\\{status="500"\\} ${done!.n}$`, "m"));
    for (const queue of ["100", "301", "302", "300", "withdrawals"])
      expect(body).toMatch(new RegExp(`^store_oldest_waiting_seconds\\{queue="${queue}"\\} \\d+$`, "m"));
    if (asked!.n === 0) expect(body).toMatch(/^store_oldest_waiting_seconds\{queue="withdrawals"\} 0$/m);
  });

  it("has the request histogram, process metrics, the store's state from the database and the counters", async () => {
    const buyer = await createBuyer();
    await placeOrder(buyer, await createStockedProduct({ stock: 3 }), "BNI-VA");
    // An incentive order waiting for an operator since an hour ago.
    const waiting = await createOrderInStatus(await getDb(), 100);
    await (
      await getDb()
    )
      .update(orders)
      .set({ statusChangedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(orders.id, waiting.orderId));
    countPaymentNotification("sandbox", "bad_signature");
    countMailFailure();
    countRateLimited("login");
    const started = performance.now();
    const { body, contentType } = await scrapeMetrics();
    const ms = performance.now() - started;
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain("# TYPE http_request_duration_seconds histogram");
    expect(body).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(body).toMatch(/^store_orders\{status="200"\} [1-9]\d*$/m);
    expect(body).toContain("# TYPE store_oldest_waiting_seconds gauge");
    expect(Number(body.match(/^store_oldest_waiting_seconds\{queue="100"\} (\d+)$/m)?.[1])).toBeGreaterThanOrEqual(3600);
    expect(body).toMatch(/^store_payment_notifications_total\{gateway="sandbox",outcome="bad_signature"\} 1$/m);
    expect(body).toMatch(/^store_mail_failures_total 1$/m);
    expect(body).toMatch(/^store_rate_limited_total\{limit="login"\} 1$/m);
    expect(ms).toBeLessThan(1000);
  });
});
