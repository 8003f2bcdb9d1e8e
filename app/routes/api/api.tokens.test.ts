import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "~/.server/db/client";
import {
  balanceEntries,
  checkoutDrafts,
  orderEvents,
  orders,
  payments,
  savedAddresses,
  sessions,
  uploads,
  users,
} from "~/.server/db/schema";
import { saveDraftAddress, setDraftKtp, startCheckout } from "~/.server/store/checkout";
import { createProduct, createVerifiedUser, INCENTIVE_PROMO, realAddress, submission, type TestUser } from "~/.server/testing/fixtures";
import { createOrderFromDraft } from "~/.server/store/checkout";
import { transitionOrder } from "~/.server/store/orders";
import { methodId } from "~/.server/testing/payment-fixtures";
import { setOrderPayment } from "~/.server/store/payments";
import { createSession, hashToken, revokeSession } from "~/.server/store/people";
import { saveUpload } from "~/.server/store/orders";
import { processImageUpload } from "~/.server/images";
import { API_AREAS, buildOpenApi } from "./openapi.server";
import { apiCaller } from "../../.server/testing/api-client";

const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));

// The token matrix (issue 19): every call that needs a token, tried with no token, a malformed one,
// a revoked one, an expired one, a web session's id, and another buyer's valid token aimed at the
// victim's orders, uploads and account. Counted: leaks (any of the victim's data in an answer) and
// foreign writes (any change to the victim's rows). Both must be 0.

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let db: Db;
let photo: Awaited<ReturnType<typeof processImageUpload>> & { ok: true };

beforeAll(async () => {
  db = await getDb();
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 90 } } })
    .png()
    .toBuffer();
  photo = (await processImageUpload(new File([new Uint8Array(png)], "p.png", { type: "image/png" }))) as typeof photo;
});

/** An incentive order of `user` moved along `path` after 100. */
async function orderOf(
  user: TestUser,
  path: number[] = [],
  nik = `32${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`,
) {
  const product = await createProduct(db, { promos: [INCENTIVE_PROMO] });
  await startCheckout({ id: user.id, verified: true }, product);
  await saveDraftAddress(user.id, await realAddress(db));
  const ktp = await saveUpload(user.id, "ktp", photo.file);
  await setDraftKtp(user.id, ktp);
  const created = await createOrderFromDraft(
    user.id,
    randomUUID(),
    submission(user, { insentif: true, buyerDadName: "Ahmad", buyerNik: nik }),
    { statusId: 100 },
  );
  if (!created.ok) throw new Error(created.message);
  let from = 100;
  for (const to of path) {
    const moved = await transitionOrder(created.orderId, from, to, "test");
    if (!moved.ok) throw new Error(moved.message);
    from = to;
  }
  return { orderId: created.orderId, ktp, nik };
}

/** Everything of the victim's that a call could change. */
async function victimState(victim: TestUser, orderIds: number[]) {
  const rows = [];
  for (const id of orderIds) {
    rows.push({
      order: (
        await db
          .select({ statusId: orders.statusId, updatedAt: orders.updatedAt, paymentMethodId: orders.paymentMethodId })
          .from(orders)
          .where(eq(orders.id, id))
      )[0],
      events: (await db.select({ id: orderEvents.id }).from(orderEvents).where(eq(orderEvents.orderId, id))).length,
      payment:
        (
          await db
            .select({ markedPaidAt: payments.markedPaidAt, closedAt: payments.closedAt })
            .from(payments)
            .where(eq(payments.orderId, id))
        )[0] ?? null,
    });
  }
  return {
    rows,
    user: (
      await db
        .select({
          fullname: users.fullname,
          phoneNo: users.phoneNo,
          updatedAt: users.updatedAt,
          resendAvailableAt: users.resendAvailableAt,
        })
        .from(users)
        .where(eq(users.id, victim.id))
    )[0],
    address:
      (await db.select({ address: savedAddresses.address }).from(savedAddresses).where(eq(savedAddresses.userId, victim.id)))[0] ?? null,
    draft:
      (await db.select({ updatedAt: checkoutDrafts.updatedAt }).from(checkoutDrafts).where(eq(checkoutDrafts.userId, victim.id)))[0] ??
      null,
    uploads: (await db.select({ id: uploads.id }).from(uploads).where(eq(uploads.ownerId, victim.id))).length,
    balance: (await db.select({ id: balanceEntries.id }).from(balanceEntries).where(eq(balanceEntries.userId, victim.id))).length,
    tokens: (await db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.userId, victim.id))).map((s) =>
      String(s.revokedAt),
    ),
  };
}

