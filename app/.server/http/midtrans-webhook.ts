import { env } from "../env";
import { jsonObjectOf } from "./webhook-body";
import { hasValidMidtransSignature } from "../gateway";
import { applyMidtransStatus, midtransOutcome, type MidtransDecision } from "../store/payments";

// POST /webhooks/midtrans (issue 18): Midtrans's HTTP notification. The body is only a hint: its
// signature_key must be right (SHA-512 of order_id + status_code + gross_amount + server key,
// compared in constant time), and then the status API decides (midtrans-settle.ts).

const ORDER_ID = /^[A-Za-z0-9\-_~.]{1,50}$/;
const STATUS_CODE = /^\d{3}$/;
const GROSS_AMOUNT = /^\d{1,15}(\.\d{1,2})?$/;

type Notification = { order_id: string; status_code: string; gross_amount: string; signature_key: unknown; transaction_status: unknown };

function parseNotification(rawBody: string): Notification | null {
  const body = jsonObjectOf(rawBody);
  if (!body) return null;
  const { order_id, status_code, gross_amount } = body;
  if (typeof order_id !== "string" || !ORDER_ID.test(order_id)) return null;
  if (typeof status_code !== "string" || !STATUS_CODE.test(status_code)) return null;
  if (typeof gross_amount !== "string" || !GROSS_AMOUNT.test(gross_amount)) return null;
  return { order_id, status_code, gross_amount, signature_key: body.signature_key, transaction_status: body.transaction_status };
}

/** The whole decision for one notification body (the route only reads, answers and logs). */
export async function handleMidtransNotification(rawBody: string): Promise<MidtransDecision> {
  // Without a server key nothing can be verified: no Midtrans payment is known here either.
  if (!env().midtrans) return midtransOutcome("unknown-order", null, "(PAYMENT_GATEWAY is not midtrans)");
  const notification = parseNotification(rawBody);
  if (!notification) return midtransOutcome("invalid-body", null, "");
  if (!hasValidMidtransSignature(notification)) return midtransOutcome("bad-signature", null, `ref=${notification.order_id}`);
  return applyMidtransStatus(notification.order_id, "notification");
}
