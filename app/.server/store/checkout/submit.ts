import { and, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orders, uploads, users, type AddressInput } from "../../db/schema";
import { parseForm } from "~/lib/forms";
import { checkoutPricing } from "~/lib/pricing";
import { ORDER_STATUS } from "~/lib/order-status";
import { checkoutSchema } from "~/lib/schemas/checkout";
import { NOT_ACTIVE_EMPLOYEE } from "../people";
import {
  checkEmployeePromo,
  clearDraftPaymentChoice,
  getCheckoutDraft,
  loadCheckoutProduct,
  OUT_OF_STOCK,
  PRODUCT_NOT_FOUND,
  saveDraftAddress,
  saveDraftValues,
  setDraftKtp,
  startCheckout,
  UNVERIFIED,
} from "./draft";
import { resolveAddress } from "./locations";
import { checkOrderRules, checkoutContextOf, checkoutSubmissionOf, createOrderFromDraft } from "./order-creation";
import { chooseDraftMethod, chooseDraftTenor, payDraft } from "./payment-choice";
import { METHOD_REQUIRED, openPayment } from "../payments";

// A whole checkout in one call (spec §7 POST /order/create): the same steps the web takes over
// three screens — 'Beli Sekarang' (startCheckout), the checkout form (draft values, KTP, the form's
// schema, the order rules), /address, and the payment summary (method, tenor, payDraft) — through
// the same store functions, so both doors make the same order. The user's one checkout draft is
// used on the way (as the web does) and is gone once the order exists.

export type CheckoutPayload = {
  productId: number;
  /** The checkout form's fields as a form posts them (ticked boxes "on"). */
  form: FormData;
  ktpUploadId: string | null;
  address: AddressInput | null;
  paymentMethodId?: unknown;
  tenor?: unknown;
  otpSecretId?: string;
};

export type CheckoutSubmitResult =
  | { ok: true; orderId: number; created: boolean; redirectUrl: string | null }
  | { ok: false; status: 400 | 403 | 404 | 409; message: string; errors?: Record<string, string[]> };

const fieldError = (status: 400 | 409, field: string, message: string): CheckoutSubmitResult => ({
  ok: false,
  status,
  message,
  errors: { [field]: [message] },
});

async function redirectUrlOf(orderId: number): Promise<string | null> {
  try {
    return (await openPayment(orderId))?.redirectUrl ?? null;
  } catch {
    return null;
  }
}

async function isOwnKtp(userId: number, uploadId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.ownerId, userId), eq(uploads.purpose, "ktp")));
  return row !== undefined;
}

/** The order an earlier call with this key made, if any. */
async function orderByKey(userId: number, key: string): Promise<number | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row?.id ?? null;
}

/**
 * Creates the order of `payload` for `user`, idempotent on `idempotencyKey` (a repeat answers the
 * first order, created=false). With the incentive: status 100 (approval first, no method yet).
 * Otherwise the payment method is required and the order is made as the payment summary makes it.
 */
