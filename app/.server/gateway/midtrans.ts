import crypto from "node:crypto";
import { env, type MidtransSettings } from "../env";
import { beginChargeAttempt, setChargeState } from "./charge-attempts";
import { jakartaTime, MidtransClient, MidtransError, midtransTime, wholeRupiah, type MidtransTransaction } from "./midtrans-client";
import { sandboxGateway } from "./sandbox";
import type { GatewayClosing, GatewayEvent, GatewayRefund, HowToPay, OpenedPayment, OpenPaymentRequest, PaymentGateway } from "./types";

// Midtrans (PAYMENT_GATEWAY=midtrans, issue 18, decision 0021): virtual accounts through the Core API
// charge (bank_transfer with the method's bank, echannel for Mandiri), the BNI card instalment through
// Snap. A notification body is never trusted: midtrans-webhook.ts checks its signature_key, then
// asks the status API, and only the status API's answer (statusEvent below) reaches the settlement.

export const MIDTRANS = "midtrans";

/** The method codes Midtrans opens as virtual accounts, with the Core API charge that opens each. */
const VA_CHARGE: Record<string, { payment_type: "bank_transfer"; bank: string } | { payment_type: "echannel" }> = {
  "BNI-VA": { payment_type: "bank_transfer", bank: "bni" },
  "BRI-VA": { payment_type: "bank_transfer", bank: "bri" },
  "PERMATA-VA": { payment_type: "bank_transfer", bank: "permata" },
  "BCA-VA": { payment_type: "bank_transfer", bank: "bca" },
  "CIMB-VA": { payment_type: "bank_transfer", bank: "cimb" },
  "MANDIRI-VA": { payment_type: "echannel" },
};
/** Snap's bank key for the instalment terms of a card method. */
const INSTALLMENT_BANK: Record<string, string> = { "BNI-INSTALLMENT": "bni" };

const ORDER_ID_MAX = 50;
const DEFAULT_VALIDITY_MS = 24 * 60 * 60 * 1000;

function settings(): MidtransSettings {
  const midtrans = env().midtrans;
  if (!midtrans) throw new Error("Midtrans is not configured (PAYMENT_GATEWAY=midtrans and MIDTRANS_SERVER_KEY)");
  return midtrans;
}

let cachedClient: { for: MidtransSettings; client: MidtransClient } | undefined;
export function midtransClient(): MidtransClient {
  const current = settings();
  if (cachedClient?.for !== current) cachedClient = { for: current, client: new MidtransClient(current) };
  return cachedClient.client;
}

/**
 * Midtrans's order_id for an attempt: the invoice id made URL-safe (letters, digits, - _ ~ .), at
 * most 50 characters, with "-2", "-3" … when the payment is opened again after a failed attempt.
 */
export function midtransOrderId(invoiceId: string, attempt: number): string {
  const suffix = attempt > 1 ? `-${attempt}` : "";
  return invoiceId.replace(/[^A-Za-z0-9\-_~.]/g, "-").slice(0, ORDER_ID_MAX - suffix.length) + suffix;
}

// ————————————————————————————————————————————— signatures and status

/** signature_key of a notification: SHA-512 hex of order_id + status_code + gross_amount + server key. */
export function midtransSignature(orderId: string, statusCode: string, grossAmount: string, serverKey = settings().serverKey): string {
  return crypto.createHash("sha512").update(`${orderId}${statusCode}${grossAmount}${serverKey}`, "utf8").digest("hex");
}

/** Constant-time check of a notification's signature_key; a malformed one is simply false. */
export function hasValidMidtransSignature(
  body: { order_id: string; status_code: string; gross_amount: string; signature_key: unknown },
  serverKey = settings().serverKey,
): boolean {
  if (typeof body.signature_key !== "string" || !/^[0-9a-f]{128}$/i.test(body.signature_key)) return false;
  const expected = Buffer.from(midtransSignature(body.order_id, body.status_code, body.gross_amount, serverKey), "hex");
  return crypto.timingSafeEqual(expected, Buffer.from(body.signature_key.toLowerCase(), "hex"));
}

export type MidtransVerdict = "paid" | "pending" | "closed" | "other";

/**
 * What a transaction status means for the store (docs.midtrans.com, Transaction Status):
 * settlement, or capture with fraud_status accept → paid; pending, authorize, or a capture under
 * review (challenge) → pending; expire, cancel, deny, failure, or a capture the review denied →
 * closed; refunds and chargebacks →
 * other (an operator's matter, nothing changes here).
 */
