import { describe, expect, it } from "vitest";
import { formatCompactLong, formatCompactShort, formatPrice, formatRupiah } from "./money";

describe("formatRupiah", () => {
  it.each([
    [1_250_000, "Rp1.250.000"],
    [0, "Rp0"],
    [999, "Rp999"],
    [1_000, "Rp1.000"],
    [782_000_000, "Rp782.000.000"],
    [1_250_000.49, "Rp1.250.000"],
    [1_250_000.5, "Rp1.250.001"],
    [-5_000, "-Rp5.000"],
  ])("%d → %s", (amount, text) => {
    expect(formatRupiah(amount)).toBe(text);
  });

  it("prints '-' for an absent or broken price", () => {
    expect(formatPrice(null)).toBe("-");
    expect(formatPrice(undefined)).toBe("-");
    expect(formatPrice(Number.NaN)).toBe("-");
    expect(formatPrice(0)).toBe("Rp0");
  });
});

describe("compact forms", () => {
  it.each([
    [1_250_000, "1,25 juta", "1,2jt"],
    [1_000_000, "1 juta", "1jt"],
    [25_000, "25 ribu", "25rb"],
    [7_999_999, "7,99 juta", "7,9jt"],
    [2_500_000_000, "2,5 miliar", "2,5M"],
    [3_000_000_000_000, "3 triliun", "3T"],
    [950, "950", "950"],
    [-1_500_000, "-1,5 juta", "-1,5jt"],
  ])("%d → %s / %s", (amount, long, short) => {
    expect(formatCompactLong(amount)).toBe(long);
    expect(formatCompactShort(amount)).toBe(short);
  });

  it("never rounds a price up", () => {
    expect(formatCompactShort(1_999_999)).toBe("1,9jt");
  });
});
