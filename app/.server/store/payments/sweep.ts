import { env } from "../../env";
import { expireOverduePayments } from "./settlement";
import { closeMidtransPaymentsOfClosedOrders, reconcileMidtransPayments, type MidtransDecision } from "./midtrans-settle";

// The payment sweep the server runs every minute (entry.server.tsx) and ops on demand
// (`npm run ops -- orders:expire`): first the reconciliation with a real gateway (a missed
// notification still settles or closes its order; a payment whose order was cancelled elsewhere is
// expired at Midtrans), then the store's own expiry (which asks the gateway to expire each payment
// before it does). Safe in several instances at once: each payment
// is claimed by one conditional update, and every transition is one.

export async function runPaymentSweep(now = new Date()): Promise<{ expired: number[]; reconciled: MidtransDecision[] }> {
  const reconciled = env().midtrans ? [...(await reconcileMidtransPayments(now)), ...(await closeMidtransPaymentsOfClosedOrders())] : [];
  const expired = await expireOverduePayments(now);
  return { expired, reconciled };
}

/** A one-line summary for the server's log; null when the sweep changed nothing. */
export function sweepSummary(result: Awaited<ReturnType<typeof runPaymentSweep>>): string | null {
  const changed = result.reconciled.filter((d) => d.outcome !== "pending" && d.outcome !== "replay");
  const parts: string[] = [];
  if (result.expired.length) parts.push(`${result.expired.length} overdue payment(s) expired`);
  if (changed.length)
    parts.push(`Midtrans reconciliation: ${changed.map((d) => `${d.outcome}${d.orderId ? ` order=${d.orderId}` : ""}`).join(", ")}`);
  return parts.length ? `payments: ${parts.join("; ")}` : null;
}
