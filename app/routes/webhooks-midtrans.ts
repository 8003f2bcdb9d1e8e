import type { Route } from "./+types/webhooks-midtrans";
import { handleMidtransNotification } from "~/.server/http/midtrans-webhook";
import { errorField, log } from "~/.server/log";
import { countPaymentNotification } from "~/.server/metrics";
import { jsonAnswer, readCapped } from "~/.server/http/webhook-body";

// Midtrans's HTTP notifications (issue 18): the Payment Notification URL to enter in the Midtrans
// dashboard is {APP_URL}/webhooks/midtrans. Not a page: JSON answers, one log line per request.
// The body is read raw with the same cap as the sandbox's webhook.

export async function loader() {
  return jsonAnswer(405, { ok: false, error: "method-not-allowed" });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonAnswer(405, { ok: false, error: "method-not-allowed" });
  const raw = await readCapped(request);
  if (raw === null) {
    countPaymentNotification("midtrans", "too_large");
    log.warn("midtrans: 413 body too large");
    return jsonAnswer(413, { ok: false, error: "body-too-large" });
  }
  try {
    const decision = await handleMidtransNotification(raw);
    countPaymentNotification("midtrans", decision.outcome);
    log[decision.status === 200 ? "info" : "warn"](`midtrans: ${decision.log}`);
    const ok = decision.status === 200;
    return jsonAnswer(decision.status, ok ? { ok, outcome: decision.outcome } : { ok, error: decision.outcome });
  } catch (error) {
    // Midtrans retries on a 5xx; the log line names the cause without a stack (and never the key).
    countPaymentNotification("midtrans", "error");
    log.warn({ err: errorField(error) }, "midtrans: 500");
    return jsonAnswer(500, { ok: false, error: "internal" });
  }
}
