import { asc, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { gatewayCharges } from "../db/schema";

// The charge attempts a real gateway adapter makes (decision 0021), so that one order never has two
// open charges at the gateway: each attempt is reserved in gateway_charges before its request is
// sent, and its outcome recorded after. The gateway's own bookkeeping, below the payments store.

export const GATEWAY_BUSY = "Pembayaran sedang dibuat. Silakan coba lagi sebentar lagi.";

/** An attempt younger than this may still be waiting for the gateway's answer in another request. */
const ATTEMPT_IN_FLIGHT_MS = 30_000;

export type ChargeState = "opening" | "unknown" | "opened" | "failed" | "closed";
export type ChargeAttempt = { ref: string; attempt: number; earlier: { ref: string; state: ChargeState }[] };

/**
 * Reserves the next attempt of an order at a gateway, BEFORE the request is sent. `earlier` lists
 * the previous attempts whose outcome is unknown (a timeout, or a request that died): the caller looks them up at the gateway
 * first. Throws GATEWAY_BUSY when another request is opening this order's payment right now.
 */
export async function beginChargeAttempt(
  gateway: string,
  orderId: number,
  refFor: (attempt: number) => string,
  now = new Date(),
): Promise<ChargeAttempt> {
  const db = await getDb();
  const previous = await db.select().from(gatewayCharges).where(eq(gatewayCharges.orderId, orderId)).orderBy(asc(gatewayCharges.attempt));
  if (previous.some((p) => p.state === "opening" && now.getTime() - p.createdAt.getTime() < ATTEMPT_IN_FLIGHT_MS))
    throw new Error(GATEWAY_BUSY);
  const attempt = (previous.at(-1)?.attempt ?? 0) + 1;
  const ref = refFor(attempt);
  const inserted = await db
    .insert(gatewayCharges)
    .values({ ref, gateway, orderId, attempt, state: "opening", createdAt: now })
    .onConflictDoNothing()
    .returning({ ref: gatewayCharges.ref });
  if (!inserted.length) throw new Error(GATEWAY_BUSY); // a concurrent request took this attempt
  return {
    ref,
    attempt,
    earlier: previous.filter((p) => p.state === "opening" || p.state === "unknown").map((p) => ({ ref: p.ref, state: p.state })),
  };
}

export async function setChargeState(ref: string, state: Exclude<ChargeState, "opening">): Promise<void> {
  const db = await getDb();
  await db.update(gatewayCharges).set({ state }).where(eq(gatewayCharges.ref, ref));
}
