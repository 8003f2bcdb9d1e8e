import { formatRupiah } from "~/lib/money";

type PromoLike = { discount: number; discountType: "v" | "%"; incentive?: boolean };

/** Spec §9 incentive amounts: the employee promo (badge 'pln') and 'icp'. */
export const EMPLOYEE_PROMO_AMOUNT = 1_000_000;
export const ICP_PROMO_AMOUNT = 250_000;

export type IncentiveBadge = "pln" | "icp" | "insentif";

/**
 * The badges of a product's promos: 'pln' for the fixed 1,000,000 employee promo, 'icp' for the
 * fixed 250,000 promo, 'insentif' for the government incentive (the promo's incentive flag).
 */
export function incentiveBadges(promos: readonly PromoLike[]): IncentiveBadge[] {
  const fixed = (amount: number) => promos.some((p) => p.discountType === "v" && p.discount === amount);
  const badges: IncentiveBadge[] = [];
  if (fixed(EMPLOYEE_PROMO_AMOUNT)) badges.push("pln");
  if (fixed(ICP_PROMO_AMOUNT)) badges.push("icp");
  if (promos.some((p) => p.incentive)) badges.push("insentif");
  return badges;
}

/**
 * Spec §9: the two fixed amounts and the incentive flag select one of seven artworks and badge
 * colours. The three facts make a 3-bit number (pln = 1, icp = 2, insentif = 4); 0 shows no block:
 *
 *   1 pln                    "Harga Khusus Pegawai"     PLN blue
 *   2 icp                    "Cashback ICP"             green
 *   3 pln + icp              "Pegawai + ICP"            blue → green
 *   4 insentif               "Insentif Pemerintah"      orange
 *   5 pln + insentif         "Insentif + Pegawai"       orange → blue
 *   6 icp + insentif         "Insentif + ICP"           orange → green
 *   7 pln + icp + insentif   "Hemat Maksimal"           gold → blue
 *
 * The artwork is CSS (a gradient and a large lightning mark, classes .incentive-v1 … .incentive-v7),
 * so it costs no download.
 */
export const INCENTIVE_VARIANTS: Record<number, { headline: string }> = {
  1: { headline: "Harga Khusus Pegawai" },
  2: { headline: "Cashback ICP" },
  3: { headline: "Pegawai + ICP" },
  4: { headline: "Insentif Pemerintah" },
  5: { headline: "Insentif + Pegawai" },
  6: { headline: "Insentif + ICP" },
  7: { headline: "Hemat Maksimal" },
};

export function incentiveVariant(badges: readonly IncentiveBadge[]): number {
  return (badges.includes("pln") ? 1 : 0) + (badges.includes("icp") ? 2 : 0) + (badges.includes("insentif") ? 4 : 0);
}

const BADGE_LABELS: Record<IncentiveBadge, (promos: readonly PromoLike[]) => string> = {
  pln: () => `PLN · Pegawai ${formatRupiah(EMPLOYEE_PROMO_AMOUNT)}`,
  icp: () => `ICP · ${formatRupiah(ICP_PROMO_AMOUNT)}`,
  insentif: (promos) => {
    const amount = promos.find((p) => p.incentive && p.discountType === "v")?.discount;
    return amount ? `Insentif ${formatRupiah(amount)}` : "Insentif Pemerintah";
  },
};

/** Spec §2 detail: the badge block of a product's incentive promos (nothing when it has none). */
export function IncentiveBadges({ promos }: { promos: readonly PromoLike[] }) {
  const badges = incentiveBadges(promos);
  const variant = incentiveVariant(badges);
  if (!variant) return null;
  return (
    <section
      className={`incentive-block incentive-v${variant}`}
      aria-label="Promo insentif"
      data-testid="incentive-badges"
      data-variant={variant}
    >
      <p className="incentive-headline">{INCENTIVE_VARIANTS[variant]!.headline}</p>
      <ul className="incentive-badges">
        {badges.map((badge) => (
          <li key={badge} className={`incentive-badge badge-${badge}`} data-badge={badge}>
            {BADGE_LABELS[badge](promos)}
          </li>
        ))}
      </ul>
    </section>
  );
}
