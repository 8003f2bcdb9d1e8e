import { ApiError, defineArea, invalid, notFound, ok, readJson, requireId, uploadIdOf } from "~/.server/http/api";
import { ORDER_DETAIL, ORDER_ITEM, PAYMENT_DETAIL, list, object, page } from "~/.server/http/api-shapes";
import { dayWib } from "~/.server/dates";
import { getOwnedOrderDetail, listOrderHistoryPages, listOrderStatuses, ORDER_NOT_FOUND, type OrderDetail } from "~/.server/store/orders";
import {
  cancelOrder,
  confirmDelivery,
  MAX_DELIVERY_PROOFS,
  ORDER_CANCELLED,
  PROOF_REQUIRED as DELIVERY_PROOF_REQUIRED,
  TOO_MANY_PROOFS,
} from "~/.server/store/orders";
import { getPaymentDetail, markPaid, PROOF_REQUIRED, type PaymentDetail } from "~/.server/store/payments";
import { readTransactionFilters } from "~/lib/transaction-filters";
import { ORDER_CHECKOUT_CALLS } from "./order-checkout.server";

// Spec §7 Order (/api/v1/order): the transaction list and detail, the buyer's moves (cancel,
// confirm, mark-paid), the payment page (open-va), and the checkout (create, set-payment,
// checkout-check: ./order-checkout.server.ts) — each one store call, as the screens make it.

const ORDER_ID_QUERY = { orderId: { type: "integer" as const, description: "The order's id (id is accepted too)", required: true } };

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
  ...ORDER_CHECKOUT_CALLS,
});

export const ORDER_AREA = area;
