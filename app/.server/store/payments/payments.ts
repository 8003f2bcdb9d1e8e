import { and, asc, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { checkoutDrafts, orderEvents, orders, orderStatuses, paymentMethods, payments, uploads, users, webhookEvents } from "../../db/schema";
import { env } from "../../env";
import { gatewayNamed, getGateway, type GatewayClosing, type GatewayEvent, type HowToPay } from "../../gateway";
import { MANUAL_TRANSFER_ACCOUNT } from "../../gateway/sandbox";
import { sanitizeHtml } from "./sanitize-html";
import { checkoutSchema } from "~/lib/schemas/checkout";
import { parseForm } from "~/lib/forms";
import {
  isTenor,
  listedFee,
  paymentBreakdown,
  tenorOptions,
  UNIQUE_CODE_MAX,
  UNIQUE_CODE_MIN,
  VA_BADGE,
  type PaymentBreakdown,
  type PaymentMethodType,
  type TenorOption,
} from "~/lib/payment-pricing";
import type { PaymentFlow } from "~/lib/payment-flow";
import { checkoutPricing } from "~/lib/pricing";
import { checkEmployeePromo, getCheckoutDraft } from "../checkout/draft";
import { consumeOtpSecret } from "./otp";
import { checkoutContextOf, checkoutSubmissionOf, createOrderFromDraft, NO_DRAFT, transitionOrder, type CheckoutSubmission } from "../orders/orders";
import { errorField, log } from "../../log";

// Payments (spec §2–§5 Payment, DESIGN §6 Payments): the method list and tenors with their totals,
// the choice of a method on the checkout draft or on an approved incentive order (set-payment), the
// one payment per order opened through the gateway (idempotent; manual transfers get a unique 3-digit
// code), the payment page's data for its owner only, expiry (on read and by a sweep), the transfer
// proof, and the gateway's settlements. Every status change goes through transitionOrder
// (store/orders/orders.ts), so stock returns where it always does.

export const METHOD_REQUIRED = "Metode Pembayaran wajib dipilih.";
export const TENOR_REQUIRED = "Tenor wajib dipilih";
export const METHOD_UNKNOWN = "Metode Pembayaran tidak tersedia.";
export const PROOF_REQUIRED = "Bukti Pembayaran tidak boleh kosong.";
export const PAYMENT_EXPIRED = "Mohon maaf, pembayaran Anda telah kadaluarsa. Silakan melakukan transaksi ulang.";
export const OTP_REQUIRED = "Masukkan kode OTP yang dikirim ke nomor HP Anda terlebih dahulu.";
export const CHECKOUT_INCOMPLETE = "Lengkapi data pembeli dan alamat pengiriman terlebih dahulu.";
export const INCENTIVE_FROM_CHECKOUT = "Pesanan dengan Insentif Pemerintah diajukan dari halaman checkout.";
export const METHOD_ALREADY_SET = "Metode Pembayaran pesanan ini sudah dipilih.";
export const NOT_PAYABLE = "Pesanan ini tidak dapat dibayar.";
export const NOT_MARKABLE = "Pembayaran ini tidak dapat ditandai sudah dibayar.";
export const GATEWAY_UNAVAILABLE = "Pembayaran belum dapat dibuat karena layanan pembayaran sedang gangguan. Silakan coba lagi beberapa saat lagi.";
export const UNIQUE_CODES_EXHAUSTED = "Transfer manual sedang penuh. Silakan pilih metode pembayaran lain atau coba lagi nanti.";

/** All 999 unique codes are held by open manual transfers: the buyer chooses another method. */
export class UniqueCodesExhausted extends Error {
  readonly code = "UNIQUE_CODES_EXHAUSTED";
  constructor() {
    super(UNIQUE_CODES_EXHAUSTED);
  }
}

/** The store's default validity when the gateway gives no expiry (spec §4, §9: 24 hours). */
export const DEFAULT_VALIDITY_MS = 24 * 60 * 60 * 1000;

const GROUPS = ["Virtual Account", "Manual", "Cicilan", "Lainnya"] as const;
export type PaymentGroupName = (typeof GROUPS)[number];

/** Order statuses a payment is alive in: awaiting payment, instalment approval, proof verification. */
const LIVE_PAYMENT_STATUSES = [200, 301, 302];
const PAID_STATUSES = [300, 400, 500];

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
const statusForType = (type: PaymentMethodType): 200 | 301 => (type === "installment" || type === "paylater" ? 301 : 200);

// ————————————————————————————————————————————— methods and tenors

type MethodRow = typeof paymentMethods.$inferSelect;

export type PaymentMethodChoice = {
  id: number;
  code: string;
  name: string;
  type: PaymentMethodType;
  groupName: PaymentGroupName;
  imageUrl: string;
  /** 'Biaya layanan' as listed (the instalment fee shows as Rp 0). */
  fee: number;
  /** What this method costs for the amount (VA: −3%). For a manual transfer, before its unique code. */
  totalPayment: number;
  breakdown: PaymentBreakdown;
  /** BNI-INSTALLMENT: the method needs a tenor (/tenorlist). */
  needsTenor: boolean;
  additionalData: { fee: number; applyUrl: string | null };
};
export type PaymentMethodGroup = { name: PaymentGroupName; badge: string | null; methods: PaymentMethodChoice[] };

function choiceOf(method: MethodRow, amount: number): PaymentMethodChoice {
  const breakdown = paymentBreakdown(method.type, amount, method.fee);
  return {
    id: method.id,
    code: method.code,
    name: method.name,
    type: method.type,
    groupName: method.groupName,
    imageUrl: method.imageUrl,
    fee: listedFee(method.type, method.fee),
    totalPayment: breakdown.total,
    breakdown,
    needsTenor: method.type === "installment",
    additionalData: { fee: method.fee, applyUrl: method.applyUrl },
  };
}

async function activeMethod(paymentMethodId: unknown): Promise<MethodRow | null> {
  const id = typeof paymentMethodId === "string" ? Number(paymentMethodId) : paymentMethodId;
  if (!isId(id)) return null;
  const db = await getDb();
  const [method] = await db.select().from(paymentMethods).where(and(eq(paymentMethods.id, id), eq(paymentMethods.active, true)));
  return method ?? null;
}

/** Spec §7 payment/methods: the active methods in their four groups, each with its total for `amount`. */
export async function listPaymentMethods(amount: number): Promise<PaymentMethodGroup[]> {
  const db = await getDb();
  const methods = await db.select().from(paymentMethods).where(eq(paymentMethods.active, true)).orderBy(asc(paymentMethods.position), asc(paymentMethods.id));
  return GROUPS.map((name) => ({
    name,
    badge: name === "Virtual Account" ? VA_BADGE : null,
    methods: methods.filter((m) => m.groupName === name).map((m) => choiceOf(m, amount)),
  })).filter((group) => group.methods.length > 0);
}

/** Spec §7 payment/installment: the tenors of an instalment method for `amount`; null for any other method. */
export async function listTenorOptions(amount: number, paymentMethodId: number): Promise<TenorOption[] | null> {
  const method = await activeMethod(paymentMethodId);
  if (!method || method.type !== "installment") return null;
  return tenorOptions(amount, method.fee, method.applyUrl);
}

export type ChoiceCheck = { ok: true; method: PaymentMethodChoice; tenor: TenorOption | null } | { ok: false; field: "paymentMethodId" | "tenor"; message: string };

/**
 * A posted choice checked against the reference data: the method exists and is active; an
 * instalment method has one of its tenors ('Tenor wajib dipilih'); other methods carry no tenor.
 */
export async function checkPaymentChoice(amount: number, paymentMethodId: unknown, tenor: unknown, options: { requireTenor: boolean } = { requireTenor: true }): Promise<ChoiceCheck> {
  if (paymentMethodId === null || paymentMethodId === undefined || paymentMethodId === "") return { ok: false, field: "paymentMethodId", message: METHOD_REQUIRED };
  const method = await activeMethod(paymentMethodId);
  if (!method) return { ok: false, field: "paymentMethodId", message: METHOD_UNKNOWN };
  const choice = choiceOf(method, amount);
  if (method.type !== "installment") return { ok: true, method: choice, tenor: null };
  const months = typeof tenor === "string" && tenor.trim() !== "" ? Number(tenor) : tenor;
  if (!isTenor(months)) return options.requireTenor ? { ok: false, field: "tenor", message: TENOR_REQUIRED } : { ok: true, method: choice, tenor: null };
  const option = tenorOptions(amount, method.fee, method.applyUrl).find((o) => o.tenor === months)!;
  return { ok: true, method: choice, tenor: option };
}

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
  const employeePromo = draft.values.ajukanInsentifPegawai === true && account ? await checkEmployeePromo(userId, draft.product.id, account.nip) : null;
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
export async function getPaymentSummary(userId: number, options: { orderId?: number; choice?: { paymentMethodId: unknown; tenor?: unknown } } = {}): Promise<PaymentSummary | null> {
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
  const check = chosen?.paymentMethodId ? await checkPaymentChoice(base.amount, chosen.paymentMethodId, chosen.tenor, { requireTenor: false }) : null;
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
        where o.id = ${id} and o.user_id = ${userId} and o.status_id = 200 and o.payment_method_id is null limit 1`,
  );
  return row ? { id: Number(row.id), totalAmount: Number(row.total_amount), productTitle: row.title } : null;
}

/**
 * /paymentmethodlist on the draft: saves the method (the tenor is cleared; BNI-INSTALLMENT then
 * needs /tenorlist: `needsTenor`).
 */
export async function chooseDraftMethod(userId: number, paymentMethodId: unknown): Promise<{ ok: true; needsTenor: boolean } | { ok: false; field: "paymentMethodId"; message: string }> {
  if (paymentMethodId === null || paymentMethodId === undefined || paymentMethodId === "") return { ok: false, field: "paymentMethodId", message: METHOD_REQUIRED };
  const method = await activeMethod(paymentMethodId);
  if (!method) return { ok: false, field: "paymentMethodId", message: METHOD_UNKNOWN };
  const db = await getDb();
  const saved = await db
    .update(checkoutDrafts)
    .set({ paymentMethodId: method.id, tenor: null, updatedAt: new Date() })
    .where(eq(checkoutDrafts.userId, userId))
    .returning({ userId: checkoutDrafts.userId });
  if (!saved.length) return { ok: false, field: "paymentMethodId", message: NO_DRAFT };
  return { ok: true, needsTenor: method.type === "installment" };
}

/** /tenorlist on the draft: the tenor of the draft's instalment method ('Tenor wajib dipilih'). */
export async function chooseDraftTenor(userId: number, tenor: unknown): Promise<{ ok: true } | { ok: false; field: "tenor" | "paymentMethodId"; message: string }> {
  const draft = isId(userId) ? await getCheckoutDraft(userId) : null;
  if (!draft) return { ok: false, field: "paymentMethodId", message: NO_DRAFT };
  const check = await checkPaymentChoice(0, draft.paymentMethodId, tenor);
  if (!check.ok) return check;
  if (!check.tenor) return { ok: false, field: "paymentMethodId", message: METHOD_UNKNOWN };
  const db = await getDb();
  await db.update(checkoutDrafts).set({ tenor: check.tenor.tenor, updatedAt: new Date() }).where(eq(checkoutDrafts.userId, userId));
  return { ok: true };
}

/** The phone the BRI-CERIA code goes to: the buyer's number on the draft or on the order. */
export async function paylaterPhone(userId: number, orderId?: number): Promise<string | null> {
  if (!isId(userId)) return null;
  if (orderId !== undefined) {
    if (!isId(orderId)) return null;
    const db = await getDb();
    const [order] = await db.select({ phone: orders.buyerPhoneNumber }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
    return order?.phone.replace(/\D/g, "") || null;
  }
  const draft = await getCheckoutDraft(userId);
  return draft?.values.buyerPhoneNumber?.replace(/\D/g, "") || null;
}

// ————————————————————————————————————————————— continue: create the order / set its payment

export type PayResult =
  | { ok: true; orderId: number; created: boolean; redirectUrl: string | null }
  | { ok: false; message: string; code: "NO_DRAFT" | "METHOD" | "TENOR" | "OTP" | "CHECKOUT" | "RULE" | "NOT_PAYABLE" };

/** The draft's values as the checkout form would post them, checked by the checkout form's own schema. */
async function submissionFromDraft(userId: number, draft: NonNullable<Awaited<ReturnType<typeof getCheckoutDraft>>>): Promise<CheckoutSubmission | null> {
  const values = draft.values;
  const [account] = await (await getDb()).select({ nip: users.nip }).from(users).where(eq(users.id, userId));
  const employeePromo = account ? await checkEmployeePromo(userId, draft.product.id, account.nip) : null;
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === "string") form.set(key, value);
    else if (value === true) form.set(key, "on");
  }
  const context = checkoutContextOf(draft, employeePromo !== null);
  const parsed = parseForm(form, checkoutSchema(context));
  return parsed.status === "success" ? checkoutSubmissionOf(parsed.value, context) : null;
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
    const [earlier] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
    if (earlier) return { ok: true, orderId: earlier.id, created: false, redirectUrl: await openPaymentQuietly(earlier.id) };
  }
  const draft = await getCheckoutDraft(userId);
  if (!draft || !key) return { ok: false, code: "NO_DRAFT", message: NO_DRAFT };
  const amount = await draftAmount(userId, draft);
  const check = await checkPaymentChoice(amount, draft.paymentMethodId, draft.tenor);
  if (!check.ok) return { ok: false, code: check.field === "tenor" ? "TENOR" : "METHOD", message: check.message };
  if (check.method.type === "bank_transfer" && (await freeUniqueCode()) === null) return { ok: false, code: "METHOD", message: UNIQUE_CODES_EXHAUSTED };
  const submission = await submissionFromDraft(userId, draft);
  if (!submission) return { ok: false, code: "CHECKOUT", message: CHECKOUT_INCOMPLETE };
  if (submission.insentif) return { ok: false, code: "CHECKOUT", message: INCENTIVE_FROM_CHECKOUT };
  if (check.method.type === "paylater") {
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

/**
 * Spec §7 set-payment: 'continue' for the user's order in 200 without a method (an incentive order
 * after approval). Sets the method and tenor once (one conditional update; a repeat with the same
 * choice is answered like the first), moves instalment/paylater to 301, and opens the payment.
 */
export async function setOrderPayment(
  userId: number,
  orderId: number,
  choice: { paymentMethodId: unknown; tenor?: unknown; otpSecretId?: string },
): Promise<PayResult> {
  if (!isId(userId) || !isId(orderId)) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  const db = await getDb();
  const [order] = await db
    .select({ id: orders.id, statusId: orders.statusId, paymentMethodId: orders.paymentMethodId, tenor: orders.tenor, totalAmount: orders.totalAmount, phone: orders.buyerPhoneNumber })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  const check = await checkPaymentChoice(order.totalAmount, choice.paymentMethodId, choice.tenor);
  if (!check.ok) return { ok: false, code: check.field === "tenor" ? "TENOR" : "METHOD", message: check.message };
  const tenor = check.tenor?.tenor ?? null;
  if (order.paymentMethodId !== null) {
    // A double submit: the first one set exactly this; anything else is a second, different choice.
    if (order.paymentMethodId === check.method.id && order.tenor === tenor && LIVE_PAYMENT_STATUSES.includes(order.statusId)) {
      return { ok: true, orderId, created: false, redirectUrl: await openPaymentQuietly(orderId) };
    }
    return { ok: false, code: "NOT_PAYABLE", message: METHOD_ALREADY_SET };
  }
  if (order.statusId !== 200) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  if (check.method.type === "bank_transfer" && (await freeUniqueCode()) === null) return { ok: false, code: "METHOD", message: UNIQUE_CODES_EXHAUSTED };
  if (check.method.type === "paylater" && !(await consumeOtpSecret(userId, choice.otpSecretId ?? "", order.phone))) {
    return { ok: false, code: "OTP", message: OTP_REQUIRED };
  }
  const set = await db
    .update(orders)
    .set({ paymentMethodId: check.method.id, tenor, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.statusId, 200), isNull(orders.paymentMethodId)))
    .returning({ id: orders.id });
  if (!set.length) return setOrderPayment(userId, orderId, choice); // lost a race: answer as the repeat it now is
  if (statusForType(check.method.type) === 301) {
    const moved = await transitionOrder(orderId, 200, 301, `buyer:${userId}`, "Metode pembayaran cicilan dipilih");
    if (!moved.ok) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  }
  return { ok: true, orderId, created: false, redirectUrl: await openPaymentQuietly(orderId) };
}

/** Opens the payment after the order was made; a gateway failure leaves it for /payment/{id} to retry. */
async function openPaymentQuietly(orderId: number): Promise<string | null> {
  try {
    const payment = await openPayment(orderId);
    return payment?.redirectUrl ?? null;
  } catch (error) {
    log.warn({ orderId, err: errorField(error) }, "payments: opening the payment failed");
    return null;
  }
}

// ————————————————————————————————————————————— opening the payment

type PaymentRow = typeof payments.$inferSelect;

/**
 * Opens the order's one payment through the gateway (spec §7 open-va): a VA or manual transfer in
 * 200, an instalment or paylater in 301. Idempotent: the existing payment is returned. A manual
 * transfer gets a 3-digit code no other open manual transfer has (the database's partial unique
 * index decides under concurrency; a collision simply tries another free code).
 * null: the order has no method or is not in a status that is paid this way.
 */
export async function openPayment(orderId: number): Promise<PaymentRow | null> {
  if (!isId(orderId)) return null;
  const db = await getDb();
  const [existing] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  if (existing) return existing;
  const [order] = await db
    .select({ id: orders.id, invoiceId: orders.invoiceId, statusId: orders.statusId, totalAmount: orders.totalAmount, tenor: orders.tenor, buyerName: orders.buyerName, buyerEmail: orders.buyerEmail, buyerPhoneNumber: orders.buyerPhoneNumber, method: paymentMethods })
    .from(orders)
    .innerJoin(paymentMethods, eq(paymentMethods.id, orders.paymentMethodId))
    .where(eq(orders.id, orderId));
  if (!order || order.statusId !== statusForType(order.method.type)) return null;
  const method = order.method;
  // No free code: refuse before the gateway is asked for anything.
  if (method.type === "bank_transfer" && (await freeUniqueCode()) === null) throw new UniqueCodesExhausted();

  const priced = paymentBreakdown(method.type, order.totalAmount, method.fee);
  const gateway = getGateway(method);
  const payable = method.type === "virtual_account" || method.type === "bank_transfer";
  const opened = await gateway.openPayment({
    orderId,
    invoiceId: order.invoiceId,
    method: { code: method.code, name: method.name, type: method.type },
    tenor: method.type === "installment" ? order.tenor : null,
    total: priced.total,
    customer: { name: order.buyerName, email: order.buyerEmail, phone: order.buyerPhoneNumber },
    // The store's deadline, which a real gateway expires the payment at as well (spec §9).
    ...(payable ? { deadline: new Date(Date.now() + DEFAULT_VALIDITY_MS) } : {}),
  });
  const now = new Date();
  const row = {
    orderId,
    paymentMethodId: method.id,
    type: method.type,
    tenor: method.type === "installment" ? order.tenor : null,
    vaNumber: opened.vaNumber,
    billerCode: opened.billerCode ?? null,
    amount: priced.amount,
    discount: priced.discount,
    fee: priced.fee,
    expiresAt: payable ? (opened.expiresAt ?? new Date(now.getTime() + DEFAULT_VALIDITY_MS)) : opened.expiresAt,
    redirectUrl: opened.redirectUrl,
    gateway: gateway.name,
    gatewayRef: opened.gatewayRef,
    createdAt: now,
  };

  if (method.type !== "bank_transfer") {
    await db.insert(payments).values({ ...row, uniqueCode: null, total: priced.total }).onConflictDoNothing();
    const [saved] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    return saved ?? null;
  }

  for (let attempt = 0; attempt < 20; attempt++) {
    const code = await freeUniqueCode();
    if (code === null) throw new UniqueCodesExhausted();
    const withCode = paymentBreakdown(method.type, order.totalAmount, method.fee, code);
    // DO NOTHING on any unique index: this order's payment (a concurrent open won) or this code.
    const inserted = await db.insert(payments).values({ ...row, uniqueCode: code, total: withCode.total }).onConflictDoNothing().returning();
    if (inserted[0]) return inserted[0];
    const [won] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    if (won) return won;
  }
  throw new Error("payments: no unique code after 20 attempts");
}

/** A random code no open manual transfer holds; first frees the codes of payments whose order moved on. */
async function freeUniqueCode(): Promise<number | null> {
  const db = await getDb();
  const pick = async () => {
    const [row] = await queryRows<{ code: number }>(
      db,
      sql`select c as code from generate_series(${UNIQUE_CODE_MIN}::int, ${UNIQUE_CODE_MAX}::int) c
          where not exists (select 1 from payments p where p.unique_code = c and p.closed_at is null)
          order by random() limit 1`,
    );
    return row ? Number(row.code) : null;
  };
  return (await pick()) ?? ((await closeStalePayments()) > 0 ? pick() : null);
}

/** Closes open payments whose order left the statuses a payment lives in (cancelled, paid by ops…). */
async function closeStalePayments(): Promise<number> {
  const db = await getDb();
  const closed = await queryRows<{ order_id: number }>(
    db,
    sql`update payments p set closed_at = now(),
          closed_reason = case when o.status_id in (300, 400, 500) then 'paid' else 'order-closed' end
        from orders o
        where o.id = p.order_id and p.closed_at is null and o.status_id not in (200, 301, 302)
        returning p.order_id`,
  );
  return closed.length;
}

// ————————————————————————————————————————————— expiry

/**
 * Expires one order's payment: 200 → 2 through transitionOrder (the stock unit returns there), then
 * the payment closes. Only the caller whose transition happened closes it, so a settlement racing
 * with the expiry leaves exactly one of the two.
 */
async function expirePayment(orderId: number, options: { from?: 200 | 301; gatewayClosed?: boolean; note?: string } = {}): Promise<boolean> {
  if (!options.gatewayClosed) {
    // A real gateway stops the payment first; one it reports paid meanwhile is settled instead.
    const closing = await closeAtGateway(orderId);
    if (closing.kind === "settled") {
      await settleGatewayEvent(closing.event);
      return false;
    }
    if (closing.kind === "unreachable") return false;
  }
  const moved = await transitionOrder(orderId, options.from ?? 200, 2, options.gatewayClosed ? "gateway" : "system", options.note ?? "Pembayaran kedaluwarsa");
  if (!moved.ok) return false;
  const db = await getDb();
  await db.update(payments).set({ closedAt: new Date(), closedReason: "expired" }).where(and(eq(payments.orderId, orderId), isNull(payments.closedAt)));
  return true;
}

/** When a gateway that cannot be reached holds a payment this long past its deadline, the store expires it anyway. */
const GATEWAY_CLOSE_GRACE_MS = 60 * 60 * 1000;

/**
 * Before the store expires a payment of a real gateway, the gateway is asked to stop it (Midtrans:
 * POST /v2/{order_id}/expire). Unreachable: the expiry waits for a later sweep, up to an hour past
 * the deadline; after that the store expires it alone (a later payment becomes an incident for ops).
 */
async function closeAtGateway(orderId: number, now = new Date()): Promise<GatewayClosing> {
  const db = await getDb();
  const [payment] = await db.select({ gateway: payments.gateway, gatewayRef: payments.gatewayRef, closedAt: payments.closedAt, expiresAt: payments.expiresAt }).from(payments).where(eq(payments.orderId, orderId));
  const gateway = payment && !payment.closedAt && payment.gatewayRef ? gatewayNamed(payment.gateway) : null;
  if (!payment || !gateway?.closePayment) return { kind: "closed" };
  const closing = await gateway.closePayment(payment.gatewayRef!);
  if (closing.kind !== "unreachable") return closing;
  const overdueBy = payment.expiresAt ? now.getTime() - payment.expiresAt.getTime() : 0;
  log.warn({ orderId, gateway: gateway.name, reason: closing.reason }, overdueBy > GATEWAY_CLOSE_GRACE_MS ? "payments: the gateway could not close the payment; expiring it anyway" : "payments: the gateway could not close the payment; trying again later");
  return overdueBy > GATEWAY_CLOSE_GRACE_MS ? { kind: "closed" } : closing;
}

/**
 * The periodic sweep: every open payment past its expiry whose order still awaits payment (200)
 * expires; payments whose order moved on otherwise are closed. The server runs it every minute
 * (entry.server.tsx) and ops on demand (`npm run ops -- orders:expire`). Returns the expired orders.
 */
export async function expireOverduePayments(now = new Date()): Promise<number[]> {
  const db = await getDb();
  const expired: number[] = [];
  for (;;) {
    const due = await db
      .select({ orderId: payments.orderId })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(isNull(payments.closedAt), lte(payments.expiresAt, now), eq(orders.statusId, 200)))
      .limit(200);
    if (!due.length) break;
    let progress = 0;
    for (const { orderId } of due) if (await expirePayment(orderId)) (expired.push(orderId), progress++);
    if (progress === 0) break;
  }
  await closeStalePayments();
  return expired;
}

// ————————————————————————————————————————————— the payment page (/payment/{id})

export type PaymentDetail = {
  orderId: number;
  invoiceId: string;
  statusId: number;
  statusName: string;
  /** null: no method chosen yet (an approved incentive order): the page sends the buyer to /paymentmethod?orderId=. */
  method: { id: number; code: string; name: string; type: PaymentMethodType; imageUrl: string } | null;
  tenor: number | null;
  /** The VA number (Mandiri bill payment: 'Kode Bayar'), or the store's account number for a manual transfer; null for instalment/paylater. */
  vaNo: string | null;
  /** Mandiri bill payment through Midtrans: 'Kode Perusahaan'; null otherwise. */
  billerCode: string | null;
  /** Opening the payment failed just now (the gateway): the page says so and offers to try again. */
  openError: string | null;
  breakdown: PaymentBreakdown | null;
  /** 'Total Pembayaran' (with the unique code for a manual transfer). */
  totalAmount: number;
  uniqueCode: number | null;
  expiredAt: Date | null;
  /** The payment ran out ('EXPIRED!'). */
  expired: boolean;
  /** Spec's marker: a transfer proof was sent. */
  marker: boolean;
  /** 'Saya sudah bayar': a manual transfer awaiting payment without a proof yet. */
  canMarkPaid: boolean;
  /** Ops rejected the last transfer proof (302 → 200), with their reason: the buyer sends another. */
  proofRejected: { reason: string | null } | null;
  /** Why the page cannot show the chosen method (UNIQUE_CODES_EXHAUSTED), or null. */
  notice: string | null;
  /** 'Bayar (Sandbox)': the sandbox gateway and an open virtual account. */
  canSandboxPay: boolean;
  paid: boolean;
  manualInfoDetail: { bankImageUrl: string; bankAccountName: string; bankName: string; bankAccountNumber: string } | null;
  /** How to pay per channel (ATM, Mobile Banking, Internet Banking), sanitised HTML. */
  howTo: HowToPay[];
  redirectUrl: string | null;
};

/**
 * The payment page of the user's own order; null for anyone else's or an unknown id (404). Opens the
 * payment when it is not open yet; an overdue one expires here (on read) as well as by the sweep.
 */
export async function getPaymentDetail(orderId: number, userId: number, now = new Date()): Promise<PaymentDetail | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const owned = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!owned.length) return null;
  let payment: PaymentRow | null;
  let notice: string | null = null;
  let openError: string | null = null;
  try {
    payment = await openPayment(orderId);
  } catch (error) {
    if (error instanceof UniqueCodesExhausted) {
      // The order was made while codes were free, but none is left to open its transfer: the method
      // is released, so the buyer chooses another one for this order (the set-payment flow).
      await releaseUnopenedMethod(orderId);
      notice = UNIQUE_CODES_EXHAUSTED;
    } else {
      // The gateway failed or refused: the order stays payable and the page offers to try again.
      log.warn({ orderId, err: errorField(error) }, "payments: opening the payment failed");
      openError = GATEWAY_UNAVAILABLE;
    }
    [payment = null] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  }
  if (payment && !payment.closedAt && payment.expiresAt && payment.expiresAt <= now) {
    await expirePayment(orderId);
    [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  }
  const [order] = await db
    .select({ id: orders.id, invoiceId: orders.invoiceId, statusId: orders.statusId, statusName: orderStatuses.name, totalAmount: orders.totalAmount, tenor: orders.tenor, methodId: orders.paymentMethodId })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const [method] = order.methodId ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, order.methodId)) : [];
  // The order's last move: 302 → 200 is a rejected proof, its note the operator's reason.
  const [lastMove] = order.statusId === 200 ? await db.select({ fromStatus: orderEvents.fromStatus, note: orderEvents.note }).from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(desc(orderEvents.id)).limit(1) : [];
  const open = !!payment && !payment.closedAt && LIVE_PAYMENT_STATUSES.includes(order.statusId);
  const expired = !!payment && (payment.closedReason === "expired" || (order.statusId === 2 && !!payment.expiresAt && payment.expiresAt <= now && payment.closedReason !== "paid"));
  const isVa = payment?.type === "virtual_account";
  const isManual = payment?.type === "bank_transfer";
  const breakdown = payment ? { amount: payment.amount, discount: payment.discount, fee: payment.fee, uniqueCode: payment.uniqueCode ?? 0, total: payment.total } : null;
  return {
    orderId: order.id,
    invoiceId: order.invoiceId,
    statusId: order.statusId,
    statusName: order.statusName,
    method: method ? { id: method.id, code: method.code, name: method.name, type: method.type, imageUrl: method.imageUrl } : null,
    tenor: order.tenor,
    vaNo: payment?.vaNumber ?? null,
    billerCode: payment?.billerCode ?? null,
    openError: payment ? null : openError,
    breakdown,
    totalAmount: payment?.total ?? order.totalAmount,
    uniqueCode: payment?.uniqueCode ?? null,
    expiredAt: payment?.expiresAt ?? null,
    expired,
    marker: !!payment?.markedPaidAt,
    // In 200 a marker can only be one a rejection left before it was cleared with it: not a proof sent.
    canMarkPaid: open && isManual && order.statusId === 200,
    proofRejected: lastMove?.fromStatus === 302 ? { reason: lastMove.note?.trim() || null } : null,
    notice,
    canSandboxPay: open && isVa && order.statusId === 200 && env().paymentGateway === "sandbox" && payment!.gateway === "sandbox",
    paid: PAID_STATUSES.includes(order.statusId),
    manualInfoDetail: isManual
      ? { bankImageUrl: MANUAL_TRANSFER_ACCOUNT.bankImageUrl, bankAccountName: MANUAL_TRANSFER_ACCOUNT.bankAccountName, bankName: MANUAL_TRANSFER_ACCOUNT.bankName, bankAccountNumber: payment!.vaNumber ?? MANUAL_TRANSFER_ACCOUNT.bankAccountNumber }
      : null,
    howTo:
      payment && method && (isVa || isManual)
        ? (gatewayNamed(payment.gateway) ?? getGateway(method))
            .howToPay({ code: method.code, type: method.type }, payment.vaNumber, payment.billerCode)
            .map((h) => ({ type: h.type, content: sanitizeHtml(h.content) }))
        : [],
    redirectUrl: open ? (payment?.redirectUrl ?? null) : null,
  };
}

/** Forgets the method of an order in 200 whose payment was never opened (set-payment then offers the choice again). */
async function releaseUnopenedMethod(orderId: number): Promise<void> {
  const db = await getDb();
  await db
    .update(orders)
    .set({ paymentMethodId: null, tenor: null, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.statusId, 200), sql`not exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id})`));
}

// ————————————————————————————————————————————— 'Saya sudah bayar'

/**
 * Spec §7 mark-paid: a manual transfer in 200 with the buyer's transfer proof (an upload of theirs
 * with purpose transfer-proof) → 302 'Verifikasi Bukti Transfer'. Missing proof: 'Bukti Pembayaran
 * tidak boleh kosong.'; an overdue payment expires instead. notFound: not the user's order (404).
 */
export async function markPaid(orderId: number, userId: number, proofUploadId: string | null | undefined): Promise<{ ok: true } | { ok: false; message: string; notFound?: true }> {
  if (!isId(orderId) || !isId(userId)) return { ok: false, notFound: true, message: NOT_PAYABLE };
  const db = await getDb();
  const [order] = await db.select({ statusId: orders.statusId }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return { ok: false, notFound: true, message: NOT_PAYABLE };
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  if (!payment || payment.type !== "bank_transfer") return { ok: false, message: NOT_MARKABLE };
  // A double submit: the first one already sent the proof.
  if (order.statusId === 302 && payment.markedPaidAt) return { ok: true };
  if (order.statusId !== 200 || payment.closedAt) return { ok: false, message: NOT_MARKABLE };
  if (payment.expiresAt && payment.expiresAt <= new Date()) {
    await expirePayment(orderId);
    return { ok: false, message: PAYMENT_EXPIRED };
  }
  if (typeof proofUploadId !== "string" || !proofUploadId) return { ok: false, message: PROOF_REQUIRED };
  const [proof] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, proofUploadId), eq(uploads.ownerId, userId), eq(uploads.purpose, "transfer-proof")));
  if (!proof) return { ok: false, message: PROOF_REQUIRED };

  // The mark and the move 200 → 302 are one transaction: the order's conditional update decides a
  // double submit (the second finds 302 and is answered below), and a payment that closed meanwhile
  // rolls the move back. Nothing here calls markPaid again, so it ends in every state.
  const now = new Date();
  let moved: Awaited<ReturnType<typeof transitionOrder>>;
  try {
    // The proof's id in the event: the history keeps it after a rejection clears the payment's.
    moved = await transitionOrder(orderId, 200, 302, `buyer:${userId}`, `Bukti transfer dikirim (bukti:${proof.id})`, {
      onMoved: async (tx) => {
        const marked = await tx
          .update(payments)
          .set({ proofUploadId: proof.id, markedPaidAt: now })
          .where(and(eq(payments.orderId, orderId), isNull(payments.closedAt)))
          .returning({ orderId: payments.orderId });
        if (!marked.length) throw new PaymentClosed();
      },
    });
  } catch (error) {
    if (error instanceof PaymentClosed) return { ok: false, message: NOT_MARKABLE };
    throw error;
  }
  if (moved.ok) return { ok: true };
  // The order was not in 200 any more: a concurrent submit sent its proof first, or it was cancelled or expired.
  const [latest] = await db
    .select({ statusId: orders.statusId, markedPaidAt: payments.markedPaidAt })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.orderId, orderId));
  return latest?.statusId === 302 && latest.markedPaidAt ? { ok: true } : { ok: false, message: NOT_MARKABLE };
}

/** Thrown inside markPaid's transaction to undo the move when the payment had closed. */
class PaymentClosed extends Error {}

// ————————————————————————————————————————————— settlements from the gateway

export type { GatewayEvent };
export type SettlementOutcome = "settled" | "already-paid" | "order-closed" | "ignored" | "expired";
export type SettlementResult =
  | { status: 200; outcome: SettlementOutcome; replay: boolean; orderId: number }
  | { status: 404; error: "unknown-va" }
  | { status: 422; error: "amount-mismatch"; orderId: number; total: number };

const eventNote = (eventId: string) => `webhook ${eventId}`;

/**
 * A verified `payment.paid` event (webhook.ts checked the signature). Unknown VA → 404, an amount
 * other than the payment's total → 422; both change nothing and are not recorded. Otherwise the
 * event is recorded once under its id: the first delivery of a payment moves 200 → 300 through
 * transitionOrder (actor 'gateway'); a replay of the same id answers 200 again and changes nothing;
 * an event for an expired or cancelled order is recorded and changes nothing.
 */
export async function settleGatewayEvent(event: GatewayEvent, now = new Date()): Promise<SettlementResult> {
  const db = await getDb();
  const [earlier] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
  if (earlier) {
    if (earlier.orderId === null) return { status: 404, error: "unknown-va" };
    return { status: 200, outcome: earlier.outcome, replay: true, orderId: earlier.orderId };
  }
  // Midtrans's events name its order_id (gatewayRef); the sandbox's name the VA.
  const [payment] = await db
    .select({ orderId: payments.orderId, total: payments.total, expiresAt: payments.expiresAt, closedAt: payments.closedAt })
    .from(payments)
    .where(event.gatewayRef ? eq(payments.gatewayRef, event.gatewayRef) : and(eq(payments.vaNumber, event.vaNumber ?? ""), eq(payments.type, "virtual_account")));
  if (!payment) return { status: 404, error: "unknown-va" };
  const orderId = payment.orderId;
  const settles = event.type === "payment.paid";
  if (settles && event.amount !== payment.total) return { status: 422, error: "amount-mismatch", orderId, total: payment.total };

  const record = async (outcome: SettlementOutcome, overwrite = false): Promise<SettlementResult> => {
    const amount = Number.isSafeInteger(event.amount) ? event.amount : payment.total;
    const values = { id: event.id, type: event.type, vaNumber: event.vaNumber, gatewayRef: event.gatewayRef ?? null, amount, paidAt: event.paidAt, orderId, outcome, receivedAt: now };
    const query = db.insert(webhookEvents).values(values);
    // The delivery that settled overwrites what a concurrent duplicate may have written first.
    const inserted = overwrite
      ? await query.onConflictDoUpdate({ target: webhookEvents.id, set: { outcome, orderId } }).returning({ id: webhookEvents.id })
      : await query.onConflictDoNothing().returning({ id: webhookEvents.id });
    return { status: 200, outcome, replay: inserted.length === 0, orderId };
  };

  const [order] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  let statusId = order?.statusId ?? 0;

  if (event.type === "payment.expired") {
    // The gateway closed it (expire, cancel, deny, failure): the order expires as the store's own expiry does.
    if (statusId !== 200 && statusId !== 301) return record(statusId === 1 || statusId === 2 ? "order-closed" : "ignored");
    const expired = await expirePayment(orderId, { from: statusId, gatewayClosed: true, note: `Pembayaran ditutup oleh gateway (${eventNote(event.id)})` });
    return record(expired ? "expired" : "ignored");
  }
  if (!settles) return record("ignored");

  // A card instalment paid at the gateway (Midtrans Snap) waits in 301 rather than 200.
  if (statusId === 200 || (statusId === 301 && event.gatewayRef)) {
    const from = statusId;
    if (from === 200 && !event.gatewayEnforcesDeadline && payment.expiresAt && payment.expiresAt <= now) {
      // Paid after the deadline: the payment is expired (as the sweep would have done); nothing is settled.
      await expirePayment(orderId);
      return record("order-closed");
    }
    const moved = await transitionOrder(orderId, from, 300, "gateway", eventNote(event.id));
    if (moved.ok) {
      await db.update(payments).set({ paidAt: event.paidAt ?? now, closedAt: now, closedReason: "paid" }).where(eq(payments.orderId, orderId));
      const settled = await record("settled", true);
      return { ...settled, replay: false } as SettlementResult;
    }
    const [again] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
    statusId = again?.statusId ?? 0;
  }
  if (PAID_STATUSES.includes(statusId)) {
    // Was it this very event (a concurrent duplicate delivery) that paid it? The transition's note says.
    const [byThisEvent] = await db
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 300), eq(orderEvents.note, eventNote(event.id))));
    if (byThisEvent) return { status: 200, outcome: "settled", replay: true, orderId };
    return record("already-paid");
  }
  if (statusId === 1 || statusId === 2) return record("order-closed");
  return record("ignored");
}

/** For 'Bayar (Sandbox)': the user's own open virtual-account payment awaiting payment, or null. */
export async function getOpenVaPayment(orderId: number, userId: number): Promise<{ orderId: number; vaNumber: string; total: number } | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ orderId: payments.orderId, vaNumber: payments.vaNumber, total: payments.total })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.orderId, orderId), eq(orders.userId, userId), eq(orders.statusId, 200), eq(payments.type, "virtual_account"), isNull(payments.closedAt)));
  return row?.vaNumber ? { orderId: row.orderId, vaNumber: row.vaNumber, total: row.total } : null;
}
