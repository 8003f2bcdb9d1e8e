import { and, asc, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { paymentMethods } from "../../db/schema";
import { getTenorSettings, manualTransferReady, vaDiscountPercent } from "./settings";
import {
  isTenor,
  listedFee,
  paymentBreakdown,
  tenorOptions,
  vaBadge,
  type PaymentBreakdown,
  type PaymentMethodType,
  type TenorOption,
} from "~/lib/payment-pricing";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
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
export const GATEWAY_UNAVAILABLE =
  "Pembayaran belum dapat dibuat karena layanan pembayaran sedang gangguan. Silakan coba lagi beberapa saat lagi.";
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

export const GROUPS = ["Virtual Account", "Manual", "Cicilan", "Lainnya"] as const;
export type PaymentGroupName = (typeof GROUPS)[number];

export const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
export const statusForType = (type: PaymentMethodType) => PAYMENT_KINDS[type].statusAfterChoice;

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

function choiceOf(method: MethodRow, amount: number, discountPercent: number): PaymentMethodChoice {
  const breakdown = paymentBreakdown(method.type, amount, method.fee, 0, discountPercent);
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
    needsTenor: PAYMENT_KINDS[method.type].tenor,
    additionalData: { fee: method.fee, applyUrl: method.applyUrl },
  };
}

/** An active method buyers may choose: a manual transfer only once the store has its real account (production). */
export async function activeMethod(paymentMethodId: unknown): Promise<MethodRow | null> {
  const id = typeof paymentMethodId === "string" ? Number(paymentMethodId) : paymentMethodId;
  if (!isId(id)) return null;
  const db = await getDb();
  const [method] = await db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.active, true)));
  if (method?.type === "bank_transfer" && !(await manualTransferReady(db))) return null;
  return method ?? null;
}

/** Spec §7 payment/methods: the active methods in their four groups, each with its total for `amount`. */
export async function listPaymentMethods(amount: number): Promise<PaymentMethodGroup[]> {
  const db = await getDb();
  const [methods, discountPercent, manualReady] = await Promise.all([
    db.select().from(paymentMethods).where(eq(paymentMethods.active, true)).orderBy(asc(paymentMethods.position), asc(paymentMethods.id)),
    vaDiscountPercent(db),
    manualTransferReady(db),
  ]);
  return GROUPS.map((name) => ({
    name,
    // The badge follows the admin's discount ('-3% Diskon Pembelian Tunai' at the spec's 3%); none when it is off.
    badge: name === "Virtual Account" && discountPercent > 0 ? vaBadge(discountPercent) : null,
    methods: methods
      .filter((m) => m.groupName === name && (m.type !== "bank_transfer" || manualReady))
      .map((m) => choiceOf(m, amount, discountPercent)),
  })).filter((group) => group.methods.length > 0);
}

/** Spec §7 payment/installment: the tenors of an instalment method for `amount`; null for any other method. */
export async function listTenorOptions(amount: number, paymentMethodId: number): Promise<TenorOption[] | null> {
  const method = await activeMethod(paymentMethodId);
  if (!method || !PAYMENT_KINDS[method.type].tenor) return null;
  return tenorOptions(amount, method.fee, method.applyUrl, await getTenorSettings());
}

export type ChoiceCheck =
  { ok: true; method: PaymentMethodChoice; tenor: TenorOption | null } | { ok: false; field: "paymentMethodId" | "tenor"; message: string };

/**
 * A posted choice checked against the reference data: the method exists and is active; an
 * instalment method has one of its tenors ('Tenor wajib dipilih'); other methods carry no tenor.
 */
export async function checkPaymentChoice(
  amount: number,
  paymentMethodId: unknown,
  tenor: unknown,
  options: { requireTenor: boolean } = { requireTenor: true },
): Promise<ChoiceCheck> {
  if (paymentMethodId === null || paymentMethodId === undefined || paymentMethodId === "")
    return { ok: false, field: "paymentMethodId", message: METHOD_REQUIRED };
  const method = await activeMethod(paymentMethodId);
  if (!method) return { ok: false, field: "paymentMethodId", message: METHOD_UNKNOWN };
  const choice = choiceOf(method, amount, await vaDiscountPercent());
  if (!PAYMENT_KINDS[method.type].tenor) return { ok: true, method: choice, tenor: null };
  const months = typeof tenor === "string" && tenor.trim() !== "" ? Number(tenor) : tenor;
  const tenors = await getTenorSettings();
  if (!isTenor(months, tenors))
    return options.requireTenor ? { ok: false, field: "tenor", message: TENOR_REQUIRED } : { ok: true, method: choice, tenor: null };
  const option = tenorOptions(amount, method.fee, method.applyUrl, tenors).find((o) => o.tenor === months)!;
  return { ok: true, method: choice, tenor: option };
}
