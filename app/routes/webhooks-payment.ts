import type { Route } from "./+types/webhooks-payment";
import { handlePaymentWebhook } from "~/.server/http/payment-webhook";
import { errorField, log } from "~/.server/log";
import { countPaymentNotification } from "~/.server/metrics";
import { MAX_WEBHOOK_BODY_BYTES, readCapped } from "~/.server/http/webhook-body";

// The payment gateway's settlements (issue 7). Not a page: a JSON endpoint authenticated by its
// HMAC signature (http.ts exempts /webhooks/ from the Origin check). The raw body is read as bytes
// with a small cap, because the signature covers exactly those bytes.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });

/** The metric's outcome label for an answer: paid, replay, bad_signature, bad_body, unknown_va, amount_mismatch… */
function notificationOutcome(status: number, body: Record<string, unknown>): string {
  if (status === 200) return body.replay ? "replay" : String(body.outcome ?? "accepted");
  return (
    ({ 401: "bad_signature", 400: "bad_body", 404: "unknown_va", 422: "amount_mismatch" } as Record<number, string>)[status] ??
    `http_${status}`
  );
}

export async function loader() {
  return json(405, { ok: false, error: "method-not-allowed" });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return json(405, { ok: false, error: "method-not-allowed" });
  const raw = await readCapped(request, MAX_WEBHOOK_BODY_BYTES);
  if (raw === null) {
    countPaymentNotification("sandbox", "too_large");
    log.warn("webhook: 413 body too large");
    return json(413, { ok: false, error: "body-too-large" });
  }
  try {
    const answer = await handlePaymentWebhook(raw, request.headers.get("x-signature"));
    countPaymentNotification("sandbox", notificationOutcome(answer.status, answer.body));
    log[answer.status === 200 ? "info" : "warn"](`webhook: ${answer.log}`);
    return json(answer.status, answer.body);
  } catch (error) {
    // The gateway retries on a 5xx; the log line names the cause without a stack.
    countPaymentNotification("sandbox", "error");
    log.warn({ err: errorField(error) }, "webhook: 500");
    return json(500, { ok: false, error: "internal" });
  }
}
