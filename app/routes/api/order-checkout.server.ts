import { ApiError, type AnyApiRoute, idOf, invalid, notFound, ok, readJson, requireId, uploadIdOf } from "~/.server/http/api";
import { CREATED_ORDER, PROMO, list } from "~/.server/http/api-shapes";
import { checkEmployeePromo, type CheckoutResult, submitCheckout } from "~/.server/store/checkout";
import { getOwnedOrderDetail, ORDER_NOT_FOUND } from "~/.server/store/orders";
import { METHOD_REQUIRED, setOrderPayment } from "~/.server/store/payments";
import { checkoutFieldsSchema } from "~/lib/schemas/checkout";

// Spec §7 Order, its checkout calls (create, set-payment, checkout-check): the whole checkout in one
// call through the store's one checkout workflow (submitCheckout, as the web's checkout form), the
// payment of an approved incentive order, and the employee-promo check. The order area
// (./order.server.ts) serves them beside the transaction list, detail and the buyer's moves.

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

/** A refused checkout's messages under the body's names (the photo is `ktpImageUrl`); a 403 or 404
 * says only its message. */
function apiCheckoutErrors(result: Extract<CheckoutResult, { ok: false }>): Record<string, string[]> | undefined {
  if (result.status === 403 || result.status === 404) return undefined;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(result.errors)) if (messages) errors[field === "ktp" ? "ktpImageUrl" : field] = messages;
  return errors;
}

const CREATE_BODY = {
  type: "object",
  required: [
    "buyerName",
    "buyerPhoneNumber",
    "buyerEmail",
    "buyerNik",
    "ktpImageUrl",
    "address",
    "orderProducts",
    "bbnValidation",
    "domisiliValidation",
  ],
  description:
    "The checkout form's fields (same rules and messages as /checkout). `insentif: true` makes an incentive order (status 100, paid after approval through set-payment); otherwise `paymentMethodId` (and `tenor` for BNI-INSTALLMENT, `otpSecretId` for BRI-CERIA) makes the order as the payment screen does. Amounts are priced by the server (`totalAmount` is ignored). Send an `Idempotency-Key` header (8–100 of A-Z a-z 0-9 _ . : -): a repeat answers the first order.",
  properties: {
    buyerName: { type: "string" },
    buyerPhoneNumber: { type: "string" },
    buyerEmail: { type: "string" },
    buyerNik: { type: "string", description: "16 digits" },
    nip: { type: "string", description: "The account's NIP, for the employee promo" },
    insentif: { type: "boolean" },
    ajukanInsentifPegawai: { type: "boolean", description: "Apply the employee promo (with nip)" },
    buyerDadName: { type: "string", description: "Required with insentif" },
    nikValidation: { type: "boolean", description: "Required true with insentif" },
    bbnValidation: { type: "boolean", description: "Delivery-cost confirmation, required true" },
    domisiliValidation: { type: "boolean", description: "Domicile-matches-KTP confirmation, required true" },
    ktpImageUrl: { type: "string", description: "`path` of POST /upload (type ktp)" },
    note: { type: "string" },
    address: {
      type: "object",
      properties: {
        fullAddress: { type: "string" },
        provinsiId: { type: "string" },
        kotaId: { type: "string" },
        kecamatanId: { type: "string" },
        kelurahanId: { type: "string" },
        kodePos: { type: "string" },
      },
    },
    orderProducts: {
      type: "array",
      items: { type: "object", properties: { id: { type: "integer" }, qty: { const: 1 } } },
      minItems: 1,
      maxItems: 1,
    },
    paymentMethodId: { type: "integer" },
    tenor: { type: "integer" },
    otpSecretId: { type: "string" },
    totalAmount: { type: "integer" },
  },
};

