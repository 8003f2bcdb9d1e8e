import { and, asc, eq } from "drizzle-orm";
import writeXlsxFile from "write-excel-file/node";
import { csvSafeCell } from "../../csv";
import { getDb } from "../../db/client";
import { orders, refunds } from "../../db/schema";

// The refunds waiting for finance's bank transfer, for the bank's bulk transfer (issue 36 item 4):
// bank, account, holder, amount, and a reference naming the refund and its invoice. As CSV (cells
// that a spreadsheet would run as a formula are quoted by csvSafeCell, like every export) and as
// XLSX (issue 43): a spreadsheet opening the CSV reads 002101000123501 as the number 2101000123501
// and drops the zeros; in the XLSX the account number is a text cell, kept digit for digit.

const HEADER = ["Nama Bank", "Nomor Rekening", "Nama Pemilik Rekening", "Jumlah", "Referensi"];

type TransferRow = { bankName: string; accountNumber: string; accountHolder: string; amount: number; reference: string };

async function transferRows(): Promise<TransferRow[]> {
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
  return rows.map((r) => ({
    bankName: r.bankName ?? "",
    accountNumber: r.accountNumber ?? "",
    accountHolder: r.accountHolder ?? "",
    amount: r.amount,
    reference: `REFUND-${r.id} ${r.invoiceId}`,
  }));
}

const cell = (value: string) => {
  const safe = csvSafeCell(value);
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export async function exportTransferRefundsCsv(): Promise<string> {
  const lines = [HEADER.join(",")];
  for (const r of await transferRows())
    lines.push([r.bankName, r.accountNumber, r.accountHolder, String(r.amount), r.reference].map(cell).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/**
 * The same rows as an .xlsx workbook (write-excel-file, server-only): every text a String cell (a
 * string cell is never run as a formula, so no quoting is needed), the account number formatted as
 * text ('@'), the amount a number with thousands separators, the header row kept in view.
 */
export async function exportTransferRefundsXlsx(): Promise<Buffer> {
  const text = (value: string) => ({ type: String, value, format: "@" });
  const data = [
    HEADER.map((title) => ({ type: String, value: title, fontWeight: "bold" as const })),
    ...(await transferRows()).map((r) => [
      text(r.bankName),
      text(r.accountNumber),
      text(r.accountHolder),
      { type: Number, value: r.amount, format: "#,##0" },
      text(r.reference),
    ]),
  ];
  return writeXlsxFile(data, {
    sheet: "Pengembalian Dana",
    columns: [{ width: 30 }, { width: 22 }, { width: 32 }, { width: 14 }, { width: 36 }],
    stickyRowsCount: 1,
  }).toBuffer();
}
