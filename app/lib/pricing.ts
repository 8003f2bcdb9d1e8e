// Prices (spec §9 "Price after discount"). Runs on both sides: the card, the detail page and the
// checkout show the same numbers the server charges. Amounts are whole rupiah; every percentage step
// is rounded to a whole rupiah, and no step goes below 0.

export type DiscountType = "v" | "%";
/** A discount as the spec stores it: 'v' a fixed value in rupiah, '%' a percentage. */
export type Discount = { discount: number; discountType: DiscountType };

const clampPercent = (percent: number) => Math.min(100, Math.max(0, percent));
const nonNegative = (amount: number) => (Number.isFinite(amount) && amount > 0 ? amount : 0);

/** `amount` minus `percent`% of it, the cut rounded to whole rupiah. */
export function takePercent(amount: number, percent: number): number {
  const base = Math.round(nonNegative(amount));
  return base - Math.round((base * clampPercent(nonNegative(percent))) / 100);
}

/**
 * The price after the product's own discount (what the card, sort and price filters use).
 * The SQL in app/.server/store/catalogue/catalogue.ts (`discountedPriceSql`) computes the same number.
 */
export function applyDiscount(price: number, { discount, discountType }: Discount): number {
  const base = Math.round(nonNegative(price));
  if (discountType === "%") return takePercent(base, discount);
  return Math.max(0, base - Math.round(nonNegative(discount)));
}

export type PriceInput = Discount & { price: number; promos?: readonly Discount[]; quantity?: number };

/**
 * Spec §9: apply the product's own discount (percent or fixed value); subtract each promo's fixed
 * values; take each promo's percentages off the running total; multiply by quantity.
 */
export function priceAfterDiscount({ price, discount, discountType, promos = [], quantity = 1 }: PriceInput): number {
  let unit = applyDiscount(price, { discount, discountType });
  for (const promo of promos) if (promo.discountType === "v") unit = Math.max(0, unit - Math.round(nonNegative(promo.discount)));
  for (const promo of promos) if (promo.discountType === "%") unit = takePercent(unit, promo.discount);
  return unit * Math.max(0, Math.trunc(quantity));
}

/** The rupiah a promo takes off at its step of the calculation, for price breakdowns. */
export function priceBreakdown(input: PriceInput) {
  const quantity = Math.max(0, Math.trunc(input.quantity ?? 1));
  const original = Math.round(nonNegative(input.price));
  const afterOwnDiscount = applyDiscount(original, input);
  const total = priceAfterDiscount(input);
  return {
    original: original * quantity,
    productDiscount: (original - afterOwnDiscount) * quantity,
    promoDiscount: afterOwnDiscount * quantity - total,
    total,
  };
}

/** True when the product's own discount changes its price (the card then strikes the original through). */
export function isDiscounted(price: number | null, own: Discount): price is number {
  return price !== null && applyDiscount(price, own) < Math.round(nonNegative(price));
}

// ---------------------------------------------------------------------------------------------
// Checkout (spec §3 "Order product", §4 "Checkout flow", §9). Ordinary promos always apply; the
// government incentive and the employee promo only when the buyer applied for them and was accepted.

/** The fixed amount of the employee promo (spec §6, §9: 'pln' badge). */
export const EMPLOYEE_PROMO_AMOUNT = 1_000_000;

export type CheckoutPromoKind = "ordinary" | "incentive" | "employee";
export type CheckoutPromo = Discount & { id: number; title: string; kind: CheckoutPromoKind };
export type CheckoutPricingInput = Discount & { price: number; promos: CheckoutPromo[] };
export type CheckoutPricing = {
  /** List price. */
  priceOri: number;
  /** The product's own discount, in rupiah. */
  productDiscount: number;
  /** Ordinary promos (always applied): rupiah each takes off. */
  promoLines: { title: string; amount: number }[];
  /** 'Insentif Pemerintah', 0 unless applied. */
  insentifValue: number;
  /** 'Promo Pegawai', 0 unless applied. */
  promoPegawaiValue: number;
  /** After the own discount and the ordinary promos (shown as the product price). */
  price: number;
  /** What is to be paid for the goods. */
  total: number;
};

/**
 * Which kind a promo is: the incentive flag marks the government incentive; a fixed 1,000,000 is the
 * employee promo (spec §6); everything else (the 250,000 'icp' included) is ordinary.
 */
export function promoKind(promo: Discount & { incentive: boolean | number }): CheckoutPromoKind {
  if (promo.incentive === true || promo.incentive === 1) return "incentive";
  if (promo.discountType === "v" && promo.discount === EMPLOYEE_PROMO_AMOUNT) return "employee";
  return "ordinary";
}

/**
 * The checkout's price breakdown. The product price follows spec §9 with the ordinary promos (own
 * discount, then every fixed promo, then every percentage on the running total). The government
 * incentive and the employee promo come off that price afterwards, only when applied, so the shown
 * product price does not change when a box is ticked. Nothing goes below 0.
 */
export function checkoutPricing(input: CheckoutPricingInput, applied: { insentif: boolean; promoPegawai: boolean }): CheckoutPricing {
  const priceOri = Math.round(nonNegative(input.price));
  const afterOwn = applyDiscount(priceOri, input);
  const ordinary = input.promos.filter((p) => p.kind === "ordinary");
  const promoLines: CheckoutPricing["promoLines"] = [];
  let price = afterOwn;
  for (const promo of ordinary.filter((p) => p.discountType === "v")) {
    const next = Math.max(0, price - Math.round(nonNegative(promo.discount)));
    promoLines.push({ title: promo.title, amount: price - next });
    price = next;
  }
  for (const promo of ordinary.filter((p) => p.discountType === "%")) {
    const next = takePercent(price, promo.discount);
    promoLines.push({ title: promo.title, amount: price - next });
    price = next;
  }
  let total = price;
  /** Takes the first promo of `kind` off the running total; the rupiah actually taken off. */
  const take = (kind: CheckoutPromoKind) => {
    const promo = input.promos.find((p) => p.kind === kind);
    if (!promo) return 0;
    const next =
      promo.discountType === "%" ? takePercent(total, promo.discount) : Math.max(0, total - Math.round(nonNegative(promo.discount)));
    const amount = total - next;
    total = next;
    return amount;
  };
  const insentifValue = applied.insentif ? take("incentive") : 0;
  const promoPegawaiValue = applied.promoPegawai ? take("employee") : 0;
  return { priceOri, productDiscount: priceOri - afterOwn, promoLines, insentifValue, promoPegawaiValue, price, total };
}
