import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "~/.server/db/client";
import { createSession } from "~/.server/store/people";
import { cancelOrder } from "~/.server/store/orders";
import { confirmRefundFunds, listOwnedRefunds, markRefundTransferred } from "~/.server/store/refunds";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "~/.server/testing/payment-fixtures";
import { ACCOUNT_NUMBER_INVALID, BANK_REQUIRED } from "~/lib/refunds";
import { apiCaller } from "../../.server/testing/api-client";
import { API_AREAS, buildOpenApi } from "./openapi.server";

const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));

// Issue 36 item 3 through the JSON API: the refund of a transfer cancelled in 302, read and given its
// bank account as the order detail's 'Pengembalian Dana' block does, with the page's messages.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
beforeAll(async () => {
  await getDb();
});

describe("refund API", () => {
  it("lists an order's refund, refuses a wrong account with the form's messages, takes a correction until finance acts and none after", async () => {
    const buyer = await createBuyer();
    const token = await createSession(buyer.id, "api");
    const orderId = await placeOrder(buyer, await createStockedProduct({ price: 2_500_000 }), "MANUAL-BNI");
    expect((await callApi("GET", `/refund/list?orderId=${orderId}`, { token })).body.data).toEqual([]);
    const proof = await proofUpload(buyer);
    expect((await callApi("PUT", "/order/mark-paid", { token, json: { orderId, buktiImageUrl: `/uploads/${proof}` } })).status).toBe(200);
    expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
    // Finance sees the transfer on the statement (issue 45): the refund then asks for the account.
    const [waiting] = await listOwnedRefunds(orderId, buyer.id);
    expect(await confirmRefundFunds(waiting!.id, "cli", { amount: String(waiting!.amount) })).toMatchObject({ ok: true });

    const listed = await callApi("GET", `/refund/list?orderId=${orderId}`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const refund = listed.body.data[0];
    expect(refund).toMatchObject({
      orderId,
      method: "transfer",
      state: "awaiting-account",
      stateName: "Menunggu Data Rekening",
      asksForAccount: true,
      transferReference: null,
    });
    expect(refund.amount).toBeGreaterThan(2_000_000);

    const banks = await callApi("GET", "/refund/banks", { token });
    expect(banks.body.data).toContain("BNI");

    // Someone else: the order is not theirs to read, the refund not theirs to change.
    const stranger = await createBuyer();
    const strangerToken = await createSession(stranger.id, "api");
    expect((await callApi("GET", `/refund/list?orderId=${orderId}`, { token: strangerToken })).status).toBe(404);
    const account = { orderId, refundId: refund.id, bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" };
    expect((await callApi("POST", "/refund/account", { token: strangerToken, json: account })).status).toBe(404);
    expect((await callApi("GET", `/refund/list?orderId=${orderId}`)).status).toBe(401);

    const wrong = await callApi("POST", "/refund/account", { token, json: { ...account, accountNumber: "12ab", bankName: "Bank Entah" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toMatchObject({ accountNumber: [ACCOUNT_NUMBER_INVALID], bankName: [BANK_REQUIRED] });

    const sent = await callApi("POST", "/refund/account", { token, json: account });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      state: "processing",
      stateName: "Sedang Diproses",
      asksForAccount: false,
      accountNumber: "0123456789",
    });
    // Until finance acts the buyer may correct the details (issue 43 item 5), in this door too.
    const corrected = await callApi("POST", "/refund/account", { token, json: { ...account, accountNumber: "9999999999" } });
    expect(corrected.status).toBe(200);
    expect(corrected.body.data).toMatchObject({ state: "processing", accountNumber: "9999999999" });

    const finance = await createBuyer();
    expect(
      await markRefundTransferred(refund.id, { operatorId: finance.id }, { reference: "TRF-API-1", account: { numberEndsWith: "9999" } }),
    ).toMatchObject({ ok: true });
    // Once the money went out, the details it went to are not replaced.
    const late = await callApi("POST", "/refund/account", { token, json: { ...account, accountNumber: "1111111111" } });
    expect(late.status).toBe(409);
    const done = await callApi("GET", `/refund/list?orderId=${orderId}`, { token });
    expect(done.body.data[0]).toMatchObject({ state: "refunded", stateName: "Dana Telah Dikembalikan", transferReference: "TRF-API-1" });
    expect(done.body.data[0].refundedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
