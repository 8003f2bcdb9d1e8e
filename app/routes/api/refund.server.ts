import { ApiError, defineArea, invalid, notFound, ok, readJson, requireId } from "~/.server/http/api";
import { list, object } from "~/.server/http/api-shapes";
import { getOwnedOrderSummary, uploadUrl } from "~/.server/store/orders";
import { listOwnedRefunds, REFUND_NOT_FOUND, submitRefundAccount, type BuyerRefund } from "~/.server/store/refunds";
import { ASKS_FOR_ACCOUNT, REFUND_BANKS, REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";

// Money going back to the buyer (issue 36), as the order detail's 'Pengembalian Dana' block shows
// it: an order's refunds with their state, the banks a transfer refund may go to, and 'Kirim Data
// Rekening' — the same store calls and Indonesian messages as the page.

const ORDER_NOT_FOUND = "Pesanan tidak ditemukan.";

const str = { type: "string" } as const;
const int = { type: "integer" } as const;
const nullableStr = { anyOf: [str, { type: "null" }] };
const REFUND_STATES = Object.keys(REFUND_STATE_NAMES) as RefundState[];

const REFUND = object({
  id: int,
  orderId: int,
  amount: { type: "integer", description: "Rupiah" },
  state: { enum: REFUND_STATES, description: "Its name in `stateName`" },
  stateName: { enum: Object.values(REFUND_STATE_NAMES) },
  method: {
    enum: ["gateway", "transfer"],
    description: "gateway: back to the card through Midtrans; transfer: to the buyer's bank account",
  },
  reason: str,
  asksForAccount: { type: "boolean", description: "The store needs (new) bank details: send them with POST /refund/account" },
  bankName: nullableStr,
  accountNumber: nullableStr,
  accountHolder: nullableStr,
  transferReference: { ...nullableStr, description: "The bank transfer's reference, once 'Dana Telah Dikembalikan'" },
  proofUrl: { ...nullableStr, description: "finance's transfer proof image, when one was attached" },
  failureReason: { ...nullableStr, description: "Why the transfer failed ('Gagal Diproses')" },
  createdAt: { type: "string", format: "date-time" },
  refundedAt: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
});

function refundOf(orderId: number, r: BuyerRefund) {
  return {
    id: r.id,
    orderId,
    amount: r.amount,
    state: r.state,
    stateName: REFUND_STATE_NAMES[r.state],
    method: r.method,
    reason: r.reason,
    asksForAccount: r.method === "transfer" && ASKS_FOR_ACCOUNT.includes(r.state) && !(r.state === "awaiting-funds" && r.accountNumber),
    bankName: r.bankName,
    accountNumber: r.accountNumber,
    accountHolder: r.accountHolder,
    transferReference: r.transferReference,
    proofUrl: r.proofUploadId ? uploadUrl(r.proofUploadId) : null,
    failureReason: r.failureReason,
    createdAt: r.createdAt.toISOString(),
    refundedAt: r.refundedAt?.toISOString() ?? null,
  };
}

const area = defineArea("refund", {
  "/list": {
    method: "GET",
    auth: true,
    doc: {
      summary: "The refunds of one of the buyer's orders ('Pengembalian Dana'), oldest first; empty when none",
      query: { orderId: { type: "integer", description: "The order's id", required: true } },
      data: list(REFUND),
      errors: [400, 404],
    },
    async handle({ url, user }) {
      const orderId = requireId(url.searchParams.get("orderId"), "orderId", ORDER_NOT_FOUND);
      if (!(await getOwnedOrderSummary(orderId, user.id))) throw notFound(ORDER_NOT_FOUND);
      return ok((await listOwnedRefunds(orderId, user.id)).map((r) => refundOf(orderId, r)));
    },
  },
  "/banks": {
    method: "GET",
    auth: true,
    doc: { summary: "The banks a transfer refund may go to ('Nama Bank')", data: list(str) },
    async handle() {
      return ok([...REFUND_BANKS]);
    },
  },
  "/account": {
    method: "POST",
    auth: true,
    doc: {
      summary: "'Kirim Data Rekening': the bank account for a transfer refund in 'Menunggu Data Rekening' or 'Gagal Diproses'",
      description:
        "The refund moves to 'Sedang Diproses' and finance transfers it. `accountNumber`: 6–20 digits (spaces and dashes are dropped); `bankName`: one of GET /refund/banks. 409 when the refund does not ask for an account (a card refund, or one already being processed).",
      body: {
        type: "object",
        required: ["orderId", "refundId", "bankName", "accountNumber", "accountHolder"],
        properties: {
          orderId: int,
          refundId: int,
          bankName: str,
          accountNumber: str,
          accountHolder: { type: "string", description: "'Nama Pemilik Rekening'" },
        },
      },
      data: REFUND,
      errors: [400, 404, 409],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const orderId = requireId(body.orderId, "orderId", ORDER_NOT_FOUND);
      const refundId = requireId(body.refundId, "refundId", REFUND_NOT_FOUND);
      // Only a refund of this very order, the buyer's own (as the page's form).
      if (!(await listOwnedRefunds(orderId, user.id)).some((r) => r.id === refundId)) throw notFound(REFUND_NOT_FOUND);
      const result = await submitRefundAccount(refundId, user.id, {
        bankName: body.bankName,
        accountNumber: body.accountNumber,
        accountHolder: body.accountHolder,
      });
      if (!result.ok) {
        if (result.kind === "invalid")
          throw invalid(Object.fromEntries(Object.entries(result.errors).map(([f, m]) => [f, m ? [m] : null])));
        if (result.kind === "not-found") throw notFound(REFUND_NOT_FOUND);
        throw new ApiError(409, result.message);
      }
      const refund = (await listOwnedRefunds(orderId, user.id)).find((r) => r.id === refundId)!;
      return ok(refundOf(orderId, refund), "Data rekening terkirim. Pengembalian dana sedang diproses.");
    },
  },
});

export const REFUND_AREA = area;
