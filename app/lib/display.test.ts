import { describe, expect, it } from "vitest";
import { displayTitle, formatCount, formatRating, formatWeight, ratingOutOfFive, ratingOutOfHundred, truncate } from "./display";

describe("ratings (spec §5: clamped to 0-100, shown on a 0-5 scale)", () => {
  it.each([
    [92, 4.6],
    [100, 5],
    [0, 0],
    [87, 4.4],
    [150, 5],
    [-20, 0],
  ])("%d → %d", (percent, five) => {
    expect(ratingOutOfFive(percent)).toBe(five);
  });

  it("has no rating when there is none", () => {
    expect(ratingOutOfFive(null)).toBeNull();
    expect(ratingOutOfFive(undefined)).toBeNull();
    expect(ratingOutOfFive(Number.NaN)).toBeNull();
    expect(formatRating(null)).toBeNull();
    expect(ratingOutOfHundred(null)).toBeNull();
  });

  it("prints one decimal with a comma", () => {
    expect(formatRating(92)).toBe("4,6");
    expect(formatRating(100)).toBe("5,0");
    expect(formatRating(0)).toBe("0,0");
    expect(ratingOutOfHundred(130)).toBe(100);
  });
});

describe("titles and truncation", () => {
  it("shows '-' for an absent or blank title", () => {
    expect(displayTitle(null)).toBe("-");
    expect(displayTitle(undefined)).toBe("-");
    expect(displayTitle("   ")).toBe("-");
  });

  it("truncates to 20 characters by default, ellipsis included", () => {
    const cut = displayTitle("Gesits G1 Motor Listrik Nasional", 20);
    expect(cut).toBe("Gesits G1 Motor Lis…");
    expect(Array.from(cut)).toHaveLength(20);
    expect(truncate("Kompor Induksi")).toBe("Kompor Induksi");
    expect(truncate("12345678901234567890")).toBe("12345678901234567890");
    expect(truncate("123456789012345678901")).toBe("1234567890123456789…");
  });

  it("allows 50 characters for order titles and never splits an emoji", () => {
    const long = "Paket PLTS Atap 2 kWp Lengkap dengan Inverter On-Grid dan Pemasangan";
    expect(Array.from(truncate(long, 50))).toHaveLength(50);
    expect(truncate("⚡⚡⚡⚡⚡", 3)).toBe("⚡⚡…");
  });
});

describe("weights and counts", () => {
  it("converts grams to kilograms (spec §9)", () => {
    expect(formatWeight(99_000)).toBe("99 kg");
    expect(formatWeight(1_500)).toBe("1,5 kg");
    expect(formatWeight(300)).toBe("0,3 kg");
    expect(formatWeight(2_100_000)).toBe("2.100 kg");
    expect(formatWeight(19_500)).toBe("19,5 kg");
    expect(formatWeight(1_234)).toBe("1,23 kg");
    expect(formatWeight(0)).toBe("0 kg");
    expect(formatWeight(null)).toBe("-");
  });

  it("groups thousands with a dot", () => {
    expect(formatCount(3_560)).toBe("3.560");
    expect(formatCount(12)).toBe("12");
  });
});
