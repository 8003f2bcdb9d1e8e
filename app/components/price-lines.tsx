import { formatRupiah } from "~/lib/money";

// The price lines of the checkout, the order detail and the invoice (issue 34: one component for
// the three): a label and an amount per line, discounts as negative amounts ('-Rp5.000'), totals
// set apart.

export type PriceLine = {
  label: string;
  /** Rupiah (negative for a discount), or a text shown as it is (a method's name, '-'). */
  amount: number | string;
  /** A total: drawn apart from the lines above it. */
  total?: boolean;
  /** The amount's test id (the e2e suites read totals by it). */
  testId?: string;
};

export function PriceLines({ lines, className = "price-lines", testId }: { lines: PriceLine[]; className?: string; testId?: string }) {
  return (
    <dl className={className} data-testid={testId}>
      {lines.map((line, index) => (
        <div key={`${index}-${line.label}`} className={line.total ? "price-total" : undefined}>
          <dt>{line.label}</dt>
          <dd data-testid={line.testId}>{typeof line.amount === "number" ? formatRupiah(line.amount) : line.amount}</dd>
        </div>
      ))}
    </dl>
  );
}
