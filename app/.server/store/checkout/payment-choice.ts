import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { checkoutDrafts, orders, users } from "../../db/schema";
import { checkoutSchema } from "~/lib/schemas/checkout";
import { checkValues } from "~/lib/schemas/check";
import { type PaymentBreakdown, type TenorOption } from "~/lib/payment-pricing";
import type { PaymentFlow } from "~/lib/payment-flow";
import { ORDER_STATUS } from "~/lib/order-status";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
import { checkoutPricing } from "~/lib/pricing";
import { checkEmployeePromo, getCheckoutDraft } from "./draft";
import { consumeOtpSecret, type OtpRequestResult, requestOtp } from "../payments";
import {
  CHECKOUT_INCOMPLETE,
  INCENTIVE_FROM_CHECKOUT,
  METHOD_REQUIRED,
  METHOD_UNKNOWN,
  OTP_REQUIRED,
  type PaymentMethodChoice,
  UNIQUE_CODES_EXHAUSTED,
  activeMethod,
  checkPaymentChoice,
  isId,
  statusForType,
} from "../payments";
import { openPaymentQuietly, type PayResult } from "../payments";
import { freeUniqueCode } from "../payments";
import { type CheckoutSubmission, NO_DRAFT, checkoutContextOf, checkoutSubmissionOf, createOrderFromDraft } from "./order-creation";
// ————————————————————————————————————————————— the payment summary (/paymentmethod)

export type PaymentSummary = {
  /** The open checkout draft, or an existing order in 200 without a method (set-payment). */
  source: "draft" | "order";
  orderId: number | null;
  productTitle: string;
  /** The goods amount every method's total starts from. */
  amount: number;
  method: PaymentMethodChoice | null;
  tenor: TenorOption | null;
  /** The chosen method's breakdown, or null before a choice. */
  breakdown: PaymentBreakdown | null;
  /** 'Total Pembayaran': the chosen method's total (instalment: amount + fee), else the amount. */
  totalPayment: number;
};

/** The checkout amount of the draft as the order will be priced (no incentive on this path). */
async function draftAmount(userId: number, draft: NonNullable<Awaited<ReturnType<typeof getCheckoutDraft>>>) {
  const [account] = await (await getDb()).select({ nip: users.nip }).from(users).where(eq(users.id, userId));
  const employeePromo =
    draft.values.ajukanInsentifPegawai === true && account ? await checkEmployeePromo(userId, draft.product.id, account.nip) : null;
  return checkoutPricing(draft.product.pricing, { insentif: false, promoPegawai: employeePromo !== null }).total;
}

/**
 * The summary a payment screen shows for its trail (app/lib/payment-flow.ts): the checkout draft's,
 * or for `flow.orderId` that order's, with the method and tenor the address carries.
 */
export function getPaymentFlowSummary(userId: number, flow: PaymentFlow): Promise<PaymentSummary | null> {
  if (flow.orderId === undefined) return getPaymentSummary(userId);
  return getPaymentSummary(userId, { orderId: flow.orderId, choice: { paymentMethodId: flow.paymentMethodId, tenor: flow.tenor } });
}

/**
 * What /paymentmethod shows. Without `orderId`: the user's checkout draft with the method and tenor
 * saved on it. With `orderId`: the user's order in 200 that has no method yet, with the choice the
 * screen carries (`choice`, from the list and tenor screens). null: nothing to pay (→ /transaction).
 */
export async function getPaymentSummary(
  userId: number,
  options: { orderId?: number; choice?: { paymentMethodId: unknown; tenor?: unknown } } = {},
): Promise<PaymentSummary | null> {
  if (!isId(userId)) return null;
  let base: Omit<PaymentSummary, "method" | "tenor" | "breakdown" | "totalPayment">;
  let chosen: { paymentMethodId: unknown; tenor?: unknown } | undefined = options.choice;
  if (options.orderId !== undefined) {
    const order = await payableOrder(userId, options.orderId);
    if (!order) return null;
    base = { source: "order", orderId: order.id, productTitle: order.productTitle, amount: order.totalAmount };
  } else {
    const draft = await getCheckoutDraft(userId);
    if (!draft) return null;
    base = { source: "draft", orderId: null, productTitle: draft.product.title, amount: await draftAmount(userId, draft) };
    chosen ??= { paymentMethodId: draft.paymentMethodId, tenor: draft.tenor };
  }
  const check = chosen?.paymentMethodId
    ? await checkPaymentChoice(base.amount, chosen.paymentMethodId, chosen.tenor, { requireTenor: false })
    : null;
  if (!check?.ok) return { ...base, method: null, tenor: null, breakdown: null, totalPayment: base.amount };
  return { ...base, method: check.method, tenor: check.tenor, breakdown: check.method.breakdown, totalPayment: check.method.totalPayment };
}

