import { and, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orders, uploads, type AddressInput } from "../../db/schema";
import { isEmptyFile, processImageUpload } from "../../images";
import { checkoutPricing } from "~/lib/pricing";
import { ORDER_STATUS } from "~/lib/order-status";
import { type CheckoutContext, type CheckoutFields, checkoutSchema } from "~/lib/schemas/checkout";
import { checkValues } from "~/lib/schemas/check";
import { LINK_REQUEST_PENDING, NOT_ACTIVE_EMPLOYEE } from "../people";
import { saveUpload } from "../orders";
import {
  checkEmployeePromo,
  type CheckoutDraft,
  clearDraftPaymentChoice,
  getCheckoutDraft,
  loadCheckoutProduct,
  OUT_OF_STOCK,
  PRODUCT_NOT_FOUND,
  previousNikOf,
  saveDraftAddress,
  saveDraftValues,
  setDraftKtp,
  startCheckout,
  UNVERIFIED,
} from "./draft";
import { resolveAddress } from "./locations";
import { checkOrderRules, checkoutContextOf, checkoutSubmissionOf, createOrderFromDraft, NO_DRAFT } from "./order-creation";
import { chooseDraftMethod, chooseDraftTenor, payDraft } from "./payment-choice";
import { METHOD_REQUIRED, openPayment } from "../payments";

// The checkout workflow, once for both doors (issue 34): the checkout form's submit (app/routes/
// checkout.tsx) and the API's whole checkout in one call (spec §7 POST /order/create) both call
// `submitCheckout`. The steps are the web's: the form's values kept in the draft as typed, a KTP
// photo, the form's schema (spec §5, its words), the order rules, then the incentive order made at
// once (status 100) or the payment chosen next. The API adds what the web does on other screens:
// 'Beli Sekarang' (startCheckout) and /address before, the payment summary (method, tenor,
// payDraft) after, through the same store functions, so both doors make the same order.

/** Who checks out (the signed-in buyer of either door). */
export type CheckoutBuyer = { id: number; verified: boolean; nip: string };

/** A KTP photo for the draft: a file just picked on the form (judged by its bytes and re-encoded),
 * or the id of the buyer's own earlier upload (the API's ktpImageUrl). */
export type KtpInput = { file: File } | { uploadId: string };

export type CheckoutInput = {
  buyer: CheckoutBuyer;
  /** A key per purchase: a repeat (a double submit, a retried call) answers the first order. */
  idempotencyKey: string;
  /** The checkout form's fields as the door read them from its transport (checkoutFieldsSchema). */
  fields: CheckoutFields;
  ktp: KtpInput | null;
  /** The API's door: a fresh checkout of this product with this address first (the web's product page
   * and /address did it on their screens). */
  start?: { productId: number; address: AddressInput | null };
  /** The API's door: the payment chosen in the same call (the web chooses it on /paymentmethod next).
   * Without it a checkout without the incentive ends at `next: "payment"`. */
  payment?: { methodId: unknown; tenor: unknown; otpSecretId?: string };
};

/** A field of the checkout a refusal is about: the form's fields (and `address.<part>`), the API's
 * payment fields, or `product` for the order as a whole (the web shows it above the form). */
export type CheckoutField =
  | "note"
  | "buyerName"
  | "buyerPhoneNumber"
  | "buyerEmail"
  | "buyerNik"
  | "buyerNip"
  | "ktp"
  | "buyerDadName"
  | "insentif"
  | "nikValidation"
  | "ajukanInsentifPegawai"
  | "address"
  | `address.${string}`
  | "bbnValidation"
  | "domisiliValidation"
  | "product"
  | "orderProducts"
  | "paymentMethodId"
  | "tenor"
  | "otpSecretId";

export type CheckoutResult =
  /** The order exists (made now, or by an earlier call with the same key); `paymentUrl` is the
   * gateway's page when the payment was chosen in the call. */
  | { ok: true; next: "done"; orderId: number; created: boolean; paymentUrl: string | null }
  /** Valid, without the incentive and without a payment: the payment method is chosen next. */
  | { ok: true; next: "payment" }
  /** Refused: the spec's words by field (`message` is the first of them). 404: no checkout draft
   * (or, for the API, no such product); 403: the account may not order. */
  | { ok: false; status: 400 | 403 | 404 | 409; message: string; errors: Partial<Record<CheckoutField, string[]>> };

