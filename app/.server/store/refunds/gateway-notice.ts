import { and, eq, inArray } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { paymentIncidents, refundEvents, refunds } from "../../db/schema";
import { log } from "../../log";
import { refundKey, settleRefundedAtGateway } from "./finance";
import { getRefund, isId, moveRefund, REFUND_TRANSITIONS, type Refund } from "./refunds";
import { REFERENCE_MAX, type PaymentIncidentKind } from "~/lib/refunds";

// The gateway's word that a card refund was made (Midtrans's `refund` / `partial_refund`
// notification, read from its status API), applied to the store's refunds whatever became of them
// (issue 45 item 3, decision 0072). A refund Midtrans refused on the call was turned into a bank
// transfer; if Midtrans gives the money back after all, that transfer must not be paid too.

/** How often a refund is read again when a concurrent change (finance, the buyer) moved it first. */
const ATTEMPTS = 3;

/**
 * Settles the store's refunds of payment `gatewayRef` whose keys the gateway lists (each with the
 * gateway's reference for it). Returns how many changed (0 for a notification already applied).
 */
export async function settleGatewayRefundNotice(
  gateway: string,
  gatewayRef: string,
  listed: { key: string; reference: string }[],
): Promise<number> {
  const references = new Map<number, string>();
  for (const { key, reference } of listed) {
    const id = Number(/^refund-(\d{1,10})$/.exec(key)?.[1]);
    if (isId(id)) references.set(id, reference);
  }
  if (!references.size) return 0;
  const db = await getDb();
  // Every method and state: a card refund turned into a transfer keeps its gateway and reference.
  const named = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(inArray(refunds.id, [...references.keys()]), eq(refunds.gateway, gateway), eq(refunds.gatewayRef, gatewayRef)));
  let changed = 0;
  for (const { id } of named) if (await settleOne(id, references.get(id)!)) changed++;
  return changed;
}

async function settleOne(refundId: number, reference: string): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const refund = await getRefund(refundId);
    if (!refund) return false;
    if (refund.method === "gateway") {
      // Still a card refund: given back now, or already (a repeated notification).
      if (refund.state !== "processing") return false;
      if (await settleRefundedAtGateway(refundId, reference, "gateway")) return true;
      continue;
    }
    // Turned into a bank transfer after a refusal, and the card got the money all the same.
    if (refund.state === "refunded") return recordRefundedTwice(refund, reference);
    if (!REFUND_TRANSITIONS[refund.state].includes("refunded")) return false;
    if (await stopTransfer(refund, reference)) return true;
  }
  log.warn({ refundId }, "refunds: the gateway's refund could not be applied; the refund kept changing");
  return false;
}

/**
 * The transfer is not made yet (waiting for the buyer's account, for finance, or failed): the refund
 * is what it first was, a card refund given back by the gateway ('Dana Telah Dikembalikan', a
 * terminal state, so nobody can mark it transferred any more), and finance gets an incident: a bulk
 * transfer file made before may still carry it.
 */
async function stopTransfer(refund: Refund, reference: string): Promise<boolean> {
  const now = new Date();
  return moveRefund(
    refund.id,
    refund.state,
    "refunded",
    "gateway",
    {
      changes: { method: "gateway", transferReference: reference.slice(0, REFERENCE_MAX), refundedAt: now, failureReason: null },
      note: `Dikembalikan via gateway (${reference}); transfer bank dihentikan`,
      onlyMethod: "transfer",
      onMoved: (tx) =>
        raiseIncident(tx, refund, "refund-transfer-stopped", {
          detail: `The gateway refunded ${refundKey(refund.id)} (${reference}) to the card after the store had turned it into a bank transfer (${refund.state}); the transfer is stopped. Make sure no bank transfer of it goes out.`,
        }).then(() => undefined),
    },
    now,
  );
}

/**
 * Finance had already transferred it: the buyer got the money twice. The refund stays as it is (its
 * transfer happened); the gateway's refund is an event on it without a change of state, and an
 * incident asks finance to recover one. Once per refund (the incident's key), written together.
 */
async function recordRefundedTwice(refund: Refund, reference: string): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const raised = await raiseIncident(tx, refund, "refunded-twice", {
      detail: `The gateway refunded ${refundKey(refund.id)} (${reference}) to the card after finance had transferred it (${refund.transferReference ?? "no reference"}): given back twice. Recover one from the buyer.`,
    });
    if (!raised) return false;
    await tx.insert(refundEvents).values({
      refundId: refund.id,
      fromState: "refunded",
      toState: "refunded",
      actor: "gateway",
      note: `Midtrans juga mengembalikan dana ke kartu (${reference}): dana dikembalikan dua kali`.slice(0, 1000),
      createdAt: new Date(),
    });
    log.warn({ refundId: refund.id }, "refunds: the gateway refunded a refund finance had already transferred");
    return true;
  });
}

/**
 * An incident for /ops/refunds' 'Insiden Pembayaran', in the transaction of the refund's change. The
 * payments domain owns the incidents but imports this one (its settlements create refunds), so the
 * row is written here; its key is the refund's (one per refund and kind). No receipt and no new
 * refund: no money came in. True when this call raised it.
 */
async function raiseIncident(tx: Executor, refund: Refund, kind: PaymentIncidentKind, incident: { detail: string }): Promise<boolean> {
  const inserted = await tx
    .insert(paymentIncidents)
    .values({
      kind,
      orderId: refund.orderId,
      gateway: refund.gateway ?? "-",
      gatewayRef: refundKey(refund.id),
      amount: refund.amount,
      detail: incident.detail.slice(0, 1000),
    })
    .onConflictDoNothing()
    .returning({ id: paymentIncidents.id });
  return inserted.length > 0;
}
