import { and, desc, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { balanceEntries, orderEvents, orderProducts, orders } from "../../db/schema";
import { env } from "../../env";
import { linkEmail, sendMail, type MailMessage } from "./mail";
import { formatRupiah } from "~/lib/money";
import { errorField, log } from "../../log";

// Buyer e-mails when an order changes status (issue 8 item 7). Called once by transitionOrder after
// its transaction committed; a failure here is logged once and never undoes or fails the transition.

type OrderFacts = {
  invoiceId: string;
  buyerName: string;
  buyerEmail: string;
  productTitle: string;
  totalAmount: number;
  reward: number | null;
  // The operator's reason of a rejection (the event's note), and the courier of a shipment (issue 17).
  reason?: string | null;
  courier?: string | null;
  trackingNumber?: string | null;
};

const FOOTER = "E-mail ini dikirim otomatis, mohon tidak dibalas. Jika ada pertanyaan, hubungi admin Toko Pegawai PLN.";

/** The e-mail for a move into `to` (coming from `from`), or null when the buyer is not e-mailed for it. */
export function orderStatusEmail(orderId: number, from: number | null, to: number, order: OrderFacts): MailMessage | null {
  const item = `${order.productTitle} (${order.invoiceId})`;
  let subject: string;
  let lines: string[];
  if (to === 200 && from === 100) {
    subject = `Pengajuan Insentif Disetujui – ${order.invoiceId}`;
    lines = [
      `Pengajuan Insentif Pemerintah untuk pesanan ${item} telah disetujui.`,
      `Silakan lanjutkan pembayaran sebesar ${formatRupiah(order.totalAmount)} sebelum batas waktu pembayaran berakhir.`,
    ];
  } else if (to === 2 && from === 100) {
    subject = `Pengajuan Insentif Ditolak – ${order.invoiceId}`;
    lines = [
      `Mohon maaf, pengajuan Insentif Pemerintah untuk pesanan ${item} tidak dapat kami setujui.`,
      ...reasonLine(order),
      "Pesanan ini tidak dilanjutkan dan Anda tidak perlu melakukan pembayaran.",
    ];
  } else if (to === 2 && from === 301) {
    subject = `Pengajuan Cicilan Ditolak – ${order.invoiceId}`;
    lines = [`Mohon maaf, pengajuan cicilan untuk pesanan ${item} tidak dapat kami setujui.`, ...reasonLine(order), "Pesanan ini tidak dilanjutkan."];
  } else if (to === 200 && from === 302) {
    subject = `Bukti Transfer Ditolak – ${order.invoiceId}`;
    lines = [
      `Mohon maaf, bukti transfer untuk pesanan ${item} tidak dapat kami verifikasi.`,
      ...reasonLine(order),
      "Silakan kirim bukti transfer yang benar dari halaman pembayaran sebelum batas waktu pembayaran berakhir.",
    ];
  } else if (to === 300) {
    subject = `Pembayaran Diterima – ${order.invoiceId}`;
    lines = [`Pembayaran untuk pesanan ${item} telah kami terima.`, "Pesanan Anda sedang kami siapkan untuk dikirim."];
  } else if (to === 400) {
    subject = `Pesanan Dalam Pengiriman – ${order.invoiceId}`;
    lines = [
      `Pesanan ${item} sedang dalam pengiriman.`,
      ...(order.courier && order.trackingNumber ? [`Kurir: ${order.courier}, Nomor Resi: ${order.trackingNumber}.`] : []),
      "Setelah pesanan sampai, buka detail pesanan dan pilih 'Konfirmasi Barang Sampai' dengan foto bukti penerimaan.",
    ];
  } else if (to === 500) {
    subject = `Pesanan Selesai – ${order.invoiceId}`;
    lines = [`Terima kasih! Pesanan ${item} telah selesai.`];
    if (order.reward) lines.push(`Reward sebesar ${formatRupiah(order.reward)} telah ditambahkan ke saldo Anda.`);
  } else {
    return null;
  }
  return linkEmail({
    to: order.buyerEmail,
    subject,
    greeting: `Halo ${order.buyerName},`,
    lines,
    linkLabel: "Lihat Detail Pesanan",
    link: `${env().appUrl}/transaction-detail/${orderId}`,
    footer: FOOTER,
  });
}

const reasonLine = (order: OrderFacts) => (order.reason ? [`Alasan: ${order.reason}`] : []);

/**
 * Sends the buyer the e-mail for the order's move into `toStatus` (if that move has one). Never
 * throws: the transition already happened, so a mail failure is logged once and that is all.
 */
export async function notifyOrderStatus(orderId: number, toStatus: number): Promise<void> {
  try {
    const db = await getDb();
    const [order] = await db
      .select({
        invoiceId: orders.invoiceId,
        buyerName: orders.buyerName,
        buyerEmail: orders.buyerEmail,
        totalAmount: orders.totalAmount,
        courier: orders.courier,
        trackingNumber: orders.trackingNumber,
      })
      .from(orders)
      .where(eq(orders.id, orderId));
    if (!order) return;
    // The move that just happened: the newest event into this status tells where it came from.
    const [event] = await db
      .select({ fromStatus: orderEvents.fromStatus, note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, toStatus)))
      .orderBy(desc(orderEvents.id))
      .limit(1);
    const [product] = await db.select({ title: orderProducts.title }).from(orderProducts).where(eq(orderProducts.orderId, orderId)).limit(1);
    const [reward] =
      toStatus === 500 ? await db.select({ amount: balanceEntries.amount }).from(balanceEntries).where(eq(balanceEntries.orderId, orderId)) : [];
    const message = orderStatusEmail(orderId, event?.fromStatus ?? null, toStatus, {
      ...order,
      productTitle: product?.title ?? "Pesanan",
      reward: reward?.amount ?? null,
      reason: event?.note ?? null,
    });
    if (message) await sendMail(message);
  } catch (error) {
    log.warn({ orderId, toStatus, err: errorField(error) }, "order e-mail not sent");
  }
}
