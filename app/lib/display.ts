// Spec §5 display rules, shared by the card, the detail page and the order screens.

/** Default truncation (spec §9): 20 characters; order product titles use 50. */
export const TITLE_LENGTH = 20;
export const ORDER_TITLE_LENGTH = 50;

/** The text cut to `max` characters with an ellipsis ('…' counts as one of them). */
export function truncate(text: string, max = TITLE_LENGTH): string {
  const chars = Array.from(text); // by code point: never splits an emoji or a surrogate pair
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join("")
    .trimEnd()}…`;
}

/** The title, '-' when absent or blank. */
export function displayTitle(title: string | null | undefined, max?: number): string {
  const text = title?.trim();
  if (!text) return "-";
  return max === undefined ? text : truncate(text, max);
}

/** Rating 0-100 (clamped) → 0-5 with one decimal; null when there is no rating. */
export function ratingOutOfFive(ratingPercentage: number | null | undefined): number | null {
  if (ratingPercentage === null || ratingPercentage === undefined || !Number.isFinite(ratingPercentage)) return null;
  const clamped = Math.min(100, Math.max(0, ratingPercentage));
  return Math.round(clamped / 2) / 10;
}

/** '4,5' (Indonesian decimal comma). */
export function formatRating(ratingPercentage: number | null | undefined): string | null {
  const rating = ratingOutOfFive(ratingPercentage);
  return rating === null ? null : rating.toFixed(1).replace(".", ",");
}

/** Rating out of 100 as the detail page prints it ('90/100'), null without a rating. */
export function ratingOutOfHundred(ratingPercentage: number | null | undefined): number | null {
  if (ratingPercentage === null || ratingPercentage === undefined || !Number.isFinite(ratingPercentage)) return null;
  return Math.round(Math.min(100, Math.max(0, ratingPercentage)));
}

/** Grams → kilograms (spec §9), at most 2 decimals, Indonesian comma: 1500 → '1,5 kg'. */
export function formatWeight(weightGram: number | null | undefined): string {
  if (weightGram === null || weightGram === undefined || !Number.isFinite(weightGram) || weightGram < 0) return "-";
  const kg = Math.round(weightGram / 10) / 100;
  return `${groupThousands(kg)} kg`;
}

/** Whole numbers with '.' thousands ('1.234 terjual'), decimals with ','. */
export function formatCount(n: number): string {
  return groupThousands(n);
}

function groupThousands(n: number): string {
  const [whole, fraction] = String(n).split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return fraction ? `${grouped},${fraction}` : grouped;
}
