import { eq } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { orders, refundEvents, refunds, users } from "../../db/schema";
import { env } from "../../env";
import { formatRupiah } from "~/lib/money";
import { REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";
import { addNotification, defineMail, enqueueMessage, renderEmail, type MailMessage } from "../messages";

// What the buyer hears when a refund is created or moves (issue 36 item 3): a notification behind
// the bell and an e-mail job, both written in the transaction of the change, keyed by the refund
// event's id (once per change). The e-mail is rendered when the worker delivers it.

const FOOTER = "E-mail ini dikirim otomatis, mohon tidak dibalas. Jika ada pertanyaan, hubungi admin Toko Pegawai PLN.";

type Facts = {
  userId: number;
  orderId: number;
  invoiceId: string;
  amount: number;
  toState: RefundState;
  fromState: RefundState | null;
  transferReference: string | null;
  failureReason: string | null;
  method: "gateway" | "transfer";
};

async function factsOf(db: Executor, eventId: number): Promise<Facts | null> {
  const [row] = await db
    .select({
      userId: orders.userId,
      orderId: orders.id,
      invoiceId: orders.invoiceId,
      amount: refunds.amount,
      toState: refundEvents.toState,
      fromState: refundEvents.fromState,
      transferReference: refunds.transferReference,
      failureReason: refunds.failureReason,
      method: refunds.method,
    })
    .from(refundEvents)
    .innerJoin(refunds, eq(refunds.id, refundEvents.refundId))
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refundEvents.id, eventId));
  return row ?? null;
}

/** The words of a refund change, for the bell and the e-mail. */
export function refundAnnouncement(f: Facts): { subject: string; title: string; body: string; lines: string[] } {
  const money = formatRupiah(f.amount);
  const state = REFUND_STATE_NAMES[f.toState];
  const title = `Pengembalian Dana: ${state}`;
  let body: string;
  switch (f.toState) {
    case "awaiting-funds":
      body = `Tim keuangan sedang memeriksa apakah dana ${money} untuk pesanan ${f.invoiceId} sudah masuk ke rekening toko. Dana dikembalikan sejumlah yang benar-benar masuk. Anda dapat mengirim data rekening sekarang pada detail pesanan.`;
      break;
    case "not-received":
      body = `Tim keuangan tidak menemukan dana untuk pesanan ${f.invoiceId} di rekening toko, sehingga tidak ada dana yang dikembalikan${f.failureReason ? `. Alasan: ${f.failureReason}` : ""}. Jika Anda sudah mentransfer, hubungi admin dengan bukti transfer dari bank Anda.`;
      break;
    case "awaiting-account":
      body = `Dana ${money} untuk pesanan ${f.invoiceId} akan dikembalikan. Silakan kirim data rekening Anda pada detail pesanan.`;
      break;
    case "processing":
      body =
        f.method === "gateway"
          ? `Pengembalian dana ${money} untuk pesanan ${f.invoiceId} sedang diproses ke kartu yang Anda gunakan.`
          : `Pengembalian dana ${money} untuk pesanan ${f.invoiceId} sedang diproses ke rekening Anda.`;
      break;
    case "refunded":
      body = `Dana ${money} untuk pesanan ${f.invoiceId} telah dikembalikan${f.transferReference ? ` (Nomor Referensi ${f.transferReference})` : ""}.`;
      break;
    case "failed":
      body = `Pengembalian dana ${money} untuk pesanan ${f.invoiceId} gagal diproses${f.failureReason ? `: ${f.failureReason}` : ""}. Silakan kirim data rekening kembali.`;
      break;
  }
  return { subject: `${title} — ${f.invoiceId}`, title, body, lines: [body] };
}

/** Called in the transaction of every refund change, after its event row. */
export async function announceRefundEvent(tx: Executor, eventId: number): Promise<void> {
  const facts = await factsOf(tx, eventId);
  if (!facts) return;
  const words = refundAnnouncement(facts);
  const key = `refund-event:${eventId}`;
  await addNotification(tx, {
    userId: facts.userId,
    key,
    title: words.title,
    body: words.body,
    orderId: facts.orderId,
    link: `/transaction-detail/${facts.orderId}`,
  });
  await enqueueMessage(tx, "mail", { kind: "refund-event", eventId }, { key });
}

async function refundEventEmail(eventId: number): Promise<MailMessage | null> {
  const db = await getDb();
  const facts = await factsOf(db, eventId);
  if (!facts) return null;
  const [account] = await db.select({ email: users.email, fullname: users.fullname }).from(users).where(eq(users.id, facts.userId));
  if (!account) return null;
  const words = refundAnnouncement(facts);
  return renderEmail({
    to: account.email,
    subject: words.subject,
    greeting: `Halo ${account.fullname},`,
    lines: words.lines,
    button: { label: "Lihat Detail Pesanan", link: `${env().appUrl}/transaction-detail/${facts.orderId}` },
    footer: FOOTER,
  });
}

defineMail("refund-event", (data) => refundEventEmail(Number(data.eventId)));