const refusal = (status: 400 | 403 | 404 | 409, field: CheckoutField, message: string): CheckoutResult => ({
  ok: false,
  status,
  message,
  errors: { [field]: [message] },
});

/** What the form holds, kept in the draft as typed (no validation): the trip to /address and a
 * failed submit lose nothing. Boxes the product does not offer are never kept ticked. */
function draftValuesOf(fields: CheckoutFields, checkout: CheckoutContext): CheckoutDraft["values"] {
  const insentif = checkout.hasIncentive && fields.insentif;
  return {
    ...fields,
    // Unticking the incentive clears the father's name (spec §4).
    buyerDadName: insentif ? fields.buyerDadName : "",
    insentif,
    nikValidation: insentif && fields.nikValidation,
    ajukanInsentifPegawai: checkout.hasEmployeePromo && fields.ajukanInsentifPegawai,
  };
}

async function isOwnKtp(userId: number, uploadId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.ownerId, userId), eq(uploads.purpose, "ktp")));
  return row !== undefined;
}

export type SavedCheckoutForm = {
  context: CheckoutContext;
  ktpError: string | null;
  /** The NIK of the buyer's previous order the draft offers (the form shows it masked), if it still does. */
  savedNik: string | null;
};

/**
 * Keeps what the checkout form holds in the buyer's draft (spec §4 "any change is saved to a
 * draft"), then a KTP photo: a picked file is checked by its bytes and re-encoded (once accepted it
 * stays in the draft and is never asked for again); an upload id counts only for the buyer's own
 * KTP upload. Nothing is validated. Null when the buyer has no checkout draft.
 */
export async function saveCheckoutForm(
  buyer: CheckoutBuyer,
  fields: CheckoutFields,
  ktp: KtpInput | null = null,
  options: { forgetSavedNik?: boolean; useSavedNik?: boolean } = {},
): Promise<SavedCheckoutForm | null> {
  const draft = await getCheckoutDraft(buyer.id);
  if (!draft) return null;
  // Spec §4: the employee-discount check runs with the account's NIP.
  const employeePromo = await checkEmployeePromo(buyer.id, draft.product.id, buyer.nip);
  const context = checkoutContextOf(draft, employeePromo !== null);
  const values = draftValuesOf(fields, context);
  // The offered NIK is not a field of the form (it shows masked): it stays until the buyer types
  // another one or presses 'Ganti' (issue 38).
  const keepsSavedNik = context.nikOnFile === true && !options.forgetSavedNik && !values.buyerNik?.trim();
  if (keepsSavedNik) Object.assign(values, { buyerNik: draft.values.buyerNik, nikSaved: true });
  if (!keepsSavedNik) context.nikOnFile = false;
  // 'Pakai NIK sebelumnya' after 'Ganti': the offered NIK again, in place of whatever the field holds.
  const restored = options.useSavedNik ? await previousNikOf(buyer.id) : null;
  if (restored) {
    Object.assign(values, { buyerNik: restored, nikSaved: true });
    context.nikOnFile = true;
  }
  await saveDraftValues(buyer.id, values);
  let ktpError: string | null = null;
  if (ktp && "file" in ktp && !isEmptyFile(ktp.file)) {
    const processed = await processImageUpload(ktp.file);
    if (processed.ok) {
      await setDraftKtp(buyer.id, await saveUpload(buyer.id, "ktp", processed.file));
      context.ktpOnFile = true;
    } else {
      ktpError = processed.message;
    }
  } else if (ktp && "uploadId" in ktp && (await isOwnKtp(buyer.id, ktp.uploadId))) {
    await setDraftKtp(buyer.id, ktp.uploadId);
    context.ktpOnFile = true;
  }
  return { context, ktpError, savedNik: restored ?? (keepsSavedNik ? (draft.values.buyerNik ?? null) : null) };
}

async function paymentUrlOf(orderId: number): Promise<string | null> {
  try {
    return (await openPayment(orderId))?.redirectUrl ?? null;
  } catch {
    return null;
  }
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
 * The checkout's submit, for both doors: idempotent on `idempotencyKey` (a repeat answers the first
 * order, created=false). With the incentive the order is made now (status 100, approval first, no
 * method yet). Otherwise the payment is next: chosen in the call (`payment`, the API) or on the
 * payment summary (the web). Either way a method and tenor chosen before this submit are forgotten.
 */
