import http from "node:http";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../db/client";
import { orderEvents, orders, payments, webhookEvents } from "../db/schema";
import { resetEnvForTests } from "../env";
import { createBuyer, createStockedProduct, placeOrder, productStock } from "../testing/payment-fixtures";
import { action } from "~/routes/webhooks-payment";
import { sandboxEvent, sandboxPay } from "../store/payments/sandbox-pay";
import { hasValidSignature, signWebhookBody } from "../gateway/signature";
import { handlePaymentWebhook } from "./payment-webhook";
import { serveAction } from "../testing/action-server";

// The settlement webhook: the signature, the VA and amount checks, replays, and events for orders
// that expired — through the route's action (raw body, JSON answers) and, for 'Bayar (Sandbox)', over
// real HTTP to this test's own server at APP_URL.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

let server: http.Server;
beforeAll(async () => {
  await getDb();
  // The route's action behind a tiny HTTP front, standing in for the production server.
  const front = await serveAction(action as Parameters<typeof serveAction>[0]);
  server = front.server;
  process.env.APP_URL = front.url;
  resetEnvForTests();
});
afterAll(async () => {
  delete process.env.APP_URL;
  resetEnvForTests();
  await new Promise((resolve) => server?.close(resolve));
});

async function post(body: string, signature: string | null) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature !== null) headers["X-Signature"] = signature;
  const response = await action({
    request: new Request("http://localhost/webhooks/payment", { method: "POST", headers, body }),
  } as Parameters<typeof action>[0]);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function vaOrder(price = 28_500_000) {
  const buyer = await createBuyer();
  const product = await createStockedProduct({ price, stock: 5 });
  const orderId = await placeOrder(buyer, product, "BNI-VA");
  const db = await getDb();
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  return { buyer, product, orderId, vaNumber: payment!.vaNumber!, total: payment!.total };
}

async function state(orderId: number) {
  const db = await getDb();
  const [order] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  const paidEvents = await db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 300)));
  const recorded = await db.select().from(webhookEvents).where(eq(webhookEvents.orderId, orderId));
  return { statusId: order!.statusId, transitions: paidEvents.length, recorded: recorded.length };
}

describe("signature", () => {
  it("is the lowercase hex HMAC-SHA512 of the raw body, compared exactly", () => {
    const body = '{"id":"e1"}';
    const signature = signWebhookBody(body, "a-test-secret-of-16+");
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(hasValidSignature(body, signature, "a-test-secret-of-16+")).toBe(true);
    expect(hasValidSignature(`${body} `, signature, "a-test-secret-of-16+")).toBe(false);
    expect(hasValidSignature(body, signature.toUpperCase(), "a-test-secret-of-16+")).toBe(false);
    expect(hasValidSignature(body, signature.slice(0, 64), "a-test-secret-of-16+")).toBe(false);
    expect(hasValidSignature(body, signature, "another-secret-16+++")).toBe(false);
    expect(hasValidSignature(body, null)).toBe(false);
  });
});

