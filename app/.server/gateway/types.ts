// The gateway interface (DESIGN §6 Payments), shared by every gateway and by the index that picks
// one. Neither gateway imports gateway/index.ts, so choosing a gateway never loops back into one.

import type { PaymentChannel } from "~/lib/payment-channels";

export type { PaymentChannel };
export type HowToPay = { type: PaymentChannel; content: string };
export type { PaymentMethodType } from "~/lib/payment-kinds";
import type { PaymentMethodType } from "~/lib/payment-kinds";

export type OpenPaymentRequest = {
  orderId: number;
  invoiceId: string;
  method: { code: string; name: string; type: PaymentMethodType };
  /** The instalment tenor in months (BNI-INSTALLMENT), else null. */
  tenor?: number | null;
  /** What the buyer pays, in whole rupiah. */
  total: number;
  customer: { name: string; email: string; phone: string };
  /** The store's own deadline (spec §9: 24 hours), which a gateway should expire the payment at too. */
  deadline?: Date;
};

export type OpenedPayment = {
  /** The virtual account (unique per order), Mandiri's 'Kode Bayar', the store's account for a manual transfer, or null. */
  vaNumber: string | null;
  /** Mandiri bill payment's 'Kode Perusahaan' (biller code); null for every other method. */
  billerCode?: string | null;
  /** When the payment stops being payable; null: the store's default (24 hours, spec §9). */
  expiresAt: Date | null;
  /** A page of the gateway the buyer must go to (card instalment pages), or null. */
  redirectUrl: string | null;
  /** The gateway's own reference for the payment (Midtrans: its order_id). */
  gatewayRef: string;
};

/**
 * A verified event about a payment, from a webhook body (sandbox) or a gateway's status API
 * (Midtrans), handed to the one settlement function (store/payments/ settleGatewayEvent).
 * `payment.paid` settles, `payment.expired` closes the payment and expires the order, anything
 * else is recorded and changes nothing.
 */
export type GatewayEvent = {
  id: string;
  type: string;
  /** The VA the sandbox's event names; null when the event names the gateway's reference instead. */
  vaNumber: string | null;
  /** The gateway's reference of the payment (Midtrans order_id); takes precedence over vaNumber. */
  gatewayRef?: string;
  /** Whole rupiah, or NaN when the gateway's amount was not a whole rupiah (then it never matches). */
  amount: number;
  paidAt: Date | null;
  /**
   * The gateway itself refuses payments after the deadline it was given (Midtrans: custom_expiry), so
   * a `payment.paid` from its status API was paid in time even if it reaches the store later.
   */
  gatewayEnforcesDeadline?: boolean;
};

/** What a gateway says when the store is about to expire one of its payments. */
export type GatewayClosing = { kind: "closed" } | { kind: "unreachable"; reason: string } | { kind: "settled"; event: GatewayEvent };

/**
 * What a gateway answers to a refund request (issue 36): given back, refused (nothing was refunded
 * under the key: the adapter checked, issue 45 item 3), or no answer.
 */
export type GatewayRefund =
  { kind: "refunded"; reference: string } | { kind: "refused"; reason: string } | { kind: "unreachable"; reason: string };

export interface PaymentGateway {
  readonly name: string;
  /**
   * The gateway takes the buyer's money itself and reports it (Midtrans): its payments reach 300 by
   * its settlement only, never by an operator's 'Setujui' (issue 45 item 4). Absent: the sandbox,
   * where the operators' approval stands for the issuer's.
   */
  readonly collectsMoney?: true;
  /** Opens (or, for the same order, re-issues the same) payment. Throws when the gateway is unreachable. */
  openPayment(request: OpenPaymentRequest): Promise<OpenedPayment>;
  /**
   * How to pay with a method, per channel, as HTML (sanitised by the caller before it is shown).
   * `payToName`: a manual transfer's account owner as the payment showed it.
   */
  howToPay(
    method: { code: string; type: PaymentMethodType },
    payTo: string | null,
    billerCode?: string | null,
    payToName?: string | null,
  ): HowToPay[];
  /**
   * Asks the gateway to stop accepting a payment before the store expires it (Midtrans: POST
   * /v2/{order_id}/expire). Absent: the gateway needs nothing (the sandbox).
   */
  closePayment?(gatewayRef: string): Promise<GatewayClosing>;
  /**
   * Gives `amount` of a card payment back (Midtrans: POST /v2/{order_id}/refund). `key` is the same on
   * every try of one refund (Midtrans's refund_key), so a retry never refunds twice. Absent: the
   * gateway cannot refund (money goes back by bank transfer).
   */
  refund?(gatewayRef: string, request: { amount: number; key: string; reason: string }): Promise<GatewayRefund>;
}
