import { and, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { refundEvents, refunds } from "../../db/schema";
import { recordAudit } from "../people";
import { announceRefundEvent } from "./refund-messages";
import { isId, recordReceipt, REFUND_NOT_FOUND, REFUND_REFUSED } from "./refunds";
import type { FinanceActor } from "./finance";
import { FUNDS_AMOUNT_INVALID, FUNDS_AMOUNT_REQUIRED, FUNDS_NOTE_MAX, FUNDS_NOTE_REQUIRED, type RefundState } from "~/lib/refunds";

// 'Konfirmasi Dana' (issue 45 item 2): a manual transfer's refund waits in 'Menunggu Konfirmasi
// Dana' until finance has checked the store's bank statement. Finance enters the amount that
// actually arrived: that amount becomes a receipt (source 'transfer-confirmed') and the refund owes
// exactly it ('Menunggu Data Rekening', or 'Sedang Diproses' when the buyer already gave an
// account); 0 closes it as 'Dana tidak diterima' with finance's reason, which the buyer is told.
// One conditional update (… WHERE state = 'awaiting-funds'), the receipt, the event row, the audit
// and the buyer's message, in one transaction: a second press finds the state moved and changes nothing.

/** The largest amount a form may say arrived (the amounts are int4 rupiah). */
const AMOUNT_MAX = 2_147_483_647;

export type FundsInput = { amount?: string | number; note?: string };

/** The form's checks: a whole number of rupiah (dots as thousands separators are dropped), and a reason for 0. */
export function checkFundsInput(
  input: FundsInput,
): { ok: true; amount: number; note: string } | { ok: false; errors: Partial<Record<"amount" | "note", string>> } {
  const raw = typeof input.amount === "number" ? String(input.amount) : (input.amount ?? "").trim().replace(/^Rp\s*/i, "");
  const note = (input.note ?? "").trim().slice(0, FUNDS_NOTE_MAX);
  if (!raw) return { ok: false, errors: { amount: FUNDS_AMOUNT_REQUIRED } };
  const digits = raw.replace(/\./g, "");
  if (!/^\d{1,10}$/.test(digits) || Number(digits) > AMOUNT_MAX) return { ok: false, errors: { amount: FUNDS_AMOUNT_INVALID } };
  const amount = Number(digits);
  if (amount === 0 && !note) return { ok: false, errors: { note: FUNDS_NOTE_REQUIRED } };
  return { ok: true, amount, note };
}

export type FundsResult =
  | { ok: true; state: RefundState }
  | { ok: false; kind: "invalid"; errors: Partial<Record<"amount" | "note", string>>; message: string }
  | { ok: false; kind: "not-found" | "refused"; message: string };

export async function confirmRefundFunds(refundId: number, actor: FinanceActor, input: FundsInput): Promise<FundsResult> {
  const checked = checkFundsInput(input);
  if (!checked.ok) return { ok: false, kind: "invalid", errors: checked.errors, message: Object.values(checked.errors)[0]! };
  if (!isId(refundId)) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  const label = actor === "cli" ? "ops" : `operator:${actor.operatorId}`;
  const db = await getDb();
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const [refund] = await tx
      .select({ orderId: refunds.orderId, state: refunds.state, accountGivenAt: refunds.accountGivenAt, expected: refunds.expectedAmount })
      .from(refunds)
      .where(eq(refunds.id, refundId))
      .for("update");
    if (!refund) return "not-found" as const;
    if (refund.state !== "awaiting-funds") return "refused" as const;
    const { amount, note } = checked;
    const to: RefundState = amount === 0 ? "not-received" : refund.accountGivenAt ? "processing" : "awaiting-account";
    const moved = await tx
      .update(refunds)
      .set({
        state: to,
        // 0 arrived: the refund keeps the amount that was expected, for the record; it owes nothing.
        ...(amount > 0 ? { amount } : { failureReason: note }),
        fundsConfirmedAt: now,
        fundsConfirmedBy: label,
        fundsNote: note || null,
        updatedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.state, "awaiting-funds")))
      .returning({ id: refunds.id });
    if (!moved.length) return "refused" as const;
    if (amount > 0) {
      const recorded = await recordReceipt(tx, {
        orderId: refund.orderId,
        amount,
        source: "transfer-confirmed",
        ref: `refund:${refundId}:funds`,
      });
      if (!recorded) throw new Error(`refund ${refundId}: its funds were already received`);
    }
    const words =
      amount === 0
        ? `Dana tidak diterima: ${note}`
        : `Dana diterima Rp ${amount.toLocaleString("id-ID")}${refund.expected !== null && refund.expected !== amount ? ` (diharapkan Rp ${refund.expected.toLocaleString("id-ID")})` : ""}${note ? `: ${note}` : ""}`;
    const [event] = await tx
      .insert(refundEvents)
      .values({ refundId, fromState: "awaiting-funds", toState: to, actor: label, note: words.slice(0, 1000), createdAt: now })
      .returning({ id: refundEvents.id });
    if (actor !== "cli")
      await recordAudit(tx, actor.operatorId, "refund-funds-confirmed", {
        orderId: refund.orderId,
        detail: `refund ${refundId}: ${amount}`,
      });
    await announceRefundEvent(tx, event!.id);
    return to;
  });
  if (result !== "not-found" && result !== "refused") return { ok: true, state: result };
  if (result === "not-found") return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  if (actor !== "cli") await recordAudit(null, actor.operatorId, "refund-refused", { detail: `funds refund ${refundId}` });
  return { ok: false, kind: "refused", message: `${REFUND_REFUSED} Dana pengembalian ini sudah dikonfirmasi lebih dulu.` };
}
