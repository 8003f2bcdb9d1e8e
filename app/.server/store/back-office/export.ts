import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { csvSafeCell } from "../../csv";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orderProducts, orders, orderStatuses, paymentMethods } from "../../db/schema";
import { amountToPay } from "../orders";
import { searchConditions, type OrderSearch } from "./queues";
import { readMaskedNik } from "../privacy";

// The finance export (issue 17): orders as CSV, streamed. Rows are read in batches by keyset
// (created_at, id) and written one by one through csv-stringify, so a year of orders never sits
// in memory, whatever its size: only one batch and the stream's buffer at a time.

export const EXPORT_BATCH = 500;

export const EXPORT_HEADER = [
  "Invoice",
  "Tanggal Pembelian",
  "Tanggal Status",
  "Pembeli",
  "Email",
  "NIK",
  "Produk",
  "Harga",
  "Insentif",
  "Promo Pegawai",
  "Total Belanja",
  "Jumlah Bayar",
  "Metode Pembayaran",
  "Status",
  "Kurir",
  "Nomor Resi",
];

const wib = new Intl.DateTimeFormat("sv-SE", {
  timeZone: "Asia/Jakarta",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});
const when = (d: Date) => `${wib.format(d)} WIB`;

async function* exportRows(search: OrderSearch): AsyncGenerator<(string | number)[]> {
  const db = await getDb();
  const base = await searchConditions(search);
  let after: { createdAt: Date; id: number } | null = null;
  for (;;) {
    const conditions: SQL[] = [...base];
    // A row comparison, so the (created_at, id) index finds the next batch without a scan or a sort.
    if (after)
      conditions.push(sql`(${orders.createdAt}, ${orders.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::int)`);
    const batch = await db
      .select({
        id: orders.id,
        invoiceId: orders.invoiceId,
        createdAt: orders.createdAt,
        statusChangedAt: orders.statusChangedAt,
        buyerName: orders.buyerName,
        buyerEmail: orders.buyerEmail,
        buyerNik: orders.buyerNik,
        productTitle: sql<
          string | null
        >`(select ${orderProducts.title} from ${orderProducts} where ${orderProducts.orderId} = ${orders.id} order by ${orderProducts.id} limit 1)`,
        priceOri: orders.priceOri,
        insentifValue: orders.insentifValue,
        promoPegawaiValue: orders.promoPegawaiValue,
        amount: orders.amount,
        // 'Jumlah Bayar': what the buyer pays, the payment's total once opened (the bank statement's amount).
        totalAmount: amountToPay(),
        method: paymentMethods.name,
        statusName: orderStatuses.name,
        courier: orders.courier,
        trackingNumber: orders.trackingNumber,
      })
      .from(orders)
      .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
      .leftJoin(paymentMethods, eq(paymentMethods.id, orders.paymentMethodId))
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(EXPORT_BATCH);
    for (const o of batch) {
      yield [
        o.invoiceId,
        when(o.createdAt),
        when(o.statusChangedAt),
        o.buyerName,
        o.buyerEmail,
        readMaskedNik(o.buyerNik, { orderId: o.id }),
        o.productTitle ?? "",
        o.priceOri,
        o.insentifValue,
        o.promoPegawaiValue,
        o.amount,
        o.totalAmount,
        o.method ?? "",
        o.statusName,
        o.courier ?? "",
        o.trackingNumber ?? "",
      ];
    }
    if (batch.length < EXPORT_BATCH) return;
    const last = batch.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * The CSV as a Node stream (header first). Backpressure holds: the rows are pulled from the
 * database only as fast as the reader takes the text.
 */
export function exportOrdersCsv(search: OrderSearch): Readable {
  // A cell that starts with =, +, - or @ would be a formula in a spreadsheet: quoted with a leading '.
  const csv = stringify({ header: true, columns: EXPORT_HEADER, cast: { string: csvSafeCell } });
  return Readable.from(exportRows(search)).pipe(csv);
}
