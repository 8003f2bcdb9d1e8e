import { and, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { notifications, orders, payments, users } from "../../db/schema";
import { formatDateTimeWib, formatTimeWib } from "../../dates";
import { env } from "../../env";
import { formatRupiah } from "~/lib/money";
import { ORDER_STATUS } from "~/lib/order-status";
import { PAYMENT_KINDS, PAYMENT_METHOD_TYPES } from "~/lib/payment-kinds";
import { defineMail } from "./deliver";
import { renderEmail } from "./email-layout";
import { addNotification } from "./notifications";
import { orderSummary } from "./order-messages";
import { enqueueMessage } from "./queue";

// Payment reminders (issue 28 item 4): an hour before an unpaid payment's deadline (a virtual
// account or a manual transfer), the buyer gets a notification and an e-mail, once per payment.
// Run by the once-a-minute job (queue.ts schedules it in one instance at a time); "once" is the
// notification's key, written in the transaction that creates the e-mail's job: a second run, in
// this instance or another, finds it and does nothing.

export const REMINDER_LEAD_MS = 60 * 60 * 1000;
/** The kinds paid to an account number by a deadline (~/lib/payment-kinds). */
const REMINDED_TYPES = PAYMENT_METHOD_TYPES.filter((type) => PAYMENT_KINDS[type].paysByDeadline);

const reminderKey = (orderId: number) => `payment-reminder:${orderId}`;

/** Sends the reminders now due; returns the orders reminded. */
export async function sendPaymentReminders(now = new Date()): Promise<number[]> {
  const db = await getDb();
  // Unpaid (waiting for payment, no proof sent, not closed), deadline within the hour, not reminded.
  const due = await db
    .select({
      orderId: orders.id,
      userId: orders.userId,
      invoiceId: orders.invoiceId,
      total: payments.total,
      expiresAt: payments.expiresAt,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(orders.statusId, ORDER_STATUS.AWAITING_PAYMENT),
        isNull(payments.closedAt),
        isNull(payments.markedPaidAt),
        inArray(payments.type, [...REMINDED_TYPES]),
        gt(payments.expiresAt, now),
        lte(payments.expiresAt, new Date(now.getTime() + REMINDER_LEAD_MS)),
        sql`not exists (select 1 from ${notifications} where ${notifications.key} = 'payment-reminder:' || ${orders.id})`,
      ),
    );
  const reminded: number[] = [];
  for (const payment of due) {
    const key = reminderKey(payment.orderId);
    const sent = await db.transaction(async (tx) => {
      const written = await addNotification(tx, {
        userId: payment.userId,
        key,
        title: "Segera Selesaikan Pembayaran",
        body: `Segera selesaikan pembayaran sebelum ${formatTimeWib(payment.expiresAt!)} WIB. Total Bayar ${formatRupiah(payment.total)} untuk pesanan ${payment.invoiceId}.`,
        orderId: payment.orderId,
        link: `/payment/${payment.orderId}`,
      });
      if (written) await enqueueMessage(tx, "mail", { kind: "payment-reminder", orderId: payment.orderId }, { key });
      return written;
    });
    if (sent) reminded.push(payment.orderId);
  }
  return reminded;
}

/** The reminder's e-mail; nothing once the payment is paid, closed or its proof sent (it waited in the queue). */
async function reminderEmail(orderId: number) {
  const db = await getDb();
  const [row] = await db
    .select({
      statusId: orders.statusId,
      invoiceId: orders.invoiceId,
      totalAmount: orders.totalAmount,
      expiresAt: payments.expiresAt,
      closedAt: payments.closedAt,
      email: users.email,
      fullname: users.fullname,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row || row.statusId !== ORDER_STATUS.AWAITING_PAYMENT || row.closedAt || !row.expiresAt) return null;
  return renderEmail({
    to: row.email,
    subject: `Segera Selesaikan Pembayaran – ${row.invoiceId}`,
    greeting: `Halo ${row.fullname},`,
    lines: [
      `Segera selesaikan pembayaran sebelum ${formatTimeWib(row.expiresAt)} WIB (${formatDateTimeWib(row.expiresAt)}).`,
      "Setelah batas waktu itu, pesanan dibatalkan otomatis.",
    ],
    order: await orderSummary(orderId, row),
    button: { label: "Bayar Sekarang", link: `${env().appUrl}/payment/${orderId}` },
    footer: "E-mail ini dikirim otomatis, mohon tidak dibalas. Abaikan jika Anda sudah membayar.",
  });
}

defineMail("payment-reminder", (data) => reminderEmail(Number(data.orderId)));
