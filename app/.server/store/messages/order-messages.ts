import { eq } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { balanceEntries, orderEvents, orderProducts, orders, payments, users } from "../../db/schema";
import { formatDateTimeWib } from "../../dates";
import { env } from "../../env";
import { formatRupiah } from "~/lib/money";
import { ORDER_STATUS as S } from "~/lib/order-status";
import { defineMail } from "./deliver";
import { renderEmail, type EmailContent } from "./email-layout";
import type { MailMessage } from "./mail";
import { addNotification } from "./notifications";
import { enqueueMessage } from "./queue";

// What the buyer hears when an order moves (issue 8 item 7, issue 28): a notification behind the bell
// and an e-mail, both created by transitionOrder in the transaction of the move (announceOrderEvent),
// once per order event (the event's id is the key of both). The e-mail goes to the ACCOUNT's address
// and greets the account's name (issue 25 item 4): the checkout form's 'Email' and name stay a
// contact on the order, for operators and the invoice, and never receive anything.

type EventFacts = { eventId: number; orderId: number; from: number | null; to: number; actor: string; note: string | null };

type OrderFacts = {
  invoiceId: string;
  totalAmount: number;
  productTitle: string;
  reward: number | null;
  courier: string | null;
  trackingNumber: string | null;
  paymentDeadline: Date | null;
};

/** `link`: where the buyer's notification leads when not the order's detail. */
type Announcement = { subject: string; title: string; body: string; lines: string[]; link?: string };

const FOOTER = "E-mail ini dikirim otomatis, mohon tidak dibalas. Jika ada pertanyaan, hubungi admin Toko Pegawai PLN.";

/** By the system or the gateway (not a person): a move into 2 from them is an expiry, not a rejection. */
const isAutomatic = (actor: string) => actor === "system" || actor === "gateway";

/**
 * What the buyer is told about a move, or null when the move is not news to them (their own
 * cancel, their own proof or instalment choice, a status nobody announces).
 */
export function announcementFor(event: Pick<EventFacts, "from" | "to" | "actor" | "note">, order: OrderFacts): Announcement | null {
  if (event.actor.startsWith("buyer:") && event.to !== 500) return null;
  const item = `${order.productTitle} (${order.invoiceId})`;
  const reason = event.note ? [`Alasan: ${event.note}`] : [];
  const deadline = order.paymentDeadline ? ` sebelum ${formatDateTimeWib(order.paymentDeadline)}` : "";
  const { from, to } = event;
  if (to === S.AWAITING_PAYMENT && from === S.INCENTIVE_REVIEW) {
    return {
      subject: `Pengajuan Insentif Disetujui – ${order.invoiceId}`,
      title: "Pengajuan Insentif Disetujui",
      body: `Pengajuan insentif untuk ${item} disetujui. Silakan lanjutkan pembayaran${deadline}.`,
      lines: [
        `Pengajuan Insentif Pemerintah untuk pesanan ${item} telah disetujui.`,
        `Silakan lanjutkan pembayaran sebesar ${formatRupiah(order.totalAmount)}${deadline || " sebelum batas waktu pembayaran berakhir"}.`,
      ],
    };
  }
  if (to === S.EXPIRED_OR_REJECTED && from === S.INCENTIVE_REVIEW) {
    return {
      subject: `Pengajuan Insentif Ditolak – ${order.invoiceId}`,
      title: "Pengajuan Insentif Ditolak",
      body: `Pengajuan insentif untuk ${item} ditolak.${event.note ? ` Alasan: ${event.note}` : ""}`,
      lines: [
        `Mohon maaf, pengajuan Insentif Pemerintah untuk pesanan ${item} tidak dapat kami setujui.`,
        ...reason,
        "Pesanan ini tidak dilanjutkan dan Anda tidak perlu melakukan pembayaran.",
      ],
    };
  }
  if (to === S.EXPIRED_OR_REJECTED && (from === S.AWAITING_PAYMENT || from === S.INSTALLMENT_REVIEW) && isAutomatic(event.actor)) {
    return {
      subject: `Pembayaran Kedaluwarsa – ${order.invoiceId}`,
      title: "Pembayaran Kedaluwarsa",
      body: `Batas waktu pembayaran ${item} telah berakhir. Pesanan dibatalkan.`,
      lines: [
        `Batas waktu pembayaran untuk pesanan ${item} telah berakhir, sehingga pesanan ini dibatalkan.`,
        "Anda dapat memesan kembali dari halaman produk.",
      ],
    };
  }
  if (to === S.EXPIRED_OR_REJECTED && from === S.INSTALLMENT_REVIEW) {
    return {
      subject: `Pengajuan Cicilan Ditolak – ${order.invoiceId}`,
      title: "Pengajuan Cicilan Ditolak",
      body: `Pengajuan cicilan untuk ${item} ditolak.${event.note ? ` Alasan: ${event.note}` : ""}`,
      lines: [`Mohon maaf, pengajuan cicilan untuk pesanan ${item} tidak dapat kami setujui.`, ...reason, "Pesanan ini tidak dilanjutkan."],
    };
  }
  if (from === S.TRANSFER_REVIEW && (to === S.AWAITING_PAYMENT || to === S.EXPIRED_OR_REJECTED)) {
    return {
      subject: `Bukti Transfer Ditolak – ${order.invoiceId}`,
      title: "Bukti Transfer Ditolak",
      body: `Bukti transfer untuk ${item} ditolak.${event.note ? ` Alasan: ${event.note}` : ""}`,
      lines: [
        `Mohon maaf, bukti transfer untuk pesanan ${item} tidak dapat kami verifikasi.`,
        ...reason,
        to === S.AWAITING_PAYMENT
          ? `Silakan kirim bukti transfer yang benar dari halaman pembayaran${deadline || " sebelum batas waktu pembayaran berakhir"}.`
          : "Pesanan ini tidak dilanjutkan.",
      ],
    };
  }
  if (to === S.PAYMENT_RECEIVED) {
    return {
      subject: `Pembayaran Diterima – ${order.invoiceId}`,
      title: "Pembayaran Diterima",
      body: `Pembayaran untuk ${item} telah kami terima. Pesanan sedang disiapkan.`,
      lines: [`Pembayaran untuk pesanan ${item} telah kami terima.`, "Pesanan Anda sedang kami siapkan untuk dikirim."],
    };
  }
  if (to === S.SHIPPED) {
    const courier = order.courier && order.trackingNumber ? `Kurir: ${order.courier}, Nomor Resi: ${order.trackingNumber}.` : null;
    return {
      subject: `Pesanan Dalam Pengiriman – ${order.invoiceId}`,
      title: "Pesanan Dalam Pengiriman",
      body: `${item} sedang dalam pengiriman.${courier ? ` ${courier}` : ""}`,
      lines: [
        `Pesanan ${item} sedang dalam pengiriman.`,
        ...(courier ? [courier] : []),
        "Setelah pesanan sampai, buka detail pesanan dan pilih 'Konfirmasi Barang Sampai' dengan foto bukti penerimaan.",
      ],
    };
  }
  if (to === S.DONE) {
    const reward = order.reward ? `Reward sebesar ${formatRupiah(order.reward)} telah ditambahkan ke saldo Anda.` : null;
    return {
      subject: `Pesanan Selesai – ${order.invoiceId}`,
      title: reward ? "Pesanan Selesai, Reward Ditambahkan" : "Pesanan Selesai",
      body: `${item} telah sampai.${reward ? ` ${reward}` : ""}`,
      lines: [`Terima kasih! Pesanan ${item} telah selesai.`, ...(reward ? [reward] : [])],
      // The reward is the news: its notification opens the balance's history, where it is listed.
      ...(reward ? { link: "/history-balance" } : {}),
    };
  }
  return null;
}

