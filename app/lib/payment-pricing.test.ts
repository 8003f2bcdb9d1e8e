import { describe, expect, it } from "vitest";
import { listedFee, paymentBreakdown, splitLastThreeDigits, tenorLabel, tenorOptions, vaDiscount } from "./payment-pricing";

describe("payment totals", () => {
  it("takes 3% off a virtual-account total, rounded to a whole rupiah, then adds the fee", () => {
    expect(vaDiscount(28_500_000)).toBe(855_000);
    expect(paymentBreakdown("virtual_account", 28_500_000, 4_000)).toEqual({
      amount: 28_500_000,
      discount: 855_000,
      discountPercent: 3,
      fee: 4_000,
      uniqueCode: 0,
      total: 27_649_000,
    });
    // 3% of 1,234,567 is 37,037.01 → 37,037; of 50 it is 1.5 → 2 (half up).
    expect(paymentBreakdown("virtual_account", 1_234_567, 4_000).total).toBe(1_234_567 - 37_037 + 4_000);
    expect(vaDiscount(50)).toBe(2);
  });

  it("takes the store's own cash discount (issue 38): another percentage, or none when it is off", () => {
    expect(paymentBreakdown("virtual_account", 1_000_000, 4_000, 0, 2.5)).toMatchObject({
      discount: 25_000,
      discountPercent: 2.5,
      total: 979_000,
    });
    expect(paymentBreakdown("virtual_account", 1_000_000, 4_000, 0, 0)).toMatchObject({ discount: 0, total: 1_004_000 });
    // Never on the other kinds, whatever the setting.
    expect(paymentBreakdown("bank_transfer", 1_000_000, 0, 5, 2.5)).toMatchObject({ discount: 0, total: 1_000_005 });
  });

  it("adds the fee and, once opened, the unique code to a manual transfer; no discount", () => {
    expect(paymentBreakdown("bank_transfer", 8_750_000, 0)).toMatchObject({ discount: 0, uniqueCode: 0, total: 8_750_000 });
    expect(paymentBreakdown("bank_transfer", 8_750_000, 2_500, 417)).toEqual({
      amount: 8_750_000,
      discount: 0,
      discountPercent: 0,
      fee: 2_500,
      uniqueCode: 417,
      total: 8_752_917,
    });
  });

  it("charges instalment and paylater amount + fee, and never a unique code", () => {
    expect(paymentBreakdown("installment", 15_000_000, 50_000, 123).total).toBe(15_050_000);
    expect(paymentBreakdown("paylater", 3_499_000, 5_000).total).toBe(3_504_000);
  });

  it("never goes negative or fractional on bad input", () => {
    expect(paymentBreakdown("virtual_account", -10, -5).total).toBe(0);
    expect(paymentBreakdown("bank_transfer", 1000.6, Number.NaN).total).toBe(1001);
  });

  it("lists the instalment fee as Rp 0 and the other fees as they are", () => {
    expect(listedFee("installment", 50_000)).toBe(0);
    expect(listedFee("virtual_account", 4_000)).toBe(4_000);
  });
});

describe("tenor options", () => {
  it("offers 3, 6 and 12 months labelled '{tenor}x Cicilan {interest}%'", () => {
    const options = tenorOptions(12_000_000, 0, "https://example.test/apply");
    expect(options.map((o) => o.label)).toEqual(["3x Cicilan 0%", "6x Cicilan 3%", "12x Cicilan 6%"]);
    expect(tenorLabel(6, 3)).toBe("6x Cicilan 3%");
    expect(options.every((o) => o.additionalData.applyUrl === "https://example.test/apply")).toBe(true);
  });

  it("adds the flat interest to amount + fee and divides it into monthly amounts, rounded up", () => {
    const [three, six, twelve] = tenorOptions(12_000_000, 0);
    expect(three).toMatchObject({ totalPayment: 12_000_000, allMount: 4_000_000, perMonth: 4_000_000, orderTotal: 12_000_000 });
    expect(six).toMatchObject({ totalPayment: 12_360_000, allMount: 2_060_000 });
    expect(twelve).toMatchObject({ totalPayment: 12_720_000, allMount: 1_060_000 });

    // 10,000,001 + fee 50,000 = 10,050,001; 6%: 603,000.06 → 603,000; /12 = 887,750.08… → 887,751.
    const odd = tenorOptions(10_000_001, 50_000)[2]!;
    expect(odd.orderTotal).toBe(10_050_001);
    expect(odd.totalPayment).toBe(10_653_001);
    expect(odd.perMonth).toBe(887_751);
    expect(odd.perMonth * 12).toBeGreaterThanOrEqual(odd.totalPayment);
    expect(odd.perMonth * 11).toBeLessThan(odd.totalPayment);
  });
});

describe("splitLastThreeDigits", () => {
  it("separates the last three digits for the <mark>", () => {
    expect(splitLastThreeDigits(28_500_123)).toEqual({ head: "Rp28.500.", tail: "123" });
    expect(splitLastThreeDigits(7)).toEqual({ head: "Rp", tail: "7" });
  });
});