export function midtransVerdict(tx: Pick<MidtransTransaction, "transaction_status" | "fraud_status">): MidtransVerdict {
  switch (tx.transaction_status) {
    case "settlement":
      return "paid";
    case "capture":
      // Under fraud review (challenge) until the merchant accepts it, or denies it (then also
      // reported as transaction_status deny).
      return tx.fraud_status === "accept" ? "paid" : tx.fraud_status === "deny" ? "closed" : "pending";
    case "pending":
    case "authorize":
      return "pending";
    case "expire":
    case "cancel":
    case "deny":
    case "failure":
      return "closed";
    default:
      return "other";
  }
}

const EVENT_TYPE: Record<MidtransVerdict, string> = {
  paid: "payment.paid",
  pending: "payment.pending",
  closed: "payment.expired",
  other: "midtrans.other",
};

/**
 * The status API's answer as the event the settlement function takes. Its id is the transaction, its
 * status and its fraud status (everything midtransVerdict reads), so a repeated notification (or the
 * sweep finding what a notification already said) is a replay of the same event, while a capture
 * accepted after a fraud review (challenge → accept) is a new one that settles (issue 25).
 */
export function statusEvent(tx: MidtransTransaction, gatewayRef: string): GatewayEvent {
  const verdict = midtransVerdict(tx);
  const word = (value: string | undefined) => (value ?? "").replace(/[^a-z_]/g, "").slice(0, 30);
  const fraud = word(tx.fraud_status);
  return {
    id: `midtrans:${(tx.transaction_id ?? gatewayRef).slice(0, 60)}:${word(tx.transaction_status) || "unknown"}${fraud ? `:${fraud}` : ""}`,
    type: verdict === "other" ? `midtrans.${word(tx.transaction_status) || "unknown"}` : EVENT_TYPE[verdict],
    vaNumber: null,
    gatewayRef,
    amount: wholeRupiah(tx.gross_amount),
    paidAt: verdict === "paid" ? (jakartaTime(tx.settlement_time) ?? jakartaTime(tx.transaction_time)) : null,
    gatewayEnforcesDeadline: true,
  };
}

// ————————————————————————————————————————————— opening

function customerOf(request: OpenPaymentRequest) {
  return {
    first_name: request.customer.name.slice(0, 255),
    email: request.customer.email.slice(0, 255),
    phone: request.customer.phone.slice(0, 19),
  };
}

/** The payment a charge (or a status answer about an earlier attempt) describes; null when it names no VA. */
function openedFromCharge(tx: MidtransTransaction, ref: string, expiresAt: Date | null): OpenedPayment | null {
  if (tx.bill_key && tx.biller_code)
    return { vaNumber: tx.bill_key, billerCode: tx.biller_code, expiresAt, redirectUrl: null, gatewayRef: ref };
  const va = tx.va_numbers?.[0]?.va_number ?? tx.permata_va_number;
  return va ? { vaNumber: va, billerCode: null, expiresAt, redirectUrl: null, gatewayRef: ref } : null;
}

/**
 * Before a new attempt: the earlier attempts whose answer never came. One Midtrans still holds as
 * payable is taken over (so no second charge is made); one that exists but cannot be taken over is
 * expired there; one Midtrans never heard of is forgotten. Throws when Midtrans cannot be asked.
 */
async function resolveEarlierAttempts(earlier: { ref: string }[], expiresAt: Date | null): Promise<OpenedPayment | null> {
  const client = midtransClient();
  for (const { ref } of earlier) {
    const tx = await client.status(ref);
    if (!tx) {
      await setChargeState(ref, "closed");
      continue;
    }
    const verdict = midtransVerdict(tx);
    const adopted = verdict === "pending" || verdict === "paid" ? openedFromCharge(tx, ref, expiryOf(tx) ?? expiresAt) : null;
    if (adopted) {
      await setChargeState(ref, "opened");
      return adopted;
    }
    if (verdict === "pending") await client.expire(ref);
    await setChargeState(ref, "closed");
  }
  return null;
}

const expiryOf = (tx: MidtransTransaction) => jakartaTime(tx.expiry_time);

