import crypto from "node:crypto";
import { env } from "../../env";
import { getOpenVaPayment } from "./settlement";
import { signWebhookBody } from "../../gateway";

// 'Bayar (Sandbox)' (issue 7): with the sandbox gateway, a tester or the demo "pays" a virtual
// account. The sandbox does what a real gateway does: it POSTs the signed settlement webhook over
// HTTP to the store's own public URL (APP_URL), so the payment takes exactly the production path.

export const SANDBOX_NOT_PAYABLE = "Pembayaran ini tidak dapat dibayar melalui sandbox.";

export type SandboxPayResult = { ok: true; status: number; body: unknown } | { ok: false; message: string };

/** The signed body of a payment.paid event (also used by the tests and the webhook benchmark). */
export function sandboxEvent(vaNumber: string, amount: number, id = `sandbox-${crypto.randomUUID()}`, paidAt = new Date()) {
  const body = JSON.stringify({ id, type: "payment.paid", vaNumber, amount, paidAt: paidAt.toISOString() });
  return { id, body, signature: signWebhookBody(body) };
}

/** Pays the user's open VA payment of `orderId` through the webhook. */
export async function sandboxPay(orderId: number, userId: number): Promise<SandboxPayResult> {
  const e = env();
  if (e.paymentGateway !== "sandbox") return { ok: false, message: SANDBOX_NOT_PAYABLE };
  const payment = await getOpenVaPayment(orderId, userId);
  if (!payment) return { ok: false, message: SANDBOX_NOT_PAYABLE };
  const event = sandboxEvent(payment.vaNumber, payment.total);
  const response = await fetch(`${e.appUrl}/webhooks/payment`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Signature": event.signature },
    body: event.body,
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.json().catch(() => null);
  return { ok: true, status: response.status, body };
}
