import { describe, expect, it } from "vitest";
import {
  applyDiscount,
  checkoutPricing,
  isDiscounted,
  priceAfterDiscount,
  priceBreakdown,
  promoKind,
  takePercent,
  type CheckoutPricingInput,
} from "./pricing";

describe("applyDiscount (the product's own discount)", () => {
  it("takes a percentage off, rounded to whole rupiah", () => {
    expect(applyDiscount(28_500_000, { discount: 5, discountType: "%" })).toBe(27_075_000);
    expect(applyDiscount(1_299_000, { discount: 20, discountType: "%" })).toBe(1_039_200);
    // 12,345 × 15% = 1,851.75 → 1,852 off
    expect(applyDiscount(12_345, { discount: 15, discountType: "%" })).toBe(10_493);
    // exactly half a rupiah rounds the cut up (the buyer's favour), as PostgreSQL's round() does
    expect(applyDiscount(1, { discount: 50, discountType: "%" })).toBe(0);
    expect(applyDiscount(3, { discount: 50, discountType: "%" })).toBe(1);
  });

  it("takes a fixed value off", () => {
    expect(applyDiscount(17_900_000, { discount: 1_500_000, discountType: "v" })).toBe(16_400_000);
  });

  it("never goes below 0 nor above the price", () => {
    expect(applyDiscount(500_000, { discount: 100, discountType: "%" })).toBe(0);
    expect(applyDiscount(500_000, { discount: 150, discountType: "%" })).toBe(0);
    expect(applyDiscount(500_000, { discount: 900_000, discountType: "v" })).toBe(0);
    expect(applyDiscount(500_000, { discount: -10, discountType: "%" })).toBe(500_000);
    expect(applyDiscount(500_000, { discount: -10_000, discountType: "v" })).toBe(500_000);
    expect(applyDiscount(500_000, { discount: 0, discountType: "v" })).toBe(500_000);
  });
});

describe("priceAfterDiscount (spec §9)", () => {
  const employee = { discount: 1_000_000, discountType: "v" as const };
  const icp = { discount: 250_000, discountType: "v" as const };
  const yearEnd = { discount: 5, discountType: "%" as const };

  it("applies own discount, then every fixed promo, then every percentage promo on the running total", () => {
    // 42,000,000 − 2,000,000 = 40,000,000; − 1,000,000 − 250,000 = 38,750,000; − 5% = 36,812,500
    expect(priceAfterDiscount({ price: 42_000_000, discount: 2_000_000, discountType: "v", promos: [yearEnd, employee, icp] })).toBe(
      36_812_500,
    );
  });

  it("takes two percentages one after the other, not added up", () => {
    const tenPercent = { discount: 10, discountType: "%" as const };
    // 1,000,000 − 10% = 900,000 − 10% = 810,000 (not 800,000)
    expect(priceAfterDiscount({ price: 1_000_000, discount: 0, discountType: "v", promos: [tenPercent, tenPercent] })).toBe(810_000);
  });

  it("rounds each percentage step to whole rupiah", () => {
    const odd = { discount: 7, discountType: "%" as const };
    // 99,999 − 7% (6,999.93 → 7,000) = 92,999; − 7% (6,509.93 → 6,510) = 86,489
    expect(priceAfterDiscount({ price: 99_999, discount: 0, discountType: "v", promos: [odd, odd] })).toBe(86_489);
    expect(Number.isInteger(priceAfterDiscount({ price: 33_333, discount: 33, discountType: "%", promos: [odd] }))).toBe(true);
  });

  it("multiplies by quantity after the discounts", () => {
    expect(priceAfterDiscount({ price: 459_000, discount: 25, discountType: "%", quantity: 2 })).toBe(688_500);
    expect(priceAfterDiscount({ price: 459_000, discount: 25, discountType: "%", quantity: 0 })).toBe(0);
  });

  it("never goes below 0 when promos exceed the price", () => {
    expect(priceAfterDiscount({ price: 800_000, discount: 0, discountType: "v", promos: [employee, yearEnd] })).toBe(0);
    expect(priceAfterDiscount({ price: 800_000, discount: 100, discountType: "%", promos: [icp] })).toBe(0);
  });

  it("treats broken numbers as no amount instead of NaN", () => {
    expect(priceAfterDiscount({ price: Number.NaN, discount: 5, discountType: "%" })).toBe(0);
    expect(priceAfterDiscount({ price: 10_000, discount: Number.NaN, discountType: "v" })).toBe(10_000);
    expect(takePercent(10_000, Number.POSITIVE_INFINITY)).toBe(10_000);
  });
});

