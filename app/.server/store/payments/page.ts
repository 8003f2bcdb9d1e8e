import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { orderEvents, orders, orderStatuses, paymentMethods, payments, uploads } from "../../db/schema";
import { env } from "../../env";
import { gatewayNamed, getGateway, type HowToPay } from "../../gateway";
import { MANUAL_TRANSFER_ACCOUNT } from "~/lib/payment-channels";
import { sanitizeHtml } from "./sanitize-html";
import { getHowToTexts } from "./settings";
import { manualTransferHowTo, transferBankOf } from "./transfer-bank";
import { type PaymentBreakdown, type PaymentMethodType } from "~/lib/payment-pricing";
import { errorField, log } from "../../log";
import {
  GATEWAY_UNAVAILABLE,
  NOT_MARKABLE,
  NOT_PAYABLE,
  PAYMENT_EXPIRED,
  PROOF_REQUIRED,
  UNIQUE_CODES_EXHAUSTED,
  UniqueCodesExhausted,
  DEFAULT_VALIDITY_MS,
  isId,
} from "./methods";
import { openPayment, type PaymentRow } from "./open";
import { expirePayment } from "./settlement";
import { transitionOrder } from "../orders";
import { isLivePaymentStatus, isPaidStatus, ORDER_STATUS as S } from "~/lib/order-status";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
// ————————————————————————————————————————————— the payment page (/payment/{id})

export type PaymentDetail = {
  orderId: number;
  invoiceId: string;
  statusId: number;
  statusName: string;
  /** null: no method chosen yet (an approved incentive order): the page sends the buyer to /paymentmethod?orderId=. */
  method: { id: number; code: string; name: string; type: PaymentMethodType; imageUrl: string } | null;
  tenor: number | null;
  /** The VA number (Mandiri bill payment: 'Kode Bayar'), or the store's account number for a manual transfer; null for instalment/paylater. */
  vaNo: string | null;
  /** Mandiri bill payment through Midtrans: 'Kode Perusahaan'; null otherwise. */
  billerCode: string | null;
  /** Opening the payment failed just now (the gateway): the page says so and offers to try again. */
  openError: string | null;
  breakdown: PaymentBreakdown | null;
  /** 'Total Pembayaran' (with the unique code for a manual transfer). */
  totalAmount: number;
  uniqueCode: number | null;
  expiredAt: Date | null;
  /** The payment ran out ('EXPIRED!'). */
  expired: boolean;
  /** Spec's marker: a transfer proof was sent. */
  marker: boolean;
  /** 'Saya sudah bayar': a manual transfer awaiting payment without a proof yet. */
  canMarkPaid: boolean;
  /** Ops rejected the last transfer proof (302 → 200), with their reason: the buyer sends another. */
  proofRejected: { reason: string | null } | null;
  /** Why the page cannot show the chosen method (UNIQUE_CODES_EXHAUSTED), or null. */
  notice: string | null;
  /** 'Bayar (Sandbox)': the sandbox gateway and an open virtual account. */
  canSandboxPay: boolean;
  paid: boolean;
  /** `bankImageUrl`: the bank's logo, a neutral one for a bank the store has none of. */
  manualInfoDetail: { bankImageUrl: string; bankAccountName: string; bankName: string; bankAccountNumber: string } | null;
  /** How to pay per channel (ATM, Mobile Banking, Internet Banking), sanitised HTML. */
  howTo: HowToPay[];
  redirectUrl: string | null;
};

/**
 * The payment page of the user's own order; null for anyone else's or an unknown id (404). Opens the
 * payment when it is not open yet; an overdue one expires here (on read) as well as by the sweep.
 */
