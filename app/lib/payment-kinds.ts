import { ORDER_STATUS } from "./order-status";

// The kinds of payment method (spec §2–§5 Payment, DESIGN §6 Payments), each declared once with
// what it needs, for both sides: the store opens, prices and settles a payment by reading its kind
// here, the screens ask for a tenor, an OTP or a transfer proof when the kind says so. A new kind is
// one entry here (plus its gateway adapter, and its value in the reference data).

export type PaymentKind = {
  /** Who confirms the payment: the payment gateway (its notification), or the store's operators (a transfer proof). */
  settledBy: "gateway" | "operators";
  /** The order's status once the buyer chose it: awaiting payment, or awaiting the issuer's approval. */
  statusAfterChoice: typeof ORDER_STATUS.AWAITING_PAYMENT | typeof ORDER_STATUS.INSTALLMENT_REVIEW;
  /** The buyer picks a tenor (months) after the method. */
  tenor: boolean;
  /** The buyer confirms the choice with a code sent to the order's phone number. */
  otp: boolean;
  /** The buyer uploads a proof of transfer ('Saya sudah bayar'); a 3-digit unique code is added to the total. */
  transferProof: boolean;
  /** A cash purchase: the VA discount is taken off. */
  cashDiscount: boolean;
  /**
   * The buyer pays to an account number by a deadline: the store's deadline (24 hours, which the
   * gateway enforces too), a reminder before it, and the how-to-pay texts of /ops/settings.
   */
  paysByDeadline: boolean;
  /** The method list shows its fee ('per tenor' kinds show Rp 0: the fee is in each tenor's total). */
  listedFee: "fee" | "zero";
  /** The group of the method list it is shown in. */
  group: "Virtual Account" | "Manual" | "Cicilan" | "Lainnya";
  /** How the payment page and the back office name the number the buyer pays to. */
  accountLabel: string;
};

export const PAYMENT_KINDS = {
  virtual_account: {
    settledBy: "gateway",
    statusAfterChoice: ORDER_STATUS.AWAITING_PAYMENT,
    tenor: false,
    otp: false,
    transferProof: false,
    cashDiscount: true,
    paysByDeadline: true,
    listedFee: "fee",
    group: "Virtual Account",
    accountLabel: "Nomor VA",
  },
  bank_transfer: {
    settledBy: "operators",
    statusAfterChoice: ORDER_STATUS.AWAITING_PAYMENT,
    tenor: false,
    otp: false,
    transferProof: true,
    cashDiscount: false,
    paysByDeadline: true,
    listedFee: "fee",
    group: "Manual",
    accountLabel: "Rekening",
  },
  installment: {
    settledBy: "gateway",
    statusAfterChoice: ORDER_STATUS.INSTALLMENT_REVIEW,
    tenor: true,
    otp: false,
    transferProof: false,
    cashDiscount: false,
    paysByDeadline: false,
    listedFee: "zero",
    group: "Cicilan",
    accountLabel: "Rekening",
  },
  paylater: {
    settledBy: "gateway",
    statusAfterChoice: ORDER_STATUS.INSTALLMENT_REVIEW,
    tenor: false,
    otp: true,
    transferProof: false,
    cashDiscount: false,
    paysByDeadline: false,
    listedFee: "fee",
    group: "Lainnya",
    accountLabel: "Rekening",
  },
} as const satisfies Record<string, PaymentKind>;

export type PaymentMethodType = keyof typeof PAYMENT_KINDS;
/** The kinds, for the database's enum columns and the API's description. */
export const PAYMENT_METHOD_TYPES = Object.keys(PAYMENT_KINDS) as [PaymentMethodType, ...PaymentMethodType[]];

export const paymentKind = (type: PaymentMethodType): PaymentKind => PAYMENT_KINDS[type];
