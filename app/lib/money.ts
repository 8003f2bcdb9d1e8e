// Rupiah without decimals (spec §1, §9). Formatted by hand rather than with Intl, so the server and
// every browser print exactly the same text (ICU data differs between them; hydration must match).

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ".");

/** 1250000 → 'Rp1.250.000'; rounded to whole rupiah; '-Rp5.000' for negative amounts. */
export function formatRupiah(amount: number): string {
  if (!Number.isFinite(amount)) return "-";
  const whole = Math.round(amount);
  const sign = whole < 0 ? "-" : "";
  return `${sign}Rp${groupThousands(String(Math.abs(whole)))}`;
}

/** formatRupiah, or '-' when the price is absent (spec §5 display rules). */
export function formatPrice(amount: number | null | undefined): string {
  return amount === null || amount === undefined || !Number.isFinite(amount) ? "-" : formatRupiah(amount);
}

const UNITS = [
  { size: 1e12, long: "triliun", short: "T" },
  { size: 1e9, long: "miliar", short: "M" },
  { size: 1e6, long: "juta", short: "jt" },
  { size: 1e3, long: "ribu", short: "rb" },
] as const;

/** Cuts (never rounds up: a price must not look higher) to `decimals` places, Indonesian comma. */
function decimalText(value: number, decimals: number) {
  const factor = 10 ** decimals;
  const cut = Math.floor(value * factor + 1e-9) / factor;
  return String(cut).replace(".", ",");
}

function compact(amount: number, style: "long" | "short") {
  if (!Number.isFinite(amount)) return "-";
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(Math.round(amount));
  const unit = UNITS.find((u) => abs >= u.size);
  if (!unit) return `${sign}${abs}`;
  return style === "long"
    ? `${sign}${decimalText(abs / unit.size, 2)} ${unit.long}`
    : `${sign}${decimalText(abs / unit.size, 1)}${unit.short}`;
}

/** Compact long form: 1250000 → '1,25 juta', 25000 → '25 ribu'. */
export const formatCompactLong = (amount: number) => compact(amount, "long");

/** Compact short form: 1250000 → '1,2jt', 2500000000 → '2,5M'. */
export const formatCompactShort = (amount: number) => compact(amount, "short");
