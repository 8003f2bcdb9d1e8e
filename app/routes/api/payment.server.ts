import { ApiError, defineArea, idOf, invalid, notFound, ok, readJson, requireId, type JsonBody } from "~/.server/http/api";
import { CHOSEN_METHOD, METHOD, TENOR, list, object } from "~/.server/http/api-shapes";
import { sandboxPay } from "~/.server/store/payments";
import { productCheckoutAmount } from "~/.server/store/checkout";
import { getOwnedOrderSummary } from "~/.server/store/orders";
import { checkPaymentChoice, listPaymentMethods, listTenorOptions, METHOD_UNKNOWN } from "~/.server/store/payments";

// Spec §7 payment/methods, payment/installment, payment/select: the lists of /paymentmethodlist and
// /tenorlist for an amount (the methods as one list, each naming its group, as §7 describes; the page
// shows them in their groups), and a choice checked against them.

const AMOUNT_BODY = {
  type: "object",
  properties: {
    productId: { type: "integer", description: "The product: its price after discount and promos is the amount (preferred)" },
    totalDiscount: { type: "integer", description: "The amount when no productId is sent (spec: price minus total discount)" },
  },
};

/** The amount the lists are priced for: the product's checkout price, else the body's totalDiscount. */
async function amountOf(body: JsonBody): Promise<number> {
  const productId = idOf(body.productId);
  const priced = productId !== undefined ? await productCheckoutAmount(productId) : null;
  if (priced !== null) return priced;
  const total = typeof body.totalDiscount === "string" ? Number(body.totalDiscount) : body.totalDiscount;
  if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0) throw invalid({ productId: ["Produk tidak ditemukan."] });
  return total;
}

const area = defineArea("payment", {
  "/methods": {
    method: "POST",
    auth: true,
    doc: {
      summary: "The payment methods with their totals (spec §7: a list of methods)",
      description:
        "In the order of the method list's groups (Virtual Account, Manual, Cicilan, Lainnya), each naming its `groupName`. The Virtual Account group's totals carry its cash discount ('-3% Diskon Pembelian Tunai').",
      body: AMOUNT_BODY,
      data: list(METHOD),
      errors: [400],
    },
    async handle({ request }) {
      const groups = await listPaymentMethods(await amountOf(await readJson(request)));
      // The spec's fields and the group's name; the page's own extras (breakdown, needsTenor…) stay off the contract.
      return ok(
        groups.flatMap((group) =>
          group.methods.map(({ id, name, code, type, imageUrl, totalPayment, additionalData, groupName }) => ({
            id,
            name,
            code,
            type,
            imageUrl,
            totalPayment,
            additionalData,
            groupName,
          })),
        ),
      );
    },
  },
  "/installment": {
    method: "POST",
    auth: true,
    doc: {
      summary: "The tenors of an instalment method",
      body: {
        ...AMOUNT_BODY,
        required: ["paymentId"],
        properties: { ...AMOUNT_BODY.properties, paymentId: { type: "integer", description: "The instalment method's id" } },
      },
      data: list(TENOR),
      errors: [400],
    },
    async handle({ request }) {
      const body = await readJson(request);
      const methodId = requireId(body.paymentId ?? body.paymentMethodId, "paymentId", METHOD_UNKNOWN);
      const tenors = await listTenorOptions(await amountOf(body), methodId);
      if (!tenors) throw invalid({ paymentId: [METHOD_UNKNOWN] });
      return ok(tenors);
    },
  },
  "/select": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Check a method (and tenor) for an amount: the method with its total and breakdown",
      description: "Not used by the spec's screens; the order calls (create, set-payment) check the same way.",
      body: {
        ...AMOUNT_BODY,
        required: ["paymentMethodId"],
        properties: { ...AMOUNT_BODY.properties, paymentMethodId: { type: "integer" }, tenor: { type: "integer" } },
      },
      data: object({ method: CHOSEN_METHOD, tenor: { anyOf: [TENOR, { type: "null" }] } }),
      errors: [400],
    },
    async handle({ request }) {
      const body = await readJson(request);
      const check = await checkPaymentChoice(await amountOf(body), body.paymentMethodId, body.tenor);
      if (!check.ok) throw invalid({ [check.field]: [check.message] });
      return ok({ method: check.method, tenor: check.tenor });
    },
  },
  "/sandbox-pay": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Sandbox only: pay the order's open virtual account ('Bayar (Sandbox)' of the payment page)",
      description:
        "Not in spec §7: with PAYMENT_GATEWAY=sandbox the gateway sends its signed webhook to the store, exactly as a real payment would; the order moves to 300. Any other gateway: 409.",
      body: { type: "object", required: ["orderId"], properties: { orderId: { type: "integer" } } },
      data: object({ webhookStatus: { type: "integer" } }),
      errors: [400, 404, 409],
    },
    async handle({ request, user }) {
      const orderId = requireId((await readJson(request)).orderId, "orderId", "Pesanan tidak ditemukan.");
      if (!(await getOwnedOrderSummary(orderId, user.id))) throw notFound("Pesanan tidak ditemukan.");
      const paid = await sandboxPay(orderId, user.id);
      if (!paid.ok) throw new ApiError(409, paid.message);
      if (paid.status !== 200) throw new ApiError(409, `Pembayaran (Sandbox) ditolak (HTTP ${paid.status}).`);
      return ok({ webhookStatus: paid.status }, "Pembayaran (Sandbox) berhasil.");
    },
  },
});

export const PAYMENT_AREA = area;
