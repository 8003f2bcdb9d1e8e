import { and, asc, eq } from "drizzle-orm";
import { csvSafeCell } from "../../csv";
import { getDb } from "../../db/client";
import { orders, refunds } from "../../db/schema";

// The refunds waiting for finance's bank transfer, as CSV for the bank's bulk transfer (issue 36
// item 4): bank, account, holder, amount, and a reference naming the refund and its invoice. Cells
// that a spreadsheet would run as a formula are quoted (csvSafeCell), like every export.

const HEADER = ["Nama Bank", "Nomor Rekening", "Nama Pemilik Rekening", "Jumlah", "Referensi"];

const cell = (value: string) => {
  const safe = csvSafeCell(value);
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export async function exportTransferRefundsCsv(): Promise<string> {
  const db = await getDb();
  const rows = await db
    .select({
      id: refunds.id,
      bankName: refunds.bankName,
      accountNumber: refunds.accountNumber,
      accountHolder: refunds.accountHolder,
      amount: refunds.amount,
      invoiceId: orders.invoiceId,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.state, "processing"), eq(refunds.method, "transfer")))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
  const lines = [HEADER.join(",")];
  for (const r of rows)
    lines.push(
      [r.bankName ?? "", r.accountNumber ?? "", r.accountHolder ?? "", String(r.amount), `REFUND-${r.id} ${r.invoiceId}`]
        .map(cell)
        .join(","),
    );
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
