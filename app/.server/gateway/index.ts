import { env } from "../env";
import { midtransGateway } from "./midtrans";
import { sandboxGateway } from "./sandbox";
import type { PaymentGateway, PaymentMethodType } from "./types";

// The payment gateway (DESIGN §6 Payments): it opens a payment for an order — a virtual-account or
// account number to pay to, an expiry, perhaps a page to send the buyer to — and later reports
// settlements (the sandbox through POST /webhooks/payment, webhook.ts; Midtrans through POST
// /webhooks/midtrans, midtrans-webhook.ts). PAYMENT_GATEWAY picks the implementation; the built-in
// sandbox is the default. The shared types live in types.ts, which the gateways import instead of this.

// What the rest of the server may use of the adapters: the signatures a webhook checks, and the Midtrans
// client and verdicts its settlement (store/payments/midtrans-settle.ts) works with.
export { hasValidSignature, signWebhookBody, webhookSecret } from "./signature";
export {
  hasValidMidtransSignature,
  MIDTRANS,
  midtransClient,
  midtransGateway,
  midtransRefunds,
  midtransVerdict,
  statusEvent,
} from "./midtrans";
export type { MidtransTransaction } from "./midtrans-client";
// The SMS provider's adapter (Twilio), which store/messages/sms.ts chooses.
export { toE164, twilioSmsSender, type SmsResult, type SmsSender } from "./twilio-sms";
export type {
  GatewayClosing,
  GatewayEvent,
  GatewayRefund,
  HowToPay,
  OpenedPayment,
  OpenPaymentRequest,
  PaymentChannel,
  PaymentGateway,
} from "./types";

/**
 * The gateway that opens payments of a method. With Midtrans, only virtual accounts and the card
 * instalment go there: a manual transfer is the store's own account (unique code + proof + ops), and
 * BRI-CERIA has no public API, so both stay on the built-in sandbox (decision 0021).
 */
export function getGateway(method?: { type: PaymentMethodType }): PaymentGateway {
  switch (env().paymentGateway) {
    case "sandbox":
      return sandboxGateway;
    case "midtrans":
      return !method || method.type === "virtual_account" || method.type === "installment" ? midtransGateway : sandboxGateway;
  }
}

/** The gateway a stored payment was opened with (payments.gateway), whatever PAYMENT_GATEWAY is now. */
export function gatewayNamed(name: string): PaymentGateway | null {
  if (name === sandboxGateway.name) return sandboxGateway;
  if (name === midtransGateway.name) return midtransGateway;
  return null;
}

/** The gateway pages a form's answer may redirect the browser to (the CSP's form-action allows them). */
export function gatewayFormActionOrigins(): string[] {
  const midtrans = env().midtrans;
  return midtrans ? [new URL(midtrans.snapUrl).origin] : [];
}
