import { settleGatewayEvent, type SettlementResult } from "../store/payments";
import { jsonObjectOf } from "./webhook-body";
import { hasValidSignature } from "../gateway";

// POST /webhooks/payment (issue 7, DESIGN §6, §9): the gateway's settlements. The raw body is signed
// (X-Signature: lowercase hex HMAC-SHA512 with PAYMENT_WEBHOOK_SECRET, compared in constant time);
// the body is {"id", "type", "vaNumber", "amount", "paidAt"}. Every answer is JSON, and the route
// writes one log line per request.

export { MAX_WEBHOOK_BODY_BYTES } from "./webhook-body";

export type WebhookAnswer = { status: number; body: Record<string, unknown>; log: string };

const EVENT_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const VA_NUMBER = /^[0-9]{6,30}$/;

/** Validates the shape of a body; null when it is not a settlement event this store understands. */
function parseEvent(rawBody: string): { id: string; type: string; vaNumber: string; amount: number; paidAt: Date | null } | null {
  const body = jsonObjectOf(rawBody);
  if (!body) return null;
  const { id, type, vaNumber, amount, paidAt } = body;
  if (typeof id !== "string" || !EVENT_ID.test(id)) return null;
  if (typeof type !== "string" || type.length > 50) return null;
  if (typeof vaNumber !== "string" || !VA_NUMBER.test(vaNumber)) return null;
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 0) return null;
  let paid: Date | null = null;
  if (paidAt !== undefined && paidAt !== null) {
    if (typeof paidAt !== "string" || paidAt.length > 40) return null;
    paid = new Date(paidAt);
    if (Number.isNaN(paid.getTime())) return null;
  }
  return { id, type, vaNumber, amount, paidAt: paid };
}

/** The webhook's whole decision for a raw body and its signature header (the route only reads and answers). */
export async function handlePaymentWebhook(rawBody: string, signature: string | null): Promise<WebhookAnswer> {
  if (!hasValidSignature(rawBody, signature)) {
    return { status: 401, body: { ok: false, error: "invalid-signature" }, log: "401 invalid signature" };
  }
  const event = parseEvent(rawBody);
  if (!event) return { status: 400, body: { ok: false, error: "invalid-body" }, log: "400 invalid body" };
  const result: SettlementResult = await settleGatewayEvent(event);
  const tag = `event=${event.id} va=${event.vaNumber} amount=${event.amount}`;
  switch (result.status) {
    case 404:
      return { status: 404, body: { ok: false, error: result.error }, log: `404 unknown VA ${tag}` };
    case 422:
      return { status: 422, body: { ok: false, error: result.error }, log: `422 amount mismatch ${tag} order=${result.orderId}` };
    case 200:
      return {
        status: 200,
        body: { ok: true, outcome: result.outcome, replay: result.replay },
        log: `200 ${result.replay ? "replay" : result.outcome} ${tag} order=${result.orderId}`,
      };
  }
}