/** The user's order in 200 without a method (an incentive order after approval), or null. */
async function payableOrder(userId: number, orderId: unknown) {
  const id = typeof orderId === "string" ? Number(orderId) : orderId;
  if (!isId(id)) return null;
  const db = await getDb();
  const [row] = await queryRows<{ id: number; total_amount: number; title: string }>(
    db,
    sql`select o.id, o.total_amount, coalesce(op.title, '-') as title from orders o left join order_products op on op.order_id = o.id
        where o.id = ${id} and o.user_id = ${userId} and o.status_id = ${ORDER_STATUS.AWAITING_PAYMENT} and o.payment_method_id is null limit 1`,
  );
  return row ? { id: Number(row.id), totalAmount: Number(row.total_amount), productTitle: row.title } : null;
}

/**
 * /paymentmethodlist on the draft: saves the method (the tenor is cleared; BNI-INSTALLMENT then
 * needs /tenorlist: `needsTenor`).
 */
export async function chooseDraftMethod(
  userId: number,
  paymentMethodId: unknown,
): Promise<{ ok: true; needsTenor: boolean } | { ok: false; field: "paymentMethodId"; message: string }> {
  if (paymentMethodId === null || paymentMethodId === undefined || paymentMethodId === "")
    return { ok: false, field: "paymentMethodId", message: METHOD_REQUIRED };
  const method = await activeMethod(paymentMethodId);
  if (!method) return { ok: false, field: "paymentMethodId", message: METHOD_UNKNOWN };
  const db = await getDb();
  const saved = await db
    .update(checkoutDrafts)
    .set({ paymentMethodId: method.id, tenor: null, updatedAt: new Date() })
    .where(eq(checkoutDrafts.userId, userId))
    .returning({ userId: checkoutDrafts.userId });
  if (!saved.length) return { ok: false, field: "paymentMethodId", message: NO_DRAFT };
  return { ok: true, needsTenor: PAYMENT_KINDS[method.type].tenor };
}

/** /tenorlist on the draft: the tenor of the draft's instalment method ('Tenor wajib dipilih'). */
export async function chooseDraftTenor(
  userId: number,
  tenor: unknown,
): Promise<{ ok: true } | { ok: false; field: "tenor" | "paymentMethodId"; message: string }> {
  const draft = isId(userId) ? await getCheckoutDraft(userId) : null;
  if (!draft) return { ok: false, field: "paymentMethodId", message: NO_DRAFT };
  const check = await checkPaymentChoice(0, draft.paymentMethodId, tenor);
  if (!check.ok) return check;
  if (!check.tenor) return { ok: false, field: "paymentMethodId", message: METHOD_UNKNOWN };
  const db = await getDb();
  await db.update(checkoutDrafts).set({ tenor: check.tenor.tenor, updatedAt: new Date() }).where(eq(checkoutDrafts.userId, userId));
  return { ok: true };
}

/** Issue 45 item 10: a code asked for with no BRI Ceria payment waiting for it. */
export const OTP_NO_PAYLATER =
  "Kode OTP hanya dikirim untuk pesanan dengan metode pembayaran BRI Ceria yang sedang menunggu kode OTP. Pilih BRI Ceria sebagai metode pembayaran terlebih dahulu.";

export type PaylaterOtpResult = OtpRequestResult | { ok: false; code: "NO_PAYLATER"; message: string };

/**
 * The phone a BRI-CERIA code may go to (issue 45 item 10), the same rule for the web and the API:
 * the buyer's number on what waits for the code, and nothing else — for `flow.orderId` the buyer's
 * own order in 200 without a method with BRI Ceria chosen for it (`flow.paymentMethodId`, the
 * set-payment), otherwise the buyer's checkout draft whose saved method is BRI Ceria and which
 * would become that paylater order once the code is entered. Never a number from the request, never
 * the profile's: null when nothing waits for a code.
 */
export async function paylaterPhone(userId: number, flow: { orderId?: number; paymentMethodId?: unknown } = {}): Promise<string | null> {
  if (!isId(userId)) return null;
  const isPaylater = async (amount: number, methodId: unknown) => {
    const check = await checkPaymentChoice(amount, methodId, undefined, { requireTenor: false });
    return check.ok && PAYMENT_KINDS[check.method.type].otp;
  };
  if (flow.orderId !== undefined) {
    const order = await payableOrder(userId, flow.orderId);
    if (!order || !(await isPaylater(order.totalAmount, flow.paymentMethodId))) return null;
    const db = await getDb();
    const [row] = await db.select({ phone: orders.buyerPhoneNumber }).from(orders).where(eq(orders.id, order.id));
    return row?.phone.replace(/\D/g, "") || null;
  }
  const draft = await getCheckoutDraft(userId);
  if (!draft || !(await isPaylater(await draftAmount(userId, draft), draft.paymentMethodId))) return null;
  // Only a draft payDraft would turn into the paylater order: complete, and not an incentive (that one waits for approval).
  const submission = await submissionFromDraft(userId, draft);
  if (!submission || submission.insentif) return null;
  return submission.buyerPhoneNumber.replace(/\D/g, "") || null;
}

