import { eq, isNull, like, sql } from "drizzle-orm";
import { refunds } from "../../db/schema";
import { gatewayNamed } from "../../gateway";
import { log } from "../../log";
import { recordAudit } from "../people";
import { getRefund, moveRefund, REFUND_NOT_FOUND, REFUND_REFUSED } from "./refunds";
import { FAILURE_REASON_MAX, REFERENCE_MAX } from "~/lib/refunds";

// What finance does with a refund (/ops/refunds and the ops CLI, issue 36 item 4): a transfer refund
// is marked transferred with the bank's reference (and perhaps a proof image) or failed with a
// reason (back to the buyer for new details); a card refund goes back through the gateway's refund
// API with the refund's id as its key, so pressing twice (or a retry after a timeout) refunds once.
// Every step writes an audit row in the transaction of the change.

export const REFERENCE_REQUIRED = "Nomor Referensi Transfer tidak boleh kosong.";
export const REFERENCE_TOO_LONG = `Nomor Referensi Transfer maksimal ${REFERENCE_MAX} karakter.`;
export const FAILURE_REASON_REQUIRED = "Alasan tidak boleh kosong.";
export const ACCOUNT_CHANGED = "Data rekening pembeli sudah berubah. Periksa data rekening yang baru sebelum menandai transfer.";
export const ACCOUNT_NOT_MATCHING =
  "Nomor rekening tidak sama dengan data rekening pembeli saat ini. Periksa data rekening yang terbaru sebelum menandai transfer.";
export const ACCOUNT_DIGITS_INVALID = "Nomor rekening harus berupa angka, paling sedikit 4 digit terakhir.";

/** Who acts: an operator (their id goes in the event and the audit) or the CLI. */
export type FinanceActor = { operatorId: number } | "cli";
const actorLabel = (actor: FinanceActor) => (actor === "cli" ? "ops" : `operator:${actor.operatorId}`);

export type FinanceResult =
  | { ok: true; already?: boolean }
  | { ok: false; kind: "invalid"; errors: Partial<Record<"reference" | "reason" | "account", string>>; message: string }
  | { ok: false; kind: "not-found" | "refused" | "unreachable" | "account-changed"; message: string };

/**
 * The buyer's details a transfer was made to, as finance saw them (issue 45 item 6): after 'Gagal'
 * the buyer sends new details and the refund is 'Sedang Diproses' again, so an old page's press
 * would record a transfer to the old account. /ops/refunds' form carries the version of the details
 * it showed (`accountVersionOf`: when they were given; a new submission or a correction moves it);
 * the CLI, where nobody copies a timestamp, the last digits (4 or more) of the account number the
 * money went to. The transfer is recorded only while they still hold, in the same conditional update.
 */
export type ShownAccount = { version: string | null } | { numberEndsWith: string };

/** The version of a refund's bank details, as /ops/refunds' form carries it ("" before any were given). */
export const accountVersionOf = (refund: { accountGivenAt: Date | null }) =>
  refund.accountGivenAt ? String(refund.accountGivenAt.getTime()) : "";

/** The condition under which the shown details are still the refund's (a malformed version never holds). */
function stillShown(shown: ShownAccount) {
  if ("numberEndsWith" in shown) return like(refunds.accountNumber, `%${shown.numberEndsWith}`);
  if (shown.version === "") return isNull(refunds.accountGivenAt);
  if (shown.version === null || !/^\d{1,15}$/.test(shown.version)) return sql`false`;
  return eq(refunds.accountGivenAt, new Date(Number(shown.version)));
}

/** 'Tandai Sudah Ditransfer': a transfer refund in 'Sedang Diproses' → 'Dana Telah Dikembalikan'. */
export async function markRefundTransferred(
  refundId: number,
  actor: FinanceActor,
  input: { reference?: string; proofUploadId?: string | null; account: ShownAccount },
): Promise<FinanceResult> {
  const reference = (input.reference ?? "").trim();
  if (!reference) return { ok: false, kind: "invalid", errors: { reference: REFERENCE_REQUIRED }, message: REFERENCE_REQUIRED };
  if (reference.length > REFERENCE_MAX)
    return { ok: false, kind: "invalid", errors: { reference: REFERENCE_TOO_LONG }, message: REFERENCE_TOO_LONG };
  // Digits only: the LIKE pattern then holds no wildcard of the caller's.
  if ("numberEndsWith" in input.account && !/^\d{4,20}$/.test(input.account.numberEndsWith))
    return { ok: false, kind: "invalid", errors: { account: ACCOUNT_DIGITS_INVALID }, message: ACCOUNT_DIGITS_INVALID };
  const refund = await getRefund(refundId);
  if (!refund) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  const now = new Date();
  const moved = await moveRefund(
    refundId,
    "processing",
    "refunded",
    actorLabel(actor),
    {
      changes: { transferReference: reference, proofUploadId: input.proofUploadId ?? null, refundedAt: now },
      note: `Ditransfer, referensi ${reference}`,
      onlyMethod: "transfer",
      onlyWhile: stillShown(input.account),
      onMoved: async (tx) => {
        if (actor !== "cli")
          await recordAudit(tx, actor.operatorId, "refund-transferred", {
            orderId: refund.orderId,
            detail: `refund ${refundId}: ${reference}`,
          });
      },
    },
    now,
  );
  if (moved) return { ok: true };
  const current = await getRefund(refundId);
  // Still waiting for the transfer, so the details were what stopped it: say so, not "processed".
  if (current?.state === "processing" && current.method === "transfer") {
    if (actor !== "cli")
      await recordAudit(null, actor.operatorId, "refund-refused", {
        orderId: refund.orderId,
        detail: `refund-transferred refund ${refundId}: account changed`,
      });
    return { ok: false, kind: "account-changed", message: "version" in input.account ? ACCOUNT_CHANGED : ACCOUNT_NOT_MATCHING };
  }
  return refusedNow(refundId, actor, "refund-transferred");
}