async function openAtMidtrans(request: OpenPaymentRequest): Promise<OpenedPayment> {
  const now = new Date();
  const deadline = request.deadline ?? new Date(now.getTime() + DEFAULT_VALIDITY_MS);
  // Whole minutes, rounded down: the store never expires a payment Midtrans would still accept.
  const minutes = Math.max(1, Math.floor((deadline.getTime() - now.getTime()) / 60_000));
  const expiresAt = new Date(now.getTime() + minutes * 60_000);
  const isVa = request.method.type === "virtual_account";
  const vaCharge = VA_CHARGE[request.method.code];
  const cardBank = INSTALLMENT_BANK[request.method.code];
  if (isVa ? !vaCharge : !cardBank) throw new Error(`midtrans gateway: ${request.method.code} is not a Midtrans method`);

  const attempt = await beginChargeAttempt(MIDTRANS, request.orderId, (n) => midtransOrderId(request.invoiceId, n), now);
  let adopted: OpenedPayment | null;
  try {
    adopted = await resolveEarlierAttempts(attempt.earlier, isVa ? expiresAt : null);
  } catch (error) {
    await setChargeState(attempt.ref, "failed"); // nothing was sent for this attempt
    throw error;
  }
  if (adopted) {
    await setChargeState(attempt.ref, "failed");
    return adopted;
  }

  const client = midtransClient();
  const transaction_details = { order_id: attempt.ref, gross_amount: request.total };
  try {
    if (isVa) {
      const charge = vaCharge!;
      const tx = await client.charge({
        payment_type: charge.payment_type,
        transaction_details,
        customer_details: customerOf(request),
        custom_expiry: { order_time: midtransTime(now), expiry_duration: minutes, unit: "minute" },
        ...(charge.payment_type === "bank_transfer"
          ? { bank_transfer: { bank: charge.bank } }
          : { echannel: { bill_info1: "Pembayaran:", bill_info2: request.invoiceId.slice(0, 18) } }),
      });
      const opened = openedFromCharge(tx, attempt.ref, expiresAt);
      if (!opened) throw new MidtransError(`Midtrans charge ${attempt.ref}: no virtual account in the answer`, 200, tx.status_code);
      await setChargeState(attempt.ref, "opened");
      return opened;
    }
    const snap = await client.snap({
      transaction_details,
      enabled_payments: ["credit_card"],
      credit_card: { secure: true, installment: { required: true, terms: { [cardBank!]: [request.tenor ?? 3] } } },
      customer_details: customerOf(request),
      callbacks: { finish: `${env().appUrl}/payment/${request.orderId}` },
      expiry: { start_time: midtransTime(now), unit: "minute", duration: minutes },
    });
    if (!/^https?:\/\//i.test(snap.redirect_url)) throw new MidtransError(`Snap ${attempt.ref}: redirect_url is not a web address`, 201);
    await setChargeState(attempt.ref, "opened");
    // No store deadline for a card instalment (it waits in 301): Midtrans expires the Snap page, and
    // the reconciliation sweep closes an order whose page was never used (midtrans-settle.ts).
    return { vaNumber: null, billerCode: null, expiresAt: null, redirectUrl: snap.redirect_url, gatewayRef: attempt.ref };
  } catch (error) {
    // Refused: nothing exists at Midtrans under this order_id. Anything else (a timeout, a 5xx) may
    // have created it: "unknown", looked up before the next attempt.
    await setChargeState(attempt.ref, error instanceof MidtransError && error.refused ? "failed" : "unknown");
    throw error;
  }
}

// ————————————————————————————————————————————— closing before the store expires

async function closeAtMidtrans(gatewayRef: string): Promise<GatewayClosing> {
  const client = midtransClient();
  try {
    const tx = await client.expire(gatewayRef);
    if (midtransVerdict(tx) !== "paid") return { kind: "closed" };
    return { kind: "settled", event: statusEvent(tx, gatewayRef) };
  } catch (error) {
    if (!(error instanceof MidtransError)) throw error;
    if (error.statusCode === "404") return { kind: "closed" }; // Midtrans never had it (a Snap page never used)
    if (!error.refused) return { kind: "unreachable", reason: error.message };
  }
  // Refused (412: its status can no longer change): it was paid, or closed already. The status API says which.
  try {
    const tx = await client.status(gatewayRef);
    if (!tx) return { kind: "closed" };
    const verdict = midtransVerdict(tx);
    if (verdict === "paid") return { kind: "settled", event: statusEvent(tx, gatewayRef) };
    if (verdict === "pending") return { kind: "unreachable", reason: `Midtrans still holds ${gatewayRef} as pending` };
    return { kind: "closed" };
  } catch (error) {
    return { kind: "unreachable", reason: error instanceof Error ? error.message : String(error) };
  }
}

// ————————————————————————————————————————————— the gateway

export const midtransGateway: PaymentGateway = {
  name: MIDTRANS,
  collectsMoney: true,
  openPayment: openAtMidtrans,
  closePayment: closeAtMidtrans,
  refund: refundAtMidtrans,
  howToPay(method, payTo, billerCode, payToName) {
    if (method.code === "MANDIRI-VA" && billerCode) return mandiriBillHowTo(billerCode, payTo ?? "-");
    return sandboxGateway.howToPay(method, payTo, null, payToName);
  },
};

/**
 * A card payment given back through Midtrans's refund API (issue 36). A 4xx answer is no proof that
 * nothing was refunded under the key (a duplicate racing the first, a refund Midtrans made while
 * answering no): before the store calls it refused and turns the refund into a bank transfer, the
 * status API is asked whether a refund of that refund_key exists (issue 45 item 3).
 */
async function refundAtMidtrans(gatewayRef: string, request: { amount: number; key: string; reason: string }): Promise<GatewayRefund> {
  let refusal: string;
  try {
    const answer = await midtransClient().refund(gatewayRef, {
      refund_key: request.key,
      amount: request.amount,
      reason: request.reason.slice(0, 200),
    });
    const status = answer.transaction_status;
    if (status !== "refund" && status !== "partial_refund")
      return { kind: "unreachable", reason: `Midtrans answered ${answer.status_code} ${status ?? "?"} to the refund` };
    const chargeback = (answer as { refund_chargeback_id?: unknown }).refund_chargeback_id;
    return { kind: "refunded", reference: chargeback === undefined || chargeback === null ? request.key : String(chargeback) };
  } catch (error) {
    if (!(error instanceof MidtransError && error.refused))
      return { kind: "unreachable", reason: error instanceof Error ? error.message : String(error) };
    refusal = error.message;
  }
  try {
    const tx = await midtransClient().status(gatewayRef);
    const made = tx ? midtransRefunds(tx).find((r) => r.key === request.key) : undefined;
    return made ? { kind: "refunded", reference: made.reference } : { kind: "refused", reason: refusal };
  } catch (error) {
    return { kind: "unreachable", reason: `${refusal}; status unknown (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * The refunds a status answer (or a refund notification) lists: each refund_key with Midtrans's
 * reference for it (refund_chargeback_id, or the key when there is none).
 */
export function midtransRefunds(tx: MidtransTransaction): { key: string; reference: string }[] {
  const listed = (tx as { refunds?: unknown }).refunds;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((r: unknown) => {
    const { refund_key: key, refund_chargeback_id: chargeback } = (r ?? {}) as { refund_key?: unknown; refund_chargeback_id?: unknown };
    if (typeof key !== "string" || !key) return [];
    return [{ key, reference: typeof chargeback === "number" || typeof chargeback === "string" ? String(chargeback) : key }];
  });
}

function mandiriBillHowTo(billerCode: string, billKey: string): HowToPay[] {
  const company = `<b>${billerCode.replace(/[^0-9A-Za-z]/g, "")}</b>`;
  const key = `<b>${billKey.replace(/[^0-9A-Za-z]/g, "")}</b>`;
  return [
    {
      type: "ATM",
      content: `<ol><li>Masukkan kartu ATM Mandiri dan PIN Anda.</li><li>Pilih <b>Bayar/Beli</b> &gt; <b>Lainnya</b> &gt; <b>Multi Payment</b>.</li><li>Masukkan Kode Perusahaan ${company}.</li><li>Masukkan Kode Bayar ${key}.</li><li>Periksa nama dan Total Pembayaran yang tampil, lalu pilih <b>Ya</b>. Simpan struk Anda.</li></ol>`,
    },
    {
      type: "Mobile Banking",
      content: `<ol><li>Buka aplikasi Livin' by Mandiri dan masuk.</li><li>Pilih <b>Bayar</b> &gt; <b>Multipayment</b>.</li><li>Pilih penyedia jasa dengan Kode Perusahaan ${company}.</li><li>Masukkan Kode Bayar ${key}.</li><li>Periksa Total Pembayaran, lalu konfirmasi dengan PIN transaksi.</li></ol>`,
    },
    {
      type: "Internet Banking",
      content: `<ol><li>Masuk ke Mandiri Internet Banking.</li><li>Pilih <b>Bayar</b> &gt; <b>Multi Payment</b>.</li><li>Pilih penyedia jasa dengan Kode Perusahaan ${company}.</li><li>Masukkan Kode Bayar ${key}.</li><li>Periksa Total Pembayaran, lalu konfirmasi dengan token.</li></ol>`,
    },
  ];
}