export async function getPaymentDetail(orderId: number, userId: number, now = new Date()): Promise<PaymentDetail | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const owned = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!owned.length) return null;
  let payment: PaymentRow | null;
  let notice: string | null = null;
  let openError: string | null = null;
  try {
    payment = await openPayment(orderId);
  } catch (error) {
    if (error instanceof UniqueCodesExhausted) {
      // The order was made while codes were free, but none is left to open its transfer: the method
      // is released, so the buyer chooses another one for this order (the set-payment flow).
      await releaseUnopenedMethod(orderId);
      notice = UNIQUE_CODES_EXHAUSTED;
    } else {
      // The gateway failed or refused: the order stays payable and the page offers to try again.
      log.warn({ orderId, err: errorField(error) }, "payments: opening the payment failed");
      openError = GATEWAY_UNAVAILABLE;
    }
    [payment = null] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  }
  if (payment && !payment.closedAt && payment.expiresAt && payment.expiresAt <= now) {
    await expirePayment(orderId);
    [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  }
  const [order] = await db
    .select({
      id: orders.id,
      invoiceId: orders.invoiceId,
      statusId: orders.statusId,
      statusName: orderStatuses.name,
      totalAmount: orders.totalAmount,
      tenor: orders.tenor,
      methodId: orders.paymentMethodId,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const [method] = order.methodId ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, order.methodId)) : [];
  // The order's last move: 302 → 200 is a rejected proof, its note the operator's reason.
  const [lastMove] =
    order.statusId === S.AWAITING_PAYMENT
      ? await db
          .select({ fromStatus: orderEvents.fromStatus, note: orderEvents.note })
          .from(orderEvents)
          .where(eq(orderEvents.orderId, orderId))
          .orderBy(desc(orderEvents.id))
          .limit(1)
      : [];
  const open = !!payment && !payment.closedAt && isLivePaymentStatus(order.statusId);
  const expired =
    !!payment &&
    (payment.closedReason === "expired" ||
      (order.statusId === S.EXPIRED_OR_REJECTED && !!payment.expiresAt && payment.expiresAt <= now && payment.closedReason !== "paid"));
  // The sandbox gateway simulates a payment to a virtual account only.
  const isVa = payment?.type === "virtual_account";
  const isManual = !!payment && PAYMENT_KINDS[payment.type].transferProof;
  // The account the payment showed when it opened (payments before issue 27 stored none: the built-in one).
  const transferAccount = isManual
    ? (payment!.transferAccount ?? {
        bankName: MANUAL_TRANSFER_ACCOUNT.bankName,
        accountName: MANUAL_TRANSFER_ACCOUNT.bankAccountName,
        accountNumber: payment!.vaNumber ?? MANUAL_TRANSFER_ACCOUNT.bankAccountNumber,
      })
    : null;
  const breakdown = payment
    ? {
        amount: payment.amount,
        discount: payment.discount,
        discountPercent: payment.discountPercent ?? 0,
        fee: payment.fee,
        uniqueCode: payment.uniqueCode ?? 0,
        total: payment.total,
      }
    : null;
  return {
    orderId: order.id,
    invoiceId: order.invoiceId,
    statusId: order.statusId,
    statusName: order.statusName,
    // A manual transfer is named after the bank its payment shows ('Transfer Bank Mandiri (Manual)').
    method: method
      ? {
          id: method.id,
          code: method.code,
          name: transferAccount ? transferBankOf(transferAccount.bankName).methodName : method.name,
          type: method.type,
          imageUrl: transferAccount ? transferBankOf(transferAccount.bankName).logo : method.imageUrl,
        }
      : null,
    tenor: order.tenor,
    vaNo: payment?.vaNumber ?? null,
    billerCode: payment?.billerCode ?? null,
    openError: payment ? null : openError,
    breakdown,
    totalAmount: payment?.total ?? order.totalAmount,
    uniqueCode: payment?.uniqueCode ?? null,
    expiredAt: payment?.expiresAt ?? null,
    expired,
    marker: !!payment?.markedPaidAt,
    // In 200 a marker can only be one a rejection left before it was cleared with it: not a proof sent.
    canMarkPaid: open && isManual && order.statusId === S.AWAITING_PAYMENT,
    proofRejected: lastMove?.fromStatus === S.TRANSFER_REVIEW ? { reason: lastMove.note?.trim() || null } : null,
    notice,
    canSandboxPay:
      open && isVa && order.statusId === S.AWAITING_PAYMENT && env().paymentGateway === "sandbox" && payment!.gateway === "sandbox",
    paid: isPaidStatus(order.statusId),
    manualInfoDetail: transferAccount
      ? {
          bankImageUrl: transferBankOf(transferAccount.bankName).logo,
          bankAccountName: transferAccount.accountName,
          bankName: transferAccount.bankName,
          bankAccountNumber: transferAccount.accountNumber,
        }
      : null,
    howTo:
      payment && method && PAYMENT_KINDS[payment.type].paysByDeadline
        ? await howToPay(payment, { code: method.code, type: method.type }, transferAccount)
        : [],
    redirectUrl: open ? (payment?.redirectUrl ?? null) : null,
  };
}

/**
 * How to pay, sanitised, per channel: the admin's text where there is one (/ops/settings; `{nomor}`
 * and `{nama}` stand for the number to pay to and the account's owner), else the gateway's.
 */
async function howToPay(
  payment: PaymentRow,
  method: { code: string; type: PaymentMethodType },
  transferAccount: { bankName: string; accountName: string; accountNumber: string } | null,
): Promise<HowToPay[]> {
  const custom = (await getHowToTexts())[method.code] ?? {};
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const payToName = transferAccount?.accountName ?? null;
  const builtIn = transferAccount
    ? manualTransferHowTo(transferAccount.bankName, transferAccount.accountNumber, transferAccount.accountName)
    : (gatewayNamed(payment.gateway) ?? getGateway(method)).howToPay(method, payment.vaNumber, payment.billerCode, payToName);
  return builtIn.map((h) => {
    const text = custom[h.type];
    const content = text
      ? text.replaceAll("{nomor}", escape(payment.vaNumber ?? "-")).replaceAll("{nama}", escape(payToName ?? ""))
      : h.content;
    return { type: h.type, content: sanitizeHtml(content) };
  });
}

