import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orders } from "../../db/schema";
import { consumeOtpSecret } from "./otp";
import { errorField, log } from "../../log";
import { METHOD_ALREADY_SET, NOT_PAYABLE, OTP_REQUIRED, UNIQUE_CODES_EXHAUSTED, checkPaymentChoice, isId, statusForType } from "./methods";
import { freeUniqueCode, openPayment } from "./open";
import { transitionOrder } from "../orders";
import { isLivePaymentStatus, ORDER_STATUS as S } from "~/lib/order-status";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
// ————————————————————————————————————————————— continue: create the order / set its payment

export type PayResult =
  | { ok: true; orderId: number; created: boolean; redirectUrl: string | null }
  | { ok: false; message: string; code: "NO_DRAFT" | "METHOD" | "TENOR" | "OTP" | "CHECKOUT" | "RULE" | "NOT_PAYABLE" };

/**
 * Spec §7 set-payment: 'continue' for the user's order in 200 without a method (an incentive order
 * after approval). Sets the method and tenor once (one conditional update; a repeat with the same
 * choice is answered like the first), moves instalment/paylater to 301, and opens the payment.
 */
export async function setOrderPayment(
  userId: number,
  orderId: number,
  choice: { paymentMethodId: unknown; tenor?: unknown; otpSecretId?: string },
): Promise<PayResult> {
  if (!isId(userId) || !isId(orderId)) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  const db = await getDb();
  const [order] = await db
    .select({
      id: orders.id,
      statusId: orders.statusId,
      paymentMethodId: orders.paymentMethodId,
      tenor: orders.tenor,
      totalAmount: orders.totalAmount,
      phone: orders.buyerPhoneNumber,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  const check = await checkPaymentChoice(order.totalAmount, choice.paymentMethodId, choice.tenor);
  if (!check.ok) return { ok: false, code: check.field === "tenor" ? "TENOR" : "METHOD", message: check.message };
  const tenor = check.tenor?.tenor ?? null;
  if (order.paymentMethodId !== null) {
    // A double submit: the first one set exactly this; anything else is a second, different choice.
    if (order.paymentMethodId === check.method.id && order.tenor === tenor && isLivePaymentStatus(order.statusId)) {
      return { ok: true, orderId, created: false, redirectUrl: await openPaymentQuietly(orderId) };
    }
    return { ok: false, code: "NOT_PAYABLE", message: METHOD_ALREADY_SET };
  }
  if (order.statusId !== S.AWAITING_PAYMENT) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  if (PAYMENT_KINDS[check.method.type].transferProof && (await freeUniqueCode()) === null)
    return { ok: false, code: "METHOD", message: UNIQUE_CODES_EXHAUSTED };
  if (PAYMENT_KINDS[check.method.type].otp && !(await consumeOtpSecret(userId, choice.otpSecretId ?? "", order.phone))) {
    return { ok: false, code: "OTP", message: OTP_REQUIRED };
  }
  const set = await db
    .update(orders)
    .set({ paymentMethodId: check.method.id, tenor, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.statusId, S.AWAITING_PAYMENT), isNull(orders.paymentMethodId)))
    .returning({ id: orders.id });
  if (!set.length) return setOrderPayment(userId, orderId, choice); // lost a race: answer as the repeat it now is
  if (statusForType(check.method.type) === S.INSTALLMENT_REVIEW) {
    const moved = await transitionOrder(
      orderId,
      S.AWAITING_PAYMENT,
      S.INSTALLMENT_REVIEW,
      `buyer:${userId}`,
      "Metode pembayaran cicilan dipilih",
    );
    if (!moved.ok) return { ok: false, code: "NOT_PAYABLE", message: NOT_PAYABLE };
  }
  return { ok: true, orderId, created: false, redirectUrl: await openPaymentQuietly(orderId) };
}

/** Opens the payment after the order was made; a gateway failure leaves it for /payment/{id} to retry. */
export async function openPaymentQuietly(orderId: number): Promise<string | null> {
  try {
    const payment = await openPayment(orderId);
    return payment?.redirectUrl ?? null;
  } catch (error) {
    log.warn({ orderId, err: errorField(error) }, "payments: opening the payment failed");
    return null;
  }
}
