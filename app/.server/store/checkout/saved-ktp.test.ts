import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { orders, uploads } from "../../db/schema";
import { createBuyer, createStockedProduct, methodId, placeOrder } from "../../testing/payment-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { getOwnedUpload } from "../orders";
import { readNik } from "../privacy";
import { type CheckoutFields, checkoutFieldsSchema } from "~/lib/schemas/checkout";
import { chooseDraftMethod, getCheckoutDraft, payDraft, saveCheckoutForm, startCheckout, submitCheckout } from ".";

// Issue 38: a second order needs no new KTP upload. 'Beli Sekarang' offers the NIK and KTP photo of
// the buyer's latest order whose photo the store still keeps; the order made from it gets its own
// sealed copy of the photo (each order's photo keeps its own retention); the API's door is unchanged.

ownDatabaseForThisFile();

async function orderRow(orderId: number) {
  const [row] = await (
    await getDb()
  )
    .select({ nik: orders.buyerNik, ktpUploadId: orders.ktpUploadId })
    .from(orders)
    .where(eq(orders.id, orderId));
  return { nik: readNik(row!.nik, { orderId }), ktpUploadId: row!.ktpUploadId! };
}

/** The checkout form's fields as a buyer who changes nothing posts them (the NIK offered is no field of it). */
function fieldsWithoutNik(buyer: { fullname: string; phoneNo: string; email: string }): CheckoutFields {
  return checkoutFieldsSchema.parse({
    buyerName: buyer.fullname,
    buyerPhoneNumber: buyer.phoneNo,
    buyerEmail: buyer.email,
    bbnValidation: "on",
    domisiliValidation: "on",
  });
}

describe("the previous order's NIK and KTP offered again", () => {
  it("prefills the NIK and refers to the kept photo; the new order gets its own copy of it", async () => {
    const buyer = { ...(await createBuyer()), verified: true };
    const productId = await createStockedProduct();
    const first = await orderRow(await placeOrder(buyer, productId, "BNI-VA"));

    expect((await startCheckout({ id: buyer.id, verified: true }, productId, { offerSaved: true })).ok).toBe(true);
    const draft = (await getCheckoutDraft(buyer.id))!;
    expect(draft.values.nikSaved).toBe(true);
    expect(draft.values.buyerNik).toBe(first.nik);
    expect(draft.ktp?.id).toBe(first.ktpUploadId);

    // The form as the buyer leaves it (no NIK field, no new photo), then the payment method.
    expect(await submitCheckout({ buyer, idempotencyKey: randomUUID(), fields: fieldsWithoutNik(buyer), ktp: null })).toEqual({
      ok: true,
      next: "payment",
    });
    const chosen = await chooseDraftMethod(buyer.id, await methodId("BNI-VA"));
    expect(chosen.ok).toBe(true);
    const paid = await payDraft(buyer.id, randomUUID(), {});
    if (!paid.ok) throw new Error(paid.message);
    const second = await orderRow(paid.orderId);
    expect(second.nik).toBe(first.nik);
    expect(second.ktpUploadId).not.toBe(first.ktpUploadId);
    const [original, copy] = await Promise.all([getOwnedUpload(first.ktpUploadId, buyer.id), getOwnedUpload(second.ktpUploadId, buyer.id)]);
    expect(copy?.bytes).toEqual(original?.bytes);
    // Sealed under its own id like every upload: the stored bytes differ.
    const stored = await (
      await getDb()
    )
      .select({ id: uploads.id, bytes: uploads.bytes, purpose: uploads.purpose })
      .from(uploads)
      .where(inArray(uploads.id, [first.ktpUploadId, second.ktpUploadId]));
    expect(stored.map((row) => row.purpose)).toEqual(["ktp", "ktp"]);
    expect(Buffer.from(stored[0]!.bytes).equals(Buffer.from(stored[1]!.bytes))).toBe(false);
  });

  it("the web form's submit takes the offered NIK when the form has none, and asks for one after 'Ganti'", async () => {
    const buyer = { ...(await createBuyer()), verified: true };
    const productId = await createStockedProduct();
    await placeOrder(buyer, productId, "BNI-VA");
    await startCheckout({ id: buyer.id, verified: true }, productId, { offerSaved: true });
    const result = await submitCheckout({ buyer, idempotencyKey: randomUUID(), fields: fieldsWithoutNik(buyer), ktp: null });
    expect(result).toEqual({ ok: true, next: "payment" });

    // 'Ganti' (the route's saveCheckoutForm with forgetSavedNik) leaves the NIK empty: the spec's message.
    await saveCheckoutForm(buyer, fieldsWithoutNik(buyer), null, { forgetSavedNik: true });
    expect((await getCheckoutDraft(buyer.id))!.values.nikSaved).toBeFalsy();
    const refused = await submitCheckout({ buyer, idempotencyKey: randomUUID(), fields: fieldsWithoutNik(buyer), ktp: null });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors.buyerNik).toEqual(["NIK tidak boleh kosong."]);
  });

  it("offers nothing once the photos are deleted (retention), to a first order, or through the API's door", async () => {
    const buyer = { ...(await createBuyer()), verified: true };
    const productId = await createStockedProduct();
    await startCheckout({ id: buyer.id, verified: true }, productId, { offerSaved: true });
    expect((await getCheckoutDraft(buyer.id))!.ktp).toBeNull();

    const first = await orderRow(await placeOrder(buyer, productId, "BNI-VA"));
    await startCheckout({ id: buyer.id, verified: true }, productId);
    const viaApi = (await getCheckoutDraft(buyer.id))!;
    expect(viaApi.ktp).toBeNull();
    expect(viaApi.values.buyerNik).toBeUndefined();

    await (await getDb()).update(uploads).set({ deletedAt: new Date(), bytes: new Uint8Array() }).where(eq(uploads.id, first.ktpUploadId));
    await startCheckout({ id: buyer.id, verified: true }, productId, { offerSaved: true });
    const afterRetention = (await getCheckoutDraft(buyer.id))!;
    expect(afterRetention.ktp).toBeNull();
    expect(afterRetention.values.nikSaved).toBeUndefined();
    expect(afterRetention.values.buyerNik).toBeUndefined();
  });
});