/**
 * Sends the BRI-CERIA code for what waits for it (paylaterPhone), through the SMS rules of
 * requestOtp (verified account, Indonesian number, cooldown, hourly caps). Both doors call this, so
 * no request sends an SMS to a number of its choosing or uses up the store-wide cap without a
 * paylater payment.
 */
export async function requestPaylaterOtp(
  userId: number,
  flow: { orderId?: number; paymentMethodId?: unknown },
  now = new Date(),
  address = "local",
): Promise<PaylaterOtpResult> {
  const phone = await paylaterPhone(userId, flow);
  if (!phone) return { ok: false, code: "NO_PAYLATER", message: OTP_NO_PAYLATER };
  return requestOtp(userId, phone, now, address);
}

/** The draft's values (kept as typed), checked by the checkout form's own schema. */
async function submissionFromDraft(
  userId: number,
  draft: NonNullable<Awaited<ReturnType<typeof getCheckoutDraft>>>,
): Promise<CheckoutSubmission | null> {
  const values = draft.values;
  const [account] = await (await getDb()).select({ nip: users.nip }).from(users).where(eq(users.id, userId));
  const employeePromo = account ? await checkEmployeePromo(userId, draft.product.id, account.nip) : null;
  const context = checkoutContextOf(draft, employeePromo !== null);
  const checked = checkValues(checkoutSchema(context), values);
  return checked.success ? checkoutSubmissionOf(checked.value, context) : null;
}

/**
 * 'continue' on the payment summary for the checkout draft (spec §4 Payment flow): creates the order
 * with the chosen method through createOrderFromDraft (stock reserved, draft cleared) — 200 for a
 * virtual account or manual transfer, 301 for instalment and paylater — then opens its payment.
 * Idempotent on the form's key: a double submit finds the first order and its one payment.
 * BRI-CERIA needs the secret of a validated OTP sent to the buyer's phone.
 */
export async function payDraft(userId: number, idempotencyKey: string, options: { otpSecretId?: string } = {}): Promise<PayResult> {
  if (!isId(userId)) return { ok: false, code: "NO_DRAFT", message: NO_DRAFT };
  const key = typeof idempotencyKey === "string" ? idempotencyKey.trim().slice(0, 100) : "";
  const db = await getDb();
  if (key) {
    const [earlier] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
    if (earlier) return { ok: true, orderId: earlier.id, created: false, redirectUrl: await openPaymentQuietly(earlier.id) };
  }
  const draft = await getCheckoutDraft(userId);
  if (!draft || !key) return { ok: false, code: "NO_DRAFT", message: NO_DRAFT };
  const amount = await draftAmount(userId, draft);
  const check = await checkPaymentChoice(amount, draft.paymentMethodId, draft.tenor);
  if (!check.ok) return { ok: false, code: check.field === "tenor" ? "TENOR" : "METHOD", message: check.message };
  if (PAYMENT_KINDS[check.method.type].transferProof && (await freeUniqueCode()) === null)
    return { ok: false, code: "METHOD", message: UNIQUE_CODES_EXHAUSTED };
  const submission = await submissionFromDraft(userId, draft);
  if (!submission) return { ok: false, code: "CHECKOUT", message: CHECKOUT_INCOMPLETE };
  if (submission.insentif) return { ok: false, code: "CHECKOUT", message: INCENTIVE_FROM_CHECKOUT };
  if (PAYMENT_KINDS[check.method.type].otp) {
    const secret = options.otpSecretId ?? "";
    if (!(await consumeOtpSecret(userId, secret, submission.buyerPhoneNumber))) return { ok: false, code: "OTP", message: OTP_REQUIRED };
  }
  const created = await createOrderFromDraft(userId, key, submission, {
    statusId: statusForType(check.method.type),
    paymentMethodId: check.method.id,
    ...(check.tenor ? { tenor: check.tenor.tenor } : {}),
  });
  if (!created.ok) return { ok: false, code: "RULE", message: created.message };
  return { ok: true, orderId: created.orderId, created: created.created, redirectUrl: await openPaymentQuietly(created.orderId) };
}
