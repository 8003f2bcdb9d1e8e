import { describe, expect, it } from "vitest";
import { INCENTIVE_VARIANTS, incentiveBadges, incentiveVariant } from "./incentive-badges";

const pln = { discount: 1_000_000, discountType: "v" as const };
const icp = { discount: 250_000, discountType: "v" as const };
const government = { discount: 7_000_000, discountType: "v" as const, incentive: true };
const ordinary = { discount: 5, discountType: "%" as const };

describe("incentive badges (spec §9)", () => {
  it("knows the employee promo and icp by their fixed amounts, the government incentive by its flag", () => {
    expect(incentiveBadges([ordinary, icp, pln, government])).toEqual(["pln", "icp", "insentif"]);
    expect(incentiveBadges([ordinary])).toEqual([]);
    // The same amounts as percentages are not the incentive promos.
    expect(
      incentiveBadges([
        { discount: 1_000_000, discountType: "%" },
        { discount: 250_000, discountType: "%" },
      ]),
    ).toEqual([]);
  });

  it("selects one of seven artworks, one for each combination", () => {
    const combos = [[pln], [icp], [pln, icp], [government], [pln, government], [icp, government], [pln, icp, government]];
    const variants = combos.map((promos) => incentiveVariant(incentiveBadges(promos)));
    expect(variants).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(Object.keys(INCENTIVE_VARIANTS)).toHaveLength(7);
    expect(incentiveVariant(incentiveBadges([ordinary]))).toBe(0);
  });
});