/** 'Gagal': 'Sedang Diproses' → 'Gagal Diproses' with a reason; the buyer is asked for (new) details. */
export async function failRefund(refundId: number, actor: FinanceActor, input: { reason?: string }): Promise<FinanceResult> {
  const reason = (input.reason ?? "").trim().slice(0, FAILURE_REASON_MAX);
  if (!reason) return { ok: false, kind: "invalid", errors: { reason: FAILURE_REASON_REQUIRED }, message: FAILURE_REASON_REQUIRED };
  const refund = await getRefund(refundId);
  if (!refund) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  const moved = await moveRefund(refundId, "processing", "failed", actorLabel(actor), {
    changes: { failureReason: reason },
    note: reason,
    onlyMethod: "transfer",
    onMoved: async (tx) => {
      if (actor !== "cli")
        await recordAudit(tx, actor.operatorId, "refund-failed", { orderId: refund.orderId, detail: `refund ${refundId}: ${reason}` });
    },
  });
  return moved ? { ok: true } : refusedNow(refundId, actor, "refund-failed");
}

/**
 * 'Kembalikan via Midtrans': asks the payment's gateway to refund (refund_key = `refund-<id>`, the
 * same on every press) and settles on its answer: given back → 'Dana Telah Dikembalikan'; refused
 * → 'Gagal Diproses' and the refund becomes a bank transfer (the buyer is asked for an account); no
 * answer → nothing changes, finance presses again later (the same key: never twice).
 */
export async function refundThroughGateway(refundId: number, actor: FinanceActor): Promise<FinanceResult> {
  const refund = await getRefund(refundId);
  if (!refund) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  if (refund.method !== "gateway" || !refund.gatewayRef || !refund.gateway) return { ok: false, kind: "refused", message: REFUND_REFUSED };
  if (refund.state === "refunded") return { ok: true, already: true };
  if (refund.state !== "processing") return { ok: false, kind: "refused", message: REFUND_REFUSED };
  const gateway = gatewayNamed(refund.gateway);
  if (!gateway?.refund) return { ok: false, kind: "refused", message: REFUND_REFUSED };
  const answer = await gateway.refund(refund.gatewayRef, { amount: refund.amount, key: refundKey(refundId), reason: refund.reason });
  const label = actorLabel(actor);
  const audit = (action: "refund-gateway" | "refund-gateway-refused", detail: string) => async (tx: Parameters<typeof recordAudit>[0]) => {
    if (actor !== "cli")
      await recordAudit(tx, actor.operatorId, action, { orderId: refund.orderId, detail: `refund ${refundId}: ${detail}` });
  };
  switch (answer.kind) {
    case "refunded": {
      const moved = await settleRefundedAtGateway(refundId, answer.reference, label, audit("refund-gateway", answer.reference));
      return moved ? { ok: true } : { ok: true, already: true };
    }
    case "refused": {
      log.warn({ refundId, gateway: gateway.name, reason: answer.reason }, "refunds: the gateway refused the refund");
      const moved = await moveRefund(refundId, "processing", "failed", label, {
        changes: { failureReason: "Pengembalian ke kartu ditolak oleh penyedia pembayaran.", method: "transfer" },
        note: answer.reason,
        onlyMethod: "gateway",
        onMoved: audit("refund-gateway-refused", answer.reason),
      });
      return moved
        ? { ok: false, kind: "refused", message: "Midtrans menolak pengembalian dana. Pembeli diminta mengirim data rekening." }
        : refusedNow(refundId, actor, "refund-gateway-refused");
    }
    case "unreachable":
      log.warn({ refundId, gateway: gateway.name, reason: answer.reason }, "refunds: no answer from the gateway to the refund");
      return {
        ok: false,
        kind: "unreachable",
        message: "Midtrans tidak dapat dihubungi. Silakan coba lagi; dana tidak akan dikembalikan dua kali.",
      };
  }
}

/** The key of a refund at the gateway (Midtrans refund_key): one per refund, the same on every try. */
export const refundKey = (refundId: number) => `refund-${refundId}`;

/** A card refund in 'Sedang Diproses' given back by the gateway → 'Dana Telah Dikembalikan' (also gateway-notice.ts). */
export async function settleRefundedAtGateway(
  refundId: number,
  reference: string,
  actor: string,
  onMoved?: (tx: Parameters<typeof recordAudit>[0]) => Promise<void>,
): Promise<boolean> {
  const now = new Date();
  return moveRefund(
    refundId,
    "processing",
    "refunded",
    actor,
    {
      changes: { transferReference: reference.slice(0, REFERENCE_MAX), refundedAt: now },
      note: `Dikembalikan via gateway (${reference})`,
      onlyMethod: "gateway",
      onMoved,
    },
    now,
  );
}

async function refusedNow(
  refundId: number,
  actor: FinanceActor,
  action: "refund-transferred" | "refund-failed" | "refund-gateway-refused",
): Promise<FinanceResult> {
  const refund = await getRefund(refundId);
  if (!refund) return { ok: false, kind: "not-found", message: REFUND_NOT_FOUND };
  if (actor !== "cli")
    await recordAudit(null, actor.operatorId, "refund-refused", {
      orderId: refund.orderId,
      detail: `${action} refund ${refundId}: state ${refund.state}`,
    });
  return { ok: false, kind: "refused", message: `${REFUND_REFUSED} Pengembalian dana ini sudah diproses lebih dulu.` };
}