export async function submitCheckout(input: CheckoutInput): Promise<CheckoutResult> {
  const { buyer, payment } = input;
  const key = input.idempotencyKey.trim().slice(0, 100);
  const earlier = await orderByKey(buyer.id, key);
  if (earlier)
    return { ok: true, next: "done", orderId: earlier, created: false, paymentUrl: payment ? await paymentUrlOf(earlier) : null };

  if (input.start) {
    const started = await startCheckout(buyer, input.start.productId);
    if (!started.ok) {
      if ([UNVERIFIED, NOT_ACTIVE_EMPLOYEE, LINK_REQUEST_PENDING].includes(started.message))
        return refusal(403, "product", started.message);
      if (started.message === PRODUCT_NOT_FOUND) return refusal(404, "product", started.message);
      return refusal(started.message === OUT_OF_STOCK ? 409 : 400, "orderProducts", started.message);
    }
  }
  const saved = await saveCheckoutForm(buyer, input.fields, input.ktp);
  if (!saved) return refusal(404, "product", NO_DRAFT);
  const { context, ktpError, savedNik } = saved;
  if (input.start?.address) {
    const resolved = await resolveAddress(input.start.address);
    if (!resolved.ok) return refusal(400, `address.${resolved.field}`, resolved.message);
    await saveDraftAddress(buyer.id, input.start.address);
    context.addressOnFile = true;
  }

  // The photo is not among the fields: the schema judges only whether one is on file.
  const parsed = checkValues(checkoutSchema(context), input.fields);
  if (!parsed.success || ktpError) {
    const errors: Partial<Record<CheckoutField, string[]>> = {};
    const schemaErrors: Record<string, string[]> = parsed.success ? {} : parsed.error;
    for (const [field, messages] of Object.entries(schemaErrors)) if (messages?.length) errors[field as CheckoutField] = messages;
    // The photo's own verdict (its bytes) replaces the schema's.
    if (ktpError) errors.ktp = [ktpError];
    return { ok: false, status: 400, message: Object.values(errors)[0]?.[0] ?? METHOD_REQUIRED, errors };
  }
  const submission = checkoutSubmissionOf(parsed.value, context);
  if (savedNik && !submission.buyerNik) submission.buyerNik = savedNik;
  const rules = await checkOrderRules(buyer.id, submission);
  if (!rules.ok) return refusal(409, rules.field ?? "product", rules.message);
  await clearDraftPaymentChoice(buyer.id);

  if (submission.insentif) {
    const created = await createOrderFromDraft(buyer.id, key, submission, { statusId: ORDER_STATUS.INCENTIVE_REVIEW });
    if (!created.ok) return refusal(409, created.field ?? "product", created.message);
    return { ok: true, next: "done", orderId: created.orderId, created: created.created, paymentUrl: null };
  }
  if (!payment) return { ok: true, next: "payment" };

  if (payment.methodId === undefined || payment.methodId === null || payment.methodId === "")
    return refusal(400, "paymentMethodId", METHOD_REQUIRED);
  const method = await chooseDraftMethod(buyer.id, String(payment.methodId));
  if (!method.ok) return refusal(400, method.field, method.message);
  if (method.needsTenor) {
    const tenor = await chooseDraftTenor(buyer.id, payment.tenor === undefined || payment.tenor === null ? "" : String(payment.tenor));
    if (!tenor.ok) return refusal(400, tenor.field, tenor.message);
  }
  const paid = await payDraft(buyer.id, key, { otpSecretId: payment.otpSecretId });
  if (!paid.ok) {
    const field =
      paid.code === "TENOR" ? "tenor" : paid.code === "METHOD" ? "paymentMethodId" : paid.code === "OTP" ? "otpSecretId" : "product";
    return refusal(paid.code === "METHOD" || paid.code === "TENOR" || paid.code === "OTP" ? 400 : 409, field, paid.message);
  }
  return { ok: true, next: "done", orderId: paid.orderId, created: paid.created, paymentUrl: paid.redirectUrl };
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
