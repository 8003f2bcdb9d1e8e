// The order statuses (spec §4 and §7, DESIGN §6 table), named once for both sides: the store's
// status machine, its SQL, the back office and the buyer's screens read the ids and the sets here.
// The ids are the spec's (the API and the order_statuses table carry them), so they never change.

export const ORDER_STATUS = {
  /** 1 Dibatalkan: the buyer cancelled. */
  CANCELLED: 1,
  /** 2 Kedaluwarsa / Ditolak: the payment expired, or the incentive, instalment or proof was rejected. */
  EXPIRED_OR_REJECTED: 2,
  /** 100 Menunggu Verifikasi Insentif. */
  INCENTIVE_REVIEW: 100,
  /** 200 Menunggu Pembayaran. */
  AWAITING_PAYMENT: 200,
  /** 300 Pembayaran Diterima. */
  PAYMENT_RECEIVED: 300,
  /** 301 Menunggu Persetujuan Cicilan: an instalment or paylater awaiting the issuer (or the buyer on the gateway's page). */
  INSTALLMENT_REVIEW: 301,
  /** 302 Verifikasi Bukti Transfer: a manual transfer marked paid, its proof awaiting the operators. */
  TRANSFER_REVIEW: 302,
  /** 400 Dalam Pengiriman. */
  SHIPPED: 400,
  /** 500 Selesai: the buyer confirmed the arrival. */
  DONE: 500,
} as const;
export type OrderStatusId = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

const S = ORDER_STATUS;

/** Paid: payment received, shipped, done. */
export const PAID_STATUSES = [S.PAYMENT_RECEIVED, S.SHIPPED, S.DONE] as const;
/** A payment is alive in these: awaiting payment, instalment approval, proof verification. */
export const LIVE_PAYMENT_STATUSES = [S.AWAITING_PAYMENT, S.INSTALLMENT_REVIEW, S.TRANSFER_REVIEW] as const;
/** Spec §4: the buyer may cancel while nothing has been paid or shipped. */
export const CANCELLABLE_STATUSES = [S.INCENTIVE_REVIEW, ...LIVE_PAYMENT_STATUSES] as const;
/** Closed without a sale: they no longer hold a unit of stock, an incentive or an employee promo. */
export const RELEASED_STATUSES = [S.CANCELLED, S.EXPIRED_OR_REJECTED] as const;
/** Closed for good: an order in one of these never changes again (what retention waits for). */
export const FINAL_STATUSES = [...RELEASED_STATUSES, S.DONE] as const;
/** Waiting for an operator's decision (the back office's queues). */
export const AWAITING_OPERATOR_STATUSES = [S.INCENTIVE_REVIEW, S.INSTALLMENT_REVIEW, S.TRANSFER_REVIEW, S.PAYMENT_RECEIVED] as const;
/** Spec §4 order of display: the path of an order first, then its endings. */
export const STATUS_DISPLAY_ORDER = [
  S.INCENTIVE_REVIEW,
  S.AWAITING_PAYMENT,
  S.INSTALLMENT_REVIEW,
  S.TRANSFER_REVIEW,
  S.PAYMENT_RECEIVED,
  S.SHIPPED,
  S.DONE,
  S.CANCELLED,
  S.EXPIRED_OR_REJECTED,
] as const;

/**
 * DESIGN §6: the statuses each status may move to (the one status machine).
 *   100 → 200 approved, 1 buyer cancel, 2 rejected
 *   200 → 301 instalment/paylater submitted, 302 transfer proof sent, 300 gateway settlement,
 *         1 buyer cancel, 2 payment expired
 *   301 → 300 approved, 1 buyer cancel, 2 rejected
 *   302 → 300 proof verified, 200 proof rejected (the buyer may upload another), 1 buyer cancel, 2 rejected for good
 *   300 → 400 shipped, 1 the store cannot deliver ('Batalkan dan Kembalikan Dana', a refund in the
 *         same transaction: a departure from the spec's table, decision 0057)
 *   400 → 500 buyer confirmed arrival;  500, 1, 2: terminal.
 */
export const ORDER_TRANSITIONS: Record<OrderStatusId, readonly OrderStatusId[]> = {
  [S.INCENTIVE_REVIEW]: [S.AWAITING_PAYMENT, S.CANCELLED, S.EXPIRED_OR_REJECTED],
  [S.AWAITING_PAYMENT]: [S.INSTALLMENT_REVIEW, S.TRANSFER_REVIEW, S.PAYMENT_RECEIVED, S.CANCELLED, S.EXPIRED_OR_REJECTED],
  [S.INSTALLMENT_REVIEW]: [S.PAYMENT_RECEIVED, S.CANCELLED, S.EXPIRED_OR_REJECTED],
  [S.TRANSFER_REVIEW]: [S.PAYMENT_RECEIVED, S.AWAITING_PAYMENT, S.CANCELLED, S.EXPIRED_OR_REJECTED],
  [S.PAYMENT_RECEIVED]: [S.SHIPPED, S.CANCELLED],
  [S.SHIPPED]: [S.DONE],
  [S.DONE]: [],
  [S.CANCELLED]: [],
  [S.EXPIRED_OR_REJECTED]: [],
};

const within = (set: readonly number[]) => (statusId: number) => set.includes(statusId);
export const isPaidStatus = within(PAID_STATUSES);
export const isLivePaymentStatus = within(LIVE_PAYMENT_STATUSES);
export const isCancellableStatus = within(CANCELLABLE_STATUSES);
export const isReleasedStatus = within(RELEASED_STATUSES);
export const isOrderStatusId = (value: number): value is OrderStatusId => Object.hasOwn(ORDER_TRANSITIONS, value);
export const canTransition = (from: number, to: number) =>
  isOrderStatusId(from) && isOrderStatusId(to) && ORDER_TRANSITIONS[from].includes(to);

/** Spec §4: colour of the status bar on the order detail, by status id. */
export type StatusTone = "danger" | "warning" | "primary" | "success" | "info";

export function statusTone(statusId: number): StatusTone {
  if (isReleasedStatus(statusId)) return "danger";
  if (statusId === S.INCENTIVE_REVIEW || isLivePaymentStatus(statusId) || statusId === S.PAYMENT_RECEIVED) return "warning";
  if (statusId === S.SHIPPED) return "primary";
  if (statusId === S.DONE) return "success";
  return "info";
}
