// What each payment method costs (spec §2 Payment method list, Tenor list; §9; DESIGN §6 Payments).
// Runs on both sides, but every amount a page shows comes from the server, which computes it here.
// Whole rupiah throughout; the one percentage step (the VA discount) is rounded to a whole rupiah.
import { formatRupiah } from "./money";
import { PAYMENT_KINDS, type PaymentMethodType } from "./payment-kinds";

export type { PaymentMethodType };

/**
 * The spec's cash discount of the Virtual Account group: a VA total is 3% lower. An admin changes the
 * percentage or turns it off in /ops/settings (issue 38); this is the built-in value.
 */
export const VA_DISCOUNT_PERCENT = 3;

/** A percentage in Indonesian notation: 3 → "3", 2.5 → "2,5". */
export function formatPercent(percent: number): string {
  return String(Math.round(percent * 100) / 100).replace(".", ",");
}

/** The Virtual Account group's badge for a discount percentage: 3 → '-3% Diskon Pembelian Tunai' (the spec's text). */
export function vaBadge(percent: number): string {
  return `-${formatPercent(percent)}% Diskon Pembelian Tunai`;
}
export const VA_BADGE = vaBadge(VA_DISCOUNT_PERCENT);

/** The discount's line in a payment's breakdown: 'Diskon Pembelian Tunai (3%)'. */
export function cashDiscountLine(percent: number): string {
  return `Diskon Pembelian Tunai (${formatPercent(percent)}%)`;
}

/** The 3-digit code added to a manual transfer so the store can tell transfers apart (1–999). */
export const UNIQUE_CODE_MIN = 1;
export const UNIQUE_CODE_MAX = 999;

export type PaymentBreakdown = {
  /** The goods amount (the checkout total). */
  amount: number;
  /** Taken off: the VA cash discount, round(discountPercent% of amount); 0 for the other methods. */
  discount: number;
  /** The cash discount's percentage this total was computed with (0: none). */
  discountPercent: number;
  /** The method's service fee ('Biaya layanan'). */
  fee: number;
  /** Added to a manual transfer once its payment is opened; 0 otherwise. */
  uniqueCode: number;
  /** What the buyer pays: amount − discount + fee + uniqueCode. */
  total: number;
};

const rupiah = (value: number) => (Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/** The VA cash discount on `amount`: `percent` (3 built in), rounded to a whole rupiah (half up). */
export function vaDiscount(amount: number, percent: number = VA_DISCOUNT_PERCENT): number {
  return Math.round((rupiah(amount) * Math.max(0, percent)) / 100);
}

/**
 * The total of a method for a goods amount. VA: amount − round(discount%) + fee; manual transfer:
 * amount + fee (+ the unique code once the payment is opened); instalment and paylater: amount + fee.
 * `vaDiscountPercent` is the store's setting (0 when the admin turned the discount off).
 */
export function paymentBreakdown(
  type: PaymentMethodType,
  amount: number,
  fee: number,
  uniqueCode = 0,
  vaDiscountPercent: number = VA_DISCOUNT_PERCENT,
): PaymentBreakdown {
  const base = rupiah(amount);
  const discountPercent = PAYMENT_KINDS[type].cashDiscount ? Math.max(0, vaDiscountPercent) : 0;
  const discount = vaDiscount(base, discountPercent);
  const code = PAYMENT_KINDS[type].transferProof ? rupiah(uniqueCode) : 0;
  const serviceFee = rupiah(fee);
  return { amount: base, discount, discountPercent, fee: serviceFee, uniqueCode: code, total: base - discount + serviceFee + code };
}

/** The fee the method list shows: the instalment fee is shown as Rp 0 (spec §2), it is charged per tenor. */
export function listedFee(type: PaymentMethodType, fee: number): number {
  return PAYMENT_KINDS[type].listedFee === "zero" ? 0 : rupiah(fee);
}

/** A tenor an instalment method offers: months and the flat interest over the whole tenor. */
export type TenorSetting = { tenor: number; interestPercentage: number };

/**
 * BNI-INSTALLMENT tenors and their flat interest over the whole tenor (decision 0020): the defaults
 * the settings are seeded with; an admin changes them in /ops/settings (issue 27). The interest is
 * the card issuer's: the store receives amount + fee; the buyer pays the issuer `totalPayment` in
 * `tenor` monthly instalments.
 */
export const TENORS: readonly TenorSetting[] = [
  { tenor: 3, interestPercentage: 0 },
  { tenor: 6, interestPercentage: 3 },
  { tenor: 12, interestPercentage: 6 },
];

export type Tenor = number;

export const isTenor = (value: unknown, tenors: readonly TenorSetting[] = TENORS): value is Tenor => tenors.some((t) => t.tenor === value);

export type TenorOption = {
  id: number;
  tenor: Tenor;
  interestPercentage: number;
  /** '{tenor}x Cicilan {interestPercentage}%' */
  label: string;
  /** The monthly instalment (the spec's allMount, also perMonth): totalPayment / tenor, rounded up. */
  allMount: number;
  perMonth: number;
  /** What the buyer pays over the whole tenor: base + round(base × interest%), base = amount + fee. */
  totalPayment: number;
  /** What the store is paid for the order (amount + fee). */
  orderTotal: number;
  additionalData: { fee: number; applyUrl: string | null };
};

export function tenorLabel(tenor: number, interestPercentage: number): string {
  return `${tenor}x Cicilan ${interestPercentage}%`;
}

/** The tenor options for a goods amount and the instalment method's fee and card-apply link. */
export function tenorOptions(
  amount: number,
  fee: number,
  applyUrl: string | null = null,
  tenors: readonly TenorSetting[] = TENORS,
): TenorOption[] {
  const base = rupiah(amount) + rupiah(fee);
  return tenors.map(({ tenor, interestPercentage }, index) => {
    const id = index + 1;
    const totalPayment = base + Math.round((base * interestPercentage) / 100);
    // Rounded up so that `tenor` instalments never pay less than the total (the last one is smaller).
    const perMonth = Math.ceil(totalPayment / tenor);
    return {
      id,
      tenor,
      interestPercentage,
      label: tenorLabel(tenor, interestPercentage),
      allMount: perMonth,
      perMonth,
      totalPayment,
      orderTotal: base,
      additionalData: { fee: rupiah(fee), applyUrl },
    };
  });
}

/**
 * A manual-transfer total split for display: the last 3 digits (where the unique code shows) are
 * highlighted in a <mark>, the rest is plain; both in the Indonesian digit grouping.
 * 28,500,123 → { head: "Rp28.500.", tail: "123" } (formatRupiah's format).
 */
export function splitLastThreeDigits(total: number): { head: string; tail: string } {
  const whole = rupiah(total);
  const formatted = formatRupiah(whole);
  const tailLength = Math.min(3, String(whole).length);
  return { head: formatted.slice(0, -tailLength), tail: formatted.slice(-tailLength) };
}