describe("POST /webhooks/payment", () => {
  it("refuses a missing or bad signature with 401 and changes nothing", async () => {
    const { orderId, vaNumber, total } = await vaOrder();
    const event = sandboxEvent(vaNumber, total);
    expect(await post(event.body, null)).toEqual({ status: 401, body: { ok: false, error: "invalid-signature" } });
    expect((await post(event.body, "0".repeat(128))).status).toBe(401);
    // A body changed after signing (the amount) no longer matches its signature.
    expect((await post(event.body.replace(String(total), String(total - 1)), event.signature)).status).toBe(401);
    expect(await state(orderId)).toEqual({ statusId: 200, transitions: 0, recorded: 0 });
  });

  it("answers 404 for an unknown VA and 422 for another amount, changing nothing", async () => {
    const { orderId, vaNumber, total } = await vaOrder();
    const unknown = sandboxEvent("8808999999999999", total);
    expect(await post(unknown.body, unknown.signature)).toEqual({ status: 404, body: { ok: false, error: "unknown-va" } });
    const short = sandboxEvent(vaNumber, total - 1_000);
    expect(await post(short.body, short.signature)).toEqual({ status: 422, body: { ok: false, error: "amount-mismatch" } });
    const more = sandboxEvent(vaNumber, total + 1);
    expect((await post(more.body, more.signature)).status).toBe(422);
    expect(await state(orderId)).toEqual({ statusId: 200, transitions: 0, recorded: 0 });
    const malformed = '{"id": 1}';
    expect((await post(malformed, signWebhookBody(malformed))).status).toBe(400);
  });

  it("settles 200 → 300 once; the same event again (ten times, concurrently) changes nothing", async () => {
    const { orderId, vaNumber, total } = await vaOrder();
    const event = sandboxEvent(vaNumber, total);
    expect(await post(event.body, event.signature)).toEqual({ status: 200, body: { ok: true, outcome: "settled", replay: false } });
    expect(await state(orderId)).toEqual({ statusId: 300, transitions: 1, recorded: 1 });
    const replays = await Promise.all(Array.from({ length: 10 }, () => post(event.body, event.signature)));
    expect(replays.every((r) => r.status === 200 && r.body.replay === true && r.body.outcome === "settled")).toBe(true);
    expect(await state(orderId)).toEqual({ statusId: 300, transitions: 1, recorded: 1 });
    const db = await getDb();
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({ closedReason: "paid" });
    expect(payment!.paidAt).not.toBeNull();
    const [settlement] = await db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 300)));
    expect(settlement).toMatchObject({ fromStatus: 200, actor: "gateway" });

    // A second, different payment event for the paid order: recorded, nothing moves.
    const second = sandboxEvent(vaNumber, total);
    expect(await post(second.body, second.signature)).toEqual({ status: 200, body: { ok: true, outcome: "already-paid", replay: false } });
    expect(await state(orderId)).toEqual({ statusId: 300, transitions: 1, recorded: 2 });
  });

  it("moves exactly once when the first delivery and its duplicates arrive together", async () => {
    const { orderId, vaNumber, total } = await vaOrder();
    const event = sandboxEvent(vaNumber, total);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(event.body, event.signature)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.replay === false)).toHaveLength(1);
    expect(await state(orderId)).toEqual({ statusId: 300, transitions: 1, recorded: 1 });
  });

  it("records an event for an expired or cancelled order and changes nothing", async () => {
    const expired = await vaOrder();
    const db = await getDb();
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(payments.orderId, expired.orderId));
    const late = sandboxEvent(expired.vaNumber, expired.total);
    expect(await post(late.body, late.signature)).toEqual({ status: 200, body: { ok: true, outcome: "order-closed", replay: false } });
    expect(await state(expired.orderId)).toEqual({ statusId: 2, transitions: 0, recorded: 1 });
    expect(await productStock(expired.product)).toBe(5);

    const cancelled = await vaOrder();
    const { transitionOrder } = await import("../store/orders");
    await transitionOrder(cancelled.orderId, 200, 1, `buyer:${cancelled.buyer.id}`);
    const event = sandboxEvent(cancelled.vaNumber, cancelled.total);
    expect((await post(event.body, event.signature)).body).toMatchObject({ outcome: "order-closed" });
    expect(await state(cancelled.orderId)).toEqual({ statusId: 1, transitions: 0, recorded: 1 });
  });

  it("refuses a body over 16 KB with 413 before reading it all", async () => {
    const body = JSON.stringify({ id: "big", padding: "x".repeat(20_000) });
    expect(await post(body, signWebhookBody(body))).toEqual({ status: 413, body: { ok: false, error: "body-too-large" } });
    const answer = await handlePaymentWebhook("not json", signWebhookBody("not json"));
    expect(answer.status).toBe(400);
  });
});

describe("'Bayar (Sandbox)'", () => {
  it("sends the signed webhook over HTTP to APP_URL and the order is paid; only the owner's open VA can be paid", async () => {
    const { buyer, orderId } = await vaOrder(5_000_000);
    const stranger = await createBuyer();
    expect(await sandboxPay(orderId, stranger.id)).toMatchObject({ ok: false });
    expect(await sandboxPay(orderId, buyer.id)).toEqual({ ok: true, status: 200, body: { ok: true, outcome: "settled", replay: false } });
    expect(await state(orderId)).toEqual({ statusId: 300, transitions: 1, recorded: 1 });
    expect(await sandboxPay(orderId, buyer.id)).toMatchObject({ ok: false });

    const manualBuyer = await createBuyer();
    const manual = await placeOrder(manualBuyer, await createStockedProduct(), "MANUAL-BNI");
    expect(await sandboxPay(manual, manualBuyer.id)).toMatchObject({ ok: false });
  });
});