export async function submitCheckout(
  user: { id: number; verified: boolean },
  idempotencyKey: string,
  payload: CheckoutPayload,
): Promise<CheckoutSubmitResult> {
  const key = idempotencyKey.trim().slice(0, 100);
  const earlier = await orderByKey(user.id, key);
  if (earlier) return { ok: true, orderId: earlier, created: false, redirectUrl: await redirectUrlOf(earlier) };

  const started = await startCheckout(user, payload.productId);
  if (!started.ok) {
    if (started.message === UNVERIFIED || started.message === NOT_ACTIVE_EMPLOYEE)
      return { ok: false, status: 403, message: started.message };
    if (started.message === PRODUCT_NOT_FOUND) return { ok: false, status: 404, message: started.message };
    return fieldError(started.message === OUT_OF_STOCK ? 409 : 400, "orderProducts", started.message);
  }

  const text = (name: string) => {
    const value = payload.form.get(name);
    return typeof value === "string" ? value : "";
  };
  const ticked = (name: string) => payload.form.get(name) !== null;
  await saveDraftValues(user.id, {
    note: text("note"),
    buyerName: text("buyerName"),
    buyerPhoneNumber: text("buyerPhoneNumber"),
    buyerEmail: text("buyerEmail"),
    buyerNik: text("buyerNik"),
    buyerNip: text("buyerNip"),
    buyerDadName: ticked("insentif") ? text("buyerDadName") : "",
    insentif: ticked("insentif"),
    nikValidation: ticked("nikValidation"),
    ajukanInsentifPegawai: ticked("ajukanInsentifPegawai"),
    bbnValidation: ticked("bbnValidation"),
    domisiliValidation: ticked("domisiliValidation"),
  });
  // Only a KTP photo of the buyer's own (an upload of purpose "ktp", as the checkout form stores).
  if (payload.ktpUploadId && (await isOwnKtp(user.id, payload.ktpUploadId))) await setDraftKtp(user.id, payload.ktpUploadId);
  if (payload.address) {
    const resolved = await resolveAddress(payload.address);
    if (!resolved.ok) return fieldError(400, `address.${resolved.field}`, resolved.message);
    await saveDraftAddress(user.id, payload.address);
  }

  const draft = await getCheckoutDraft(user.id);
  if (!draft) return { ok: false, status: 404, message: PRODUCT_NOT_FOUND };
  const db = await getDb();
  const [account] = await db.select({ nip: users.nip }).from(users).where(eq(users.id, user.id));
  const employeePromo = account ? await checkEmployeePromo(user.id, draft.product.id, account.nip) : null;
  const context = checkoutContextOf(draft, employeePromo !== null);
  const parsed = parseForm(payload.form, checkoutSchema(context));
  if (parsed.status !== "success") {
    const errors: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(parsed.error ?? {}))
      if (messages?.length) errors[field === "ktp" ? "ktpImageUrl" : field] = messages;
    return { ok: false, status: 400, message: Object.values(errors)[0]?.[0] ?? METHOD_REQUIRED, errors };
  }
  const submission = checkoutSubmissionOf(parsed.value, context);
  const insentif = submission.insentif;
  const rules = await checkOrderRules(user.id, submission);
  if (!rules.ok) return fieldError(409, rules.field === "ktp" ? "ktpImageUrl" : (rules.field ?? "form"), rules.message);
  await clearDraftPaymentChoice(user.id);

  if (insentif) {
    const created = await createOrderFromDraft(user.id, key, submission, { statusId: ORDER_STATUS.INCENTIVE_REVIEW });
    if (!created.ok) return fieldError(409, created.field ?? "form", created.message);
    return { ok: true, orderId: created.orderId, created: created.created, redirectUrl: null };
  }

  if (payload.paymentMethodId === undefined || payload.paymentMethodId === null || payload.paymentMethodId === "")
    return fieldError(400, "paymentMethodId", METHOD_REQUIRED);
  const method = await chooseDraftMethod(user.id, String(payload.paymentMethodId));
  if (!method.ok) return fieldError(400, method.field, method.message);
  if (method.needsTenor) {
    const tenor = await chooseDraftTenor(user.id, payload.tenor === undefined || payload.tenor === null ? "" : String(payload.tenor));
    if (!tenor.ok) return fieldError(400, tenor.field, tenor.message);
  }
  const paid = await payDraft(user.id, key, { otpSecretId: payload.otpSecretId });
  if (!paid.ok) {
    const field =
      paid.code === "TENOR" ? "tenor" : paid.code === "METHOD" ? "paymentMethodId" : paid.code === "OTP" ? "otpSecretId" : "form";
    return fieldError(paid.code === "METHOD" || paid.code === "TENOR" || paid.code === "OTP" ? 400 : 409, field, paid.message);
  }
  return { ok: true, orderId: paid.orderId, created: paid.created, redirectUrl: paid.redirectUrl };
}

/**
 * What the payment lists price for a product (spec §7 payment/methods: the price after the
 * product's discount and its ordinary promos, as the payment summary of a new checkout); null for
 * an unknown product.
 */
export async function productCheckoutAmount(productId: number): Promise<number | null> {
  const product = await loadCheckoutProduct(await getDb(), productId);
  if (!product?.priced || !product.published) return null;
  return checkoutPricing(product.pricing, { insentif: false, promoPegawai: false }).total;
}
