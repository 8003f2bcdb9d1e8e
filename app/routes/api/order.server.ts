import { ApiError, asForm, defineArea, idOf, invalid, notFound, ok, readJson, requireId } from "~/.server/http/api";
import { CREATED_ORDER, ORDER_DETAIL, ORDER_ITEM, PAYMENT_DETAIL, PROMO, list, object, page } from "~/.server/http/api-shapes";
import { dayWib } from "~/.server/dates";
import { checkEmployeePromo, type CheckoutResult } from "~/.server/store/checkout";
import { submitCheckout } from "~/.server/store/checkout";
import { getOwnedOrderDetail, listOrderHistoryPages, listOrderStatuses, type OrderDetail } from "~/.server/store/orders";
import {
  cancelOrder,
  confirmDelivery,
  MAX_DELIVERY_PROOFS,
  ORDER_CANCELLED,
  PROOF_REQUIRED as DELIVERY_PROOF_REQUIRED,
  TOO_MANY_PROOFS,
} from "~/.server/store/orders";
import { getPaymentDetail, markPaid, METHOD_REQUIRED, PROOF_REQUIRED, setOrderPayment, type PaymentDetail } from "~/.server/store/payments";
import { readTransactionFilters } from "~/lib/transaction-filters";

// Spec §7 Order (/api/v1/order): the transaction list and detail, the buyer's moves (cancel,
// confirm, mark-paid), the payment page (open-va), and the checkout (create, set-payment,
// checkout-check) — each one store call, as the screens make it. Long module: one area of the spec's
// call table, each handler with its OpenAPI description beside it.

const ORDER_NOT_FOUND = "Pesanan tidak ditemukan.";
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;
const ORDER_ID_QUERY = { orderId: { type: "integer" as const, description: "The order's id (id is accepted too)", required: true } };

