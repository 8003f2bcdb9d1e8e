import { formatWhen } from "~/.server/store/back-office";
import type { RefundState } from "~/lib/refunds";
import { formatRupiah } from "~/lib/money";

// /ops/refunds' line on each refund's money (routes/ops/refunds.tsx), worked out in its loader.

/**
 * Where a refund's money stands against the bank statement (issue 45 item 2): a manual transfer
 * waits for finance's 'Konfirmasi Dana'; a confirmed one says who saw how much, when; every other
 * refund's money was recorded by the event itself (a settlement, a verified proof, an over-payment).
 */
export function fundsLine(r: {
  state: RefundState;
  amount: number;
  expectedAmount: number | null;
  fundsConfirmedAt: Date | null;
  fundsConfirmedBy: string | null;
  fundsNote: string | null;
}): string {
  const expected = r.expectedAmount !== null ? ` (diharapkan ${formatRupiah(r.expectedAmount)})` : "";
  if (r.state === "awaiting-funds") return `Belum dikonfirmasi: cek mutasi rekening toko${expected}.`;
  const by = r.fundsConfirmedBy === "ops" ? "CLI" : (r.fundsConfirmedBy ?? "").replace("operator:", "operator #");
  if (r.fundsConfirmedAt && r.state === "not-received")
    return `Dana tidak diterima, dikonfirmasi ${formatWhen(r.fundsConfirmedAt)} oleh ${by}${r.fundsNote ? `: ${r.fundsNote}` : ""}.`;
  if (r.fundsConfirmedAt)
    return `Dana masuk ${formatRupiah(r.amount)}${expected}, dikonfirmasi ${formatWhen(r.fundsConfirmedAt)} oleh ${by}.`;
  return "Dana tercatat diterima saat pembayaran masuk.";
}