async function orderFacts(db: Executor, orderId: number): Promise<(OrderFacts & { userId: number }) | null> {
  const [order] = await db
    .select({
      userId: orders.userId,
      invoiceId: orders.invoiceId,
      totalAmount: orders.totalAmount,
      courier: orders.courier,
      trackingNumber: orders.trackingNumber,
      paymentDeadline: payments.expiresAt,
    })
    .from(orders)
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const [product] = await db.select({ title: orderProducts.title }).from(orderProducts).where(eq(orderProducts.orderId, orderId)).limit(1);
  const [reward] = await db
    .select({ amount: balanceEntries.amount })
    .from(balanceEntries)
    .where(eq(balanceEntries.orderId, orderId))
    .limit(1);
  return { ...order, productTitle: product?.title ?? "Pesanan", reward: reward?.amount ?? null };
}

/**
 * Called by transitionOrder inside the move's transaction, after its event row: the buyer's
 * notification row and the e-mail's job, or nothing when the move is not news to the buyer.
 */
export async function announceOrderEvent(tx: Executor, event: EventFacts): Promise<void> {
  const order = await orderFacts(tx, event.orderId);
  if (!order) return;
  const announcement = announcementFor(event, order);
  if (!announcement) return;
  const key = `order-event:${event.eventId}`;
  await addNotification(tx, {
    userId: order.userId,
    key,
    title: announcement.title,
    body: announcement.body,
    orderId: event.orderId,
    link: announcement.link ?? `/transaction-detail/${event.orderId}`,
  });
  await enqueueMessage(tx, "mail", { kind: "order-event", eventId: event.eventId }, { key });
}

/** The e-mail of an order event, rendered when the worker delivers it (the same on every try). */
async function orderEventEmail(eventId: number): Promise<MailMessage | null> {
  const db = await getDb();
  const [event] = await db.select().from(orderEvents).where(eq(orderEvents.id, eventId));
  if (!event) return null;
  const order = await orderFacts(db, event.orderId);
  if (!order) return null;
  const announcement = announcementFor({ from: event.fromStatus, to: event.toStatus, actor: event.actor, note: event.note }, order);
  const [account] = await db.select({ email: users.email, fullname: users.fullname }).from(users).where(eq(users.id, order.userId));
  if (!announcement || !account) return null;
  return renderEmail({
    to: account.email,
    subject: announcement.subject,
    greeting: `Halo ${account.fullname},`,
    lines: announcement.lines,
    order: await orderSummary(event.orderId, order),
    button: { label: "Lihat Detail Pesanan", link: `${env().appUrl}/transaction-detail/${event.orderId}` },
    footer: FOOTER,
  });
}

/** The order's items and amount for an e-mail: what the payment asks when one is open, else the order's total. */
export async function orderSummary(
  orderId: number,
  order: Pick<OrderFacts, "invoiceId" | "totalAmount">,
): Promise<NonNullable<EmailContent["order"]>> {
  const db = await getDb();
  const items = await db
    .select({ title: orderProducts.title, qty: orderProducts.qty, price: orderProducts.price })
    .from(orderProducts)
    .where(eq(orderProducts.orderId, orderId));
  const [payment] = await db.select({ total: payments.total }).from(payments).where(eq(payments.orderId, orderId));
  return {
    invoiceId: order.invoiceId,
    items: items.map((item) => ({ title: item.title, qty: item.qty, amount: item.price * item.qty })),
    total: payment ? { label: "Total Bayar", amount: payment.total } : { label: "Total Belanja", amount: order.totalAmount },
  };
}

defineMail("order-event", (data) => orderEventEmail(Number(data.eventId)));