/** The upload id in a path the upload call returned (`/uploads/<id>`, a full URL, or the bare id). */
export function uploadIdOf(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim() || value.length > 500) return null;
  const last = value.trim().split(/[?#]/)[0]!.split("/").pop() ?? "";
  try {
    const id = decodeURIComponent(last);
    return /^[A-Za-z0-9_-]{8,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Spec §3 order detail field names over the store's detail. */
function detailOf(order: OrderDetail) {
  const { insentifValue, promoPegawaiValue, ktpUrl, deliveryProofUrls, priceOri, orderProducts, ...rest } = order;
  return {
    ...rest,
    priceOri,
    insentifVal: insentifValue,
    promoPegawaiVal: promoPegawaiValue,
    ktpImageUrl: ktpUrl,
    buktiImageUrls: deliveryProofUrls,
    orderProducts: orderProducts.map(({ productId, promo, ...line }) => ({
      ...line,
      productId,
      promo: promo.map((p) => ({ title: p.title, value: p.value, discountType: p.discountType })),
    })),
  };
}

/** Spec §3 payment detail (open-VA result). */
function paymentOf(detail: PaymentDetail) {
  return {
    orderId: detail.orderId,
    invoiceId: detail.invoiceId,
    statusId: detail.statusId,
    statusName: detail.statusName,
    type: detail.method?.type ?? null,
    imageUrl: detail.method?.imageUrl ?? null,
    paymentMethodId: detail.method?.id ?? null,
    paymentMethodName: detail.method?.name ?? null,
    paymentMethodCode: detail.method?.code ?? null,
    tenor: detail.tenor,
    vaNo: detail.vaNo,
    totalAmount: detail.totalAmount,
    uniqueCode: detail.uniqueCode,
    expiredAt: detail.expiredAt?.toISOString() ?? null,
    expired: detail.expired,
    marker: detail.marker,
    paid: detail.paid,
    canMarkPaid: detail.canMarkPaid,
    manualInfoDetail: detail.manualInfoDetail,
    howTo: detail.howTo,
    redirectUrl: detail.redirectUrl,
  };
}

const orderIdOf = (url: URL) => requireId(url.searchParams.get("orderId") ?? url.searchParams.get("id"), "orderId", ORDER_NOT_FOUND);
const bodyOrderId = (body: Record<string, unknown>) => requireId(body.orderId ?? body.id, "orderId", ORDER_NOT_FOUND);

/** A refused checkout's messages under the body's names (the photo is `ktpImageUrl`); a 403 or 404
 * says only its message. */
function apiCheckoutErrors(result: Extract<CheckoutResult, { ok: false }>): Record<string, string[]> | undefined {
  if (result.status === 403 || result.status === 404) return undefined;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(result.errors)) if (messages) errors[field === "ktp" ? "ktpImageUrl" : field] = messages;
  return errors;
}

/** The checkout form's fields of a create-order body (spec §7 names; `nip` is the form's buyerNip). */
const CHECKOUT_FIELDS = [
  "note",
  "buyerName",
  "buyerPhoneNumber",
  "buyerEmail",
  "buyerNik",
  "buyerNip",
  "insentif",
  "buyerDadName",
  "nikValidation",
  "ajukanInsentifPegawai",
  "bbnValidation",
  "domisiliValidation",
];

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

const area = defineArea("order", {
  "/history": {
    method: "GET",
    auth: true,
    doc: {
      summary: "The buyer's orders, newest first, 10 a page",
      query: {
        page: { type: "integer", description: "From 0" },
        size: { type: "integer", description: "Always 10 (spec §9)" },
        statusId: { type: "integer", description: "Only this status (ids of /order/status-list)" },
        dateFrom: { type: "string", description: "YYYY-MM-DD (WIB), with dateTo" },
        dateTo: { type: "string", description: "YYYY-MM-DD (WIB)" },
      },
      data: page(ORDER_ITEM),
      errors: [400],
    },
    async handle({ url, user }) {
      // The status list only validates a statusId filter: not read when there is none.
      const statusIds = url.searchParams.has("statusId") ? (await listOrderStatuses()).map((s) => s.id) : [];
      const read = readTransactionFilters(url.searchParams, statusIds, dayWib(new Date()));
      if (read.dateError)
        throw invalid({ [read.dateError.startsWith("Tanggal akhir tidak boleh kosong") ? "dateTo" : "dateFrom"]: [read.dateError] });
      const raw = url.searchParams.get("page")?.trim() ?? "";
      const pageNumber = /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
      const [result] = await listOrderHistoryPages(user.id, read.filters, pageNumber, { only: true });
      // Past the end: an empty last page (the store clamps, the API says what was asked).
      if (!result || result.page < pageNumber) return ok({ content: [], total: result?.total ?? 0, page: pageNumber, isLastPage: true });
      return ok(result);
    },
  },
  "/detail": {
    method: "GET",
    auth: true,
    doc: { summary: "One order of the buyer (404 for anyone else's)", query: ORDER_ID_QUERY, data: ORDER_DETAIL, errors: [400, 404] },
    async handle({ url, user }) {
      const order = await getOwnedOrderDetail(orderIdOf(url), user.id);
      if (!order) throw notFound(ORDER_NOT_FOUND);
      return ok(detailOf(order));
    },
  },
  "/cancel": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Cancel (in 100, 200, 301, 302): → 1, the stock unit returns",
      body: { type: "object", required: ["orderId"], properties: { orderId: { type: "integer" } } },
      data: { type: "null" },
      errors: [400, 404, 409],
    },
    async handle({ request, user }) {
      const result = await cancelOrder(bodyOrderId(await readJson(request)), user.id);
      if (!result.ok) throw result.notFound ? notFound(ORDER_NOT_FOUND) : new ApiError(409, result.message);
      return ok(null, ORDER_CANCELLED);
    },
  },
  "/confirm": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Confirm delivery (in 400) with up to 5 photos or PDFs: → 500, the reward is credited",
      body: {
        type: "object",
        required: ["orderId", "buktiImageUrls"],
        properties: {
          orderId: { type: "integer" },
          buktiImageUrls: {
            type: "array",
            items: { type: "string", description: "`path` of POST /upload (type delivery-proof)" },
            minItems: 1,
            maxItems: MAX_DELIVERY_PROOFS,
          },
        },
      },
      data: object({
        reward: {
          anyOf: [object({ title: { type: "string" }, description: { type: "string" }, amount: { type: "integer" } }), { type: "null" }],
        },
      }),
      errors: [400, 404, 409],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const orderId = bodyOrderId(body);
      const urls = Array.isArray(body.buktiImageUrls)
        ? body.buktiImageUrls
        : typeof body.buktiImageUrls === "string"
          ? [body.buktiImageUrls]
          : [];
      if (urls.length > MAX_DELIVERY_PROOFS) throw invalid({ buktiImageUrls: [TOO_MANY_PROOFS] });
      const proofIds = urls.map(uploadIdOf);
      if (!proofIds.length || proofIds.some((id) => !id)) throw invalid({ buktiImageUrls: [DELIVERY_PROOF_REQUIRED] });
      const result = await confirmDelivery(orderId, user.id, proofIds as string[]);
      if (!result.ok) {
        if (result.notFound) throw notFound(ORDER_NOT_FOUND);
        throw result.message === DELIVERY_PROOF_REQUIRED
          ? invalid({ buktiImageUrls: [result.message] })
          : new ApiError(409, result.message);
      }
      return ok({ reward: result.reward }, "Pesanan selesai. Terima kasih!");
    },
  },
  "/open-va": {
    method: "GET",
    auth: true,
    doc: {
      summary: "The order's payment (opens it once a method is set): VA number, total, expiry, how to pay",
      query: ORDER_ID_QUERY,
      data: PAYMENT_DETAIL,
      errors: [400, 404],
    },
    async handle({ url, user }) {
      const detail = await getPaymentDetail(orderIdOf(url), user.id);
      if (!detail) throw notFound(ORDER_NOT_FOUND);
      return ok(paymentOf(detail));
    },
  },
  "/mark-paid": {
    method: "PUT",
    auth: true,
    doc: {
      summary: "'Saya sudah bayar' for a manual transfer, with the proof: 200 → 302",
      body: {
        type: "object",
        required: ["orderId", "buktiImageUrl"],
        properties: {
          orderId: { type: "integer" },
          buktiImageUrl: { type: "string", description: "`path` of POST /upload (type transfer-proof); buktiImageUrls[0] is accepted too" },
        },
      },
      data: { type: "null" },
      errors: [400, 404, 409],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const orderId = bodyOrderId(body);
      const proof = uploadIdOf(body.buktiImageUrl ?? (Array.isArray(body.buktiImageUrls) ? body.buktiImageUrls[0] : undefined));
      const result = await markPaid(orderId, user.id, proof);
      if (!result.ok) {
        if (result.notFound) throw notFound(ORDER_NOT_FOUND);
        throw result.message === PROOF_REQUIRED ? invalid({ buktiImageUrl: [result.message] }) : new ApiError(409, result.message);
      }
      return ok(null, "Bukti pembayaran berhasil dikirim.");
    },
  },
  "/status-list": {
    method: "GET",
    auth: true,
    doc: {
      summary: "Every order status (id, name), in the order an order meets them",
      data: list(object({ id: { type: "integer" }, name: { type: "string" } })),
    },
    handle: async () => ok(await listOrderStatuses()),
  },
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
      const fields = {
        ...body,
        buyerNip: body.buyerNip ?? body.nip,
        ajukanInsentifPegawai: body.ajukanInsentifPegawai ?? body.promoPegawai,
      };
      const ktpUploadId = uploadIdOf(body.ktpImageUrl);
      const address = body.address && typeof body.address === "object" ? (body.address as Record<string, string>) : null;
      const result = await submitCheckout({
        buyer: user,
        idempotencyKey: key,
        form: asForm(fields, CHECKOUT_FIELDS),
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
});

export const ORDER_AREA = area;
