// Which buttons an order shows (spec §4 "Actions by status", DESIGN §6). Runs on both sides: the
// screens render from it and the store's actions refuse what it would not offer.

import { isCancellableStatus, ORDER_STATUS } from "./order-status";

export type OrderForActions = { id: number; statusId: number; paymentMethodId: number | null; redirectUrl: string | null };
export type PayAction = { label: "Pilih Metode Pembayaran" | "Lihat Cara Bayar" | "Lanjutkan Pembayaran"; href: string; external: boolean };

export const canCancel = isCancellableStatus;
export const canConfirmArrival = (statusId: number) => statusId === ORDER_STATUS.SHIPPED;

/**
 * The payment button of an order waiting for payment (200): no method yet → choose one; a gateway
 * page to go back to → continue there (also in 301); else the how-to-pay page. Null otherwise.
 */
export function payAction(order: OrderForActions): PayAction | null {
  // Only a web address is followed (the gateway gives it; anything else is ignored). A card
  // instalment waits in 301 while its gateway page (Midtrans Snap) is still open.
  const gatewayPage = order.redirectUrl && /^https?:\/\//i.test(order.redirectUrl) ? order.redirectUrl : null;
  if (gatewayPage && (order.statusId === ORDER_STATUS.AWAITING_PAYMENT || order.statusId === ORDER_STATUS.INSTALLMENT_REVIEW))
    return { label: "Lanjutkan Pembayaran", href: gatewayPage, external: true };
  if (order.statusId !== ORDER_STATUS.AWAITING_PAYMENT) return null;
  if (order.paymentMethodId === null)
    return { label: "Pilih Metode Pembayaran", href: `/paymentmethod?orderId=${order.id}`, external: false };
  return { label: "Lihat Cara Bayar", href: `/payment/${order.id}`, external: false };
}

/** The one button of a card in the list (spec §2): continue or see how to pay, else 'Lihat Detail'. */
export function listAction(order: OrderForActions): PayAction | { label: "Lihat Detail"; href: string; external: false } {
  const pay = payAction(order);
  if (pay && pay.label !== "Pilih Metode Pembayaran") return pay;
  return { label: "Lihat Detail", href: `/transaction-detail/${order.id}`, external: false };
}

export type OrderActions = { cancel: boolean; pay: PayAction | null; confirm: boolean };

export function orderActions(order: OrderForActions): OrderActions {
  return { cancel: canCancel(order.statusId), pay: payAction(order), confirm: canConfirmArrival(order.statusId) };
}