/** Forgets the method of an order in 200 whose payment was never opened (set-payment then offers the choice again). */
export async function releaseUnopenedMethod(orderId: number): Promise<void> {
  const db = await getDb();
  await db
    .update(orders)
    .set({ paymentMethodId: null, tenor: null, updatedAt: new Date() })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.statusId, S.AWAITING_PAYMENT),
        sql`not exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id})`,
      ),
    );
}

// ————————————————————————————————————————————— 'Saya sudah bayar'

/**
 * Spec §7 mark-paid: a manual transfer in 200 with the buyer's transfer proof (an upload of theirs
 * with purpose transfer-proof) → 302 'Verifikasi Bukti Transfer'. Missing proof: 'Bukti Pembayaran
 * tidak boleh kosong.'; an overdue payment expires instead. notFound: not the user's order (404).
 */
export async function markPaid(
  orderId: number,
  userId: number,
  proofUploadId: string | null | undefined,
): Promise<{ ok: true } | { ok: false; message: string; notFound?: true }> {
  if (!isId(orderId) || !isId(userId)) return { ok: false, notFound: true, message: NOT_PAYABLE };
  const db = await getDb();
  const [order] = await db
    .select({ statusId: orders.statusId })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return { ok: false, notFound: true, message: NOT_PAYABLE };
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  if (!payment || !PAYMENT_KINDS[payment.type].transferProof) return { ok: false, message: NOT_MARKABLE };
  // A double submit: the first one already sent the proof.
  if (order.statusId === S.TRANSFER_REVIEW && payment.markedPaidAt) return { ok: true };
  if (order.statusId !== S.AWAITING_PAYMENT || payment.closedAt) return { ok: false, message: NOT_MARKABLE };
  if (payment.expiresAt && payment.expiresAt <= new Date()) {
    await expirePayment(orderId);
    return { ok: false, message: PAYMENT_EXPIRED };
  }
  if (typeof proofUploadId !== "string" || !proofUploadId) return { ok: false, message: PROOF_REQUIRED };
  const [proof] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, proofUploadId), eq(uploads.ownerId, userId), eq(uploads.purpose, "transfer-proof")));
  if (!proof) return { ok: false, message: PROOF_REQUIRED };

  // The mark and the move 200 → 302 are one transaction: the order's conditional update decides a
  // double submit (the second finds 302 and is answered below), and a payment that closed meanwhile
  // rolls the move back. Nothing here calls markPaid again, so it ends in every state.
  const now = new Date();
  let moved: Awaited<ReturnType<typeof transitionOrder>>;
  try {
    // The proof's id in the event: the history keeps it after a rejection clears the payment's.
    moved = await transitionOrder(
      orderId,
      S.AWAITING_PAYMENT,
      S.TRANSFER_REVIEW,
      `buyer:${userId}`,
      `Bukti transfer dikirim (bukti:${proof.id})`,
      {
        onMoved: async (tx) => {
          const marked = await tx
            .update(payments)
            .set({ proofUploadId: proof.id, markedPaidAt: now })
            .where(and(eq(payments.orderId, orderId), isNull(payments.closedAt)))
            .returning({ orderId: payments.orderId });
          if (!marked.length) throw new PaymentClosed();
        },
      },
    );
  } catch (error) {
    if (error instanceof PaymentClosed) return { ok: false, message: NOT_MARKABLE };
    throw error;
  }
  if (moved.ok) return { ok: true };
  // The order was not in 200 any more: a concurrent submit sent its proof first, or it was cancelled or expired.
  const [latest] = await db
    .select({ statusId: orders.statusId, markedPaidAt: payments.markedPaidAt })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.orderId, orderId));
  return latest?.statusId === S.TRANSFER_REVIEW && latest.markedPaidAt ? { ok: true } : { ok: false, message: NOT_MARKABLE };
}

/** Thrown inside markPaid's transaction to undo the move when the payment had closed. */
class PaymentClosed extends Error {}

/**
 * A transfer proof rejected for another try (302 → 200, issue 45 item 1): the buyer gets a fresh
 * payment window, in the transaction of the rejection, so a deadline that passed while the proof
 * waited for the operators does not expire the new proof. Never shortens a later deadline.
 */
export async function reopenTransferWindow(tx: Executor, orderId: number): Promise<void> {
  await tx
    .update(payments)
    .set({ expiresAt: sql`greatest(${payments.expiresAt}, now() + ${`${DEFAULT_VALIDITY_MS} milliseconds`}::interval)` })
    .where(eq(payments.orderId, orderId));
}