/** The checkout calls of the order area (./order.server.ts). */
export const ORDER_CHECKOUT_CALLS = {
  "/create": {
    method: "POST",
    auth: true,
    doc: {
      summary:
        "Create the order (the whole checkout in one call); 403 for an unverified account or one its company's roster no longer lists as active",
      body: CREATE_BODY,
      data: CREATED_ORDER,
      // 201: the order is new; 200: the Idempotency-Key's repeat, answering the first order.
      success: [200, 201],
      errors: [400, 403, 404, 409],
      headers: { "Idempotency-Key": "A key per purchase; a repeat answers the first order" },
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const headerKey = request.headers.get("idempotency-key")?.trim();
      if (headerKey !== undefined && !IDEMPOTENCY_KEY.test(headerKey))
        throw invalid({ "Idempotency-Key": ["Idempotency-Key tidak valid (8-100 karakter A-Z a-z 0-9 _ . : -)."] });
      const key = headerKey ?? crypto.randomUUID();
      const line = Array.isArray(body.orderProducts) ? (body.orderProducts[0] as Record<string, unknown> | undefined) : undefined;
      const productId = idOf(line?.id ?? line?.productId ?? body.productId);
      if (productId === undefined) throw invalid({ orderProducts: ["Produk tidak ditemukan."] });
      // The checkout form's fields, read by the web form's own fields schema (spec §7 names: `nip` is the form's buyerNip).
      const fields = checkoutFieldsSchema.parse({
        ...body,
        buyerNip: body.buyerNip ?? body.nip,
        ajukanInsentifPegawai: body.ajukanInsentifPegawai ?? body.promoPegawai,
      });
      const ktpUploadId = uploadIdOf(body.ktpImageUrl);
      const address = body.address && typeof body.address === "object" ? (body.address as Record<string, string>) : null;
      const result = await submitCheckout({
        buyer: user,
        idempotencyKey: key,
        fields,
        ktp: ktpUploadId ? { uploadId: ktpUploadId } : null,
        start: {
          productId,
          address: address && {
            fullAddress: address.fullAddress ?? "",
            provinsiId: address.provinsiId ?? "",
            kotaId: address.kotaId ?? "",
            kecamatanId: address.kecamatanId ?? "",
            kelurahanId: address.kelurahanId ?? "",
            kodePos: address.kodePos ?? "",
          },
        },
        payment: {
          methodId: body.paymentMethodId,
          tenor: body.tenor,
          otpSecretId: typeof body.otpSecretId === "string" ? body.otpSecretId : undefined,
        },
      });
      if (!result.ok) throw new ApiError(result.status, result.message, apiCheckoutErrors(result));
      // The API always chooses the payment in the call, so a valid checkout ends with its order.
      if (result.next !== "done") throw new ApiError(400, METHOD_REQUIRED, { paymentMethodId: [METHOD_REQUIRED] });
      return ok(
        { orderId: result.orderId, redirectUrl: result.paymentUrl, created: result.created },
        result.created ? "Pesanan berhasil dibuat." : "Pesanan sudah dibuat sebelumnya.",
        result.created ? 201 : 200,
      );
    },
  },
  "/set-payment": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Choose the payment of an approved incentive order (200 without a method)",
      body: {
        type: "object",
        required: ["id", "paymentMethodId"],
        properties: {
          id: { type: "integer", description: "Order id (orderId is accepted too)" },
          paymentMethodId: { type: "integer" },
          tenor: { type: "integer" },
          otpSecretId: { type: "string" },
        },
      },
      data: CREATED_ORDER,
      errors: [400, 404, 409],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const orderId = requireId(body.id ?? body.orderId, "id", ORDER_NOT_FOUND);
      if (!(await getOwnedOrderDetail(orderId, user.id))) throw notFound(ORDER_NOT_FOUND);
      const result = await setOrderPayment(user.id, orderId, {
        paymentMethodId: body.paymentMethodId,
        tenor: body.tenor,
        otpSecretId: typeof body.otpSecretId === "string" ? body.otpSecretId : undefined,
      });
      if (!result.ok) {
        const field =
          result.code === "TENOR" ? "tenor" : result.code === "METHOD" ? "paymentMethodId" : result.code === "OTP" ? "otpSecretId" : null;
        throw field ? invalid({ [field]: [result.message] }) : new ApiError(409, result.message);
      }
      return ok({ orderId: result.orderId, redirectUrl: result.redirectUrl, created: false }, "Metode pembayaran berhasil dipilih.");
    },
  },
  "/checkout-check": {
    method: "GET",
    auth: true,
    doc: {
      summary:
        "The employee promo of a product for a NIP (the account's): a list with it, or empty (also empty for an account its company's roster does not list as active)",
      query: {
        productId: { type: "integer", description: "Product id", required: true },
        nip: { type: "string", description: "NIP", required: true },
      },
      data: list(PROMO),
      errors: [400],
    },
    async handle({ url, user }) {
      const productId = requireId(url.searchParams.get("productId"), "productId", "Produk tidak ditemukan.");
      const promo = await checkEmployeePromo(user.id, productId, url.searchParams.get("nip") ?? "");
      return ok(promo ? [{ id: promo.id, title: promo.title, discount: promo.discount, discountType: promo.discountType }] : []);
    },
  },
} satisfies Record<string, AnyApiRoute>;