describe("token matrix", () => {
  it("every call: 401 without a valid API token; another buyer's token reaches none of the victim's data", async () => {
    const victim = await createVerifiedUser(db, { phoneNo: "081355550001" });
    const attacker = await createVerifiedUser(db, { phoneNo: "081355550002" });
    const waiting = await orderOf(victim); // 100
    const approved = await orderOf(victim, [200]); // 200 without a method: set-payment's target
    const manual = await orderOf(victim, [200]);
    const paid = await setOrderPayment(victim.id, manual.orderId, { paymentMethodId: await methodId("MANUAL-BNI") });
    expect(paid.ok).toBe(true);
    const shipped = await orderOf(victim, [200, 300, 400]); // 400: confirm's target
    const victimOrders = [waiting, approved, manual, shipped];
    const victimToken = await createSession(victim.id, "api");
    const transferProof = await saveUpload(victim.id, "transfer-proof", photo.file);
    const deliveryProof = await saveUpload(victim.id, "delivery-proof", photo.file);
    const [invoice] = await db.select({ invoiceId: orders.invoiceId }).from(orders).where(eq(orders.id, waiting.orderId));
    const secrets = [
      victim.email,
      victim.nip,
      victim.phoneNo,
      invoice!.invoiceId,
      waiting.ktp,
      transferProof,
      deliveryProof,
      victimToken,
      ...victimOrders.map((o) => o.nik),
    ];

    // The tokens that must not work.
    const revoked = await createSession(victim.id, "api");
    await revokeSession(revoked);
    const expired = await createSession(victim.id, "api");
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, hashToken(expired)));
    const webSession = await createSession(victim.id, "web");
    const invalidTokens: [string, string | undefined][] = [
      ["none", undefined],
      ["malformed", "not a token"],
      ["unknown", "A".repeat(43)],
      ["revoked", revoked],
      ["expired", expired],
      ["web session id", webSession],
    ];

    const address = await realAddress(db);
    const inputsFor = (orderId: number): Record<string, { query?: string; json?: unknown; form?: () => FormData }> => ({
      "/auth/resend-email-verification": { json: { email: victim.email } },
      "/auth/logout": {},
      "/user/update-profile": { json: { fullname: "Penyusup", phoneNo: "081299999999" } },
      "/user/order/set-location": { json: address },
      "/order/history": { query: `statusId=100` },
      "/order/detail": { query: `orderId=${orderId}` },
      "/order/cancel": { json: { orderId } },
      "/order/confirm": { json: { orderId, buktiImageUrls: [`/uploads/${deliveryProof}`] } },
      "/order/open-va": { query: `orderId=${orderId}` },
      "/order/mark-paid": { json: { orderId, buktiImageUrl: `/uploads/${transferProof}` } },
      "/order/create": { json: { orderProducts: [{ id: 1 }], ktpImageUrl: `/uploads/${waiting.ktp}`, buyerNik: waiting.nik } },
      "/order/set-payment": { json: { id: orderId, paymentMethodId: 1 } },
      "/order/checkout-check": { query: `productId=1&nip=${encodeURIComponent(victim.nip)}` },
      "/otp/request": { json: { orderId } },
      "/otp/validate": { json: { otp: "1234" } },
      "/refund/list": { query: `orderId=${orderId}` },
      "/refund/account": { json: { orderId, refundId: 1, bankName: "BCA", accountNumber: "1234567890", accountHolder: "Penyusup" } },
      "/user/delete-account": { json: { password: "bukan-sandinya" } },
      "/payment/methods": { json: { totalDiscount: 1000 } },
      "/payment/installment": { json: { totalDiscount: 1000, paymentId: 5 } },
      "/payment/select": { json: { totalDiscount: 1000, paymentMethodId: 1 } },
      "/payment/sandbox-pay": { json: { orderId } },
      "/upload": { form: () => Object.assign(new FormData(), {}) },
      "/notification/list": {},
      "/notification/read": { json: {} },
    });

    const before = await victimState(
      victim,
      victimOrders.map((o) => o.orderId),
    );
    const authedCalls = API_AREAS.flatMap((area) =>
      Object.entries(area.routes)
        .filter(([, r]) => r.auth)
        .map(([sub, r]) => ({ path: `/${area.area}${sub}`, method: r.method })),
    );
    expect(authedCalls).toHaveLength(35);

    let answered = 0;
    let leaks = 0;
    const wrongStatus: string[] = [];
    for (const call of authedCalls) {
      const input = inputsFor(waiting.orderId)[call.path] ?? {};
      for (const [name, token] of invalidTokens) {
        const answer = await callApi(call.method, input.query ? `${call.path}?${input.query}` : call.path, {
          token,
          json: input.json,
          form: input.form?.(),
        });
        answered++;
        if (answer.status !== 401 || answer.body.data !== null) wrongStatus.push(`${name} ${call.method} ${call.path} → ${answer.status}`);
        if (secrets.some((s) => JSON.stringify(answer.body).includes(s))) leaks++;
      }
    }

    // Another buyer's valid token against each of the victim's orders (logout last: it ends the token).
    const attackerToken = await createSession(attacker.id, "api");
    const ordered = [...authedCalls.filter((c) => c.path !== "/auth/logout"), ...authedCalls.filter((c) => c.path === "/auth/logout")];
    const foreignOrderStatuses: string[] = [];
    for (const call of ordered) {
      for (const target of victimOrders) {
        const input = inputsFor(target.orderId)[call.path] ?? {};
        const answer = await callApi(call.method, input.query ? `${call.path}?${input.query}` : call.path, {
          token: attackerToken,
          json: input.json,
          form: input.form?.(),
        });
        answered++;
        if (secrets.some((s) => JSON.stringify(answer.body).includes(s))) leaks++;
        const takesOrder = [
          "/order/detail",
          "/order/cancel",
          "/order/confirm",
          "/order/open-va",
          "/order/mark-paid",
          "/order/set-payment",
          "/payment/sandbox-pay",
          "/refund/list",
          "/refund/account",
        ].includes(call.path);
        if (takesOrder && answer.status !== 404) foreignOrderStatuses.push(`${call.path} ${target.orderId} → ${answer.status}`);
        if (call.path === "/auth/logout") break;
      }
    }
    const after = await victimState(
      victim,
      victimOrders.map((o) => o.orderId),
    );
    const foreignWrites = JSON.stringify(after) === JSON.stringify(before) ? 0 : 1;

    console.log(
      `token matrix: ${authedCalls.length} calls, ${answered} requests, ${wrongStatus.length} not 401, ${leaks} leaks, ${foreignWrites} foreign writes`,
    );
    expect(wrongStatus).toEqual([]);
    expect(foreignOrderStatuses).toEqual([]);
    expect(leaks).toBe(0);
    expect(after).toEqual(before);
    // The victim's own token still works and sees the orders: the matrix did not just break everything.
    const own = await callApi("GET", `/order/detail?orderId=${waiting.orderId}`, { token: victimToken });
    expect(own.status).toBe(200);
    expect(own.body.data.buyerEmail).toBe(victim.email);
  });
});
