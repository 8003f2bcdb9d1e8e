import { env } from "../env";
import { sandboxGateway } from "./sandbox";

// The payment gateway (DESIGN §6 Payments): it opens a payment for an order — a virtual-account or
// account number to pay to, an expiry, perhaps a page to send the buyer to — and later reports
// settlements through the signed webhook (POST /webhooks/payment, see webhook.ts). PAYMENT_GATEWAY
// picks the implementation; the built-in sandbox is the default and the only one so far.

export type PaymentChannel = "ATM" | "Mobile Banking" | "Internet Banking";
export type HowToPay = { type: PaymentChannel; content: string };

export type OpenPaymentRequest = {
  orderId: number;
  invoiceId: string;
  method: { code: string; name: string; type: "virtual_account" | "bank_transfer" | "installment" | "paylater" };
  /** What the buyer pays, in whole rupiah. */
  total: number;
  customer: { name: string; email: string; phone: string };
};

export type OpenedPayment = {
  /** The virtual account (unique per order), the store's account for a manual transfer, or null. */
  vaNumber: string | null;
  /** When the payment stops being payable; null: the store's default (24 hours, spec §9). */
  expiresAt: Date | null;
  /** A page of the gateway the buyer must go to (card instalment pages), or null. */
  redirectUrl: string | null;
  /** The gateway's own reference for the payment. */
  gatewayRef: string;
};

export interface PaymentGateway {
  readonly name: string;
  /** Opens (or, for the same order, re-issues the same) payment. Throws when the gateway is unreachable. */
  openPayment(request: OpenPaymentRequest): Promise<OpenedPayment>;
  /** How to pay with a method, per channel, as HTML (sanitised by the caller before it is shown). */
  howToPay(method: { code: string; type: OpenPaymentRequest["method"]["type"] }, payTo: string | null): HowToPay[];
}

export function getGateway(): PaymentGateway {
  switch (env().paymentGateway) {
    case "sandbox":
      return sandboxGateway;
  }
}
