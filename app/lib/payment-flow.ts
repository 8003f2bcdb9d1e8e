// The payment screens' trail (issue 7): /paymentmethod → /paymentmethodlist → /tenorlist → /otp.
// For the checkout draft the choice is saved on the draft; for an existing order (an approved
// incentive order, `?orderId=`) nothing is saved until 'continue', so the choice travels in the
// address: `?orderId=&paymentMethodId=&tenor=`. Runs on both sides (links are built in components).

export type PaymentFlow = {
  /** The order being paid (set-payment); absent: the checkout draft. */
  orderId?: number;
  /** Only for an order: the method chosen on the list, not saved yet. */
  paymentMethodId?: number;
  /** Only for an order: the tenor chosen on the tenor list, not saved yet. */
  tenor?: number;
};

const ID = /^[1-9]\d{0,9}$/;
const asId = (value: string | null) => (value !== null && ID.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : undefined);

/**
 * The trail from an address. `invalid`: an orderId was given but is no id (the screens then have
 * nothing to pay and send the buyer to /transaction, as for an unknown order).
 */
export function readPaymentFlow(search: URLSearchParams): PaymentFlow & { invalid: boolean } {
  const rawOrderId = search.get("orderId");
  const orderId = asId(rawOrderId);
  if (rawOrderId !== null && orderId === undefined) return { invalid: true };
  if (orderId === undefined) return { invalid: false };
  return { invalid: false, orderId, paymentMethodId: asId(search.get("paymentMethodId")), tenor: asId(search.get("tenor")) };
}

/** `path` with the trail of an order (nothing for the draft). */
export function paymentFlowHref(path: string, flow: PaymentFlow): string {
  if (flow.orderId === undefined) return path;
  const search = new URLSearchParams({ orderId: String(flow.orderId) });
  if (flow.paymentMethodId !== undefined) search.set("paymentMethodId", String(flow.paymentMethodId));
  if (flow.tenor !== undefined) search.set("tenor", String(flow.tenor));
  return `${path}?${search}`;
}

/** Where a payment continues: the gateway's page when it gives a web address, else /payment/{id}. */
export function paymentPageHref(orderId: number, redirectUrl: string | null): string {
  return redirectUrl && /^https?:\/\//i.test(redirectUrl) ? redirectUrl : `/payment/${orderId}`;
}

/** The spec's countdown: hours:minutes:seconds, each two digits (23:59:59). */
export function formatHms(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/**
 * Spec §8: a paylater (BRI-CERIA) failure whose message is a valid URL sends the browser there (the
 * provider's page to finish, e.g., a registration); any other message is shown. http(s) only: a
 * `javascript:` or `data:` "URL" is a message like any other.
 */
export function paylaterFailureUrl(message: string): string | null {
  const text = message.trim();
  if (!/^https?:\/\/\S+$/i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