describe("priceBreakdown and isDiscounted", () => {
  it("splits the saving into the product's own discount and the promos", () => {
    const b = priceBreakdown({
      price: 2_000_000,
      discount: 10,
      discountType: "%",
      promos: [{ discount: 250_000, discountType: "v" }],
      quantity: 2,
    });
    expect(b).toEqual({ original: 4_000_000, productDiscount: 400_000, promoDiscount: 500_000, total: 3_100_000 });
    expect(b.original - b.productDiscount - b.promoDiscount).toBe(b.total);
  });

  it("is discounted only when the own discount lowers a known price", () => {
    expect(isDiscounted(100_000, { discount: 10, discountType: "%" })).toBe(true);
    expect(isDiscounted(100_000, { discount: 0, discountType: "%" })).toBe(false);
    expect(isDiscounted(null, { discount: 10, discountType: "%" })).toBe(false);
    expect(isDiscounted(0, { discount: 10, discountType: "v" })).toBe(false);
  });
});

describe("checkoutPricing (the checkout's breakdown)", () => {
  // Gesits G1 as the demo seeds it: 28,500,000 − 5%, promos pln (employee), icp (ordinary), pemerintah (incentive).
  const gesits: CheckoutPricingInput = {
    price: 28_500_000,
    discount: 5,
    discountType: "%",
    promos: [
      { id: 1, title: "Promo Pegawai PLN Group", discount: 1_000_000, discountType: "v", kind: "employee" },
      { id: 2, title: "Insentif Cashback PLN (ICP)", discount: 250_000, discountType: "v", kind: "ordinary" },
      { id: 3, title: "Insentif Pemerintah Kendaraan Listrik", discount: 7_000_000, discountType: "v", kind: "incentive" },
    ],
  };

  it("always applies ordinary promos, and neither incentive nor employee promo unless applied", () => {
    const pricing = checkoutPricing(gesits, { insentif: false, promoPegawai: false });
    expect(pricing).toEqual({
      priceOri: 28_500_000,
      productDiscount: 1_425_000,
      promoLines: [{ title: "Insentif Cashback PLN (ICP)", amount: 250_000 }],
      insentifValue: 0,
      promoPegawaiValue: 0,
      price: 26_825_000,
      total: 26_825_000,
    });
  });

  it("takes the government incentive off the total when applied", () => {
    const pricing = checkoutPricing(gesits, { insentif: true, promoPegawai: false });
    expect(pricing.insentifValue).toBe(7_000_000);
    expect(pricing.promoPegawaiValue).toBe(0);
    expect(pricing.price).toBe(26_825_000);
    expect(pricing.total).toBe(19_825_000);
  });

  it("takes the employee promo off when applied, also together with the incentive", () => {
    expect(checkoutPricing(gesits, { insentif: false, promoPegawai: true }).total).toBe(25_825_000);
    const both = checkoutPricing(gesits, { insentif: true, promoPegawai: true });
    expect([both.insentifValue, both.promoPegawaiValue, both.total]).toEqual([7_000_000, 1_000_000, 18_825_000]);
  });

  it("applies ordinary fixed promos before ordinary percentages, each line saying what it took off", () => {
    const pricing = checkoutPricing(
      {
        price: 1_000_000,
        discount: 0,
        discountType: "v",
        promos: [
          { id: 1, title: "Diskon Akhir Tahun", discount: 5, discountType: "%", kind: "ordinary" },
          { id: 2, title: "Cashback", discount: 100_000, discountType: "v", kind: "ordinary" },
        ],
      },
      { insentif: false, promoPegawai: false },
    );
    expect(pricing.promoLines).toEqual([
      { title: "Cashback", amount: 100_000 },
      { title: "Diskon Akhir Tahun", amount: 45_000 },
    ]);
    expect(pricing.total).toBe(855_000);
  });

  it("ignores an applied flag when the product has no such promo, and never goes below 0", () => {
    const cheap: CheckoutPricingInput = {
      price: 500_000,
      discount: 0,
      discountType: "v",
      promos: [{ id: 9, title: "Promo Pegawai", discount: 1_000_000, discountType: "v", kind: "employee" }],
    };
    const pricing = checkoutPricing(cheap, { insentif: true, promoPegawai: true });
    expect([pricing.insentifValue, pricing.promoPegawaiValue, pricing.total]).toEqual([0, 500_000, 0]);
  });
});

describe("promoKind", () => {
  it("reads the incentive flag, the fixed 1,000,000 employee amount, and calls the rest ordinary", () => {
    expect(promoKind({ discount: 7_000_000, discountType: "v", incentive: 1 })).toBe("incentive");
    expect(promoKind({ discount: 1_000_000, discountType: "v", incentive: 0 })).toBe("employee");
    expect(promoKind({ discount: 250_000, discountType: "v", incentive: false })).toBe("ordinary");
    expect(promoKind({ discount: 1_000_000, discountType: "%", incentive: 0 })).toBe("ordinary");
  });
});
