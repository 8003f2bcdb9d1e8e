import type { Route } from "./+types/webhooks-payment";
import { handlePaymentWebhook } from "~/.server/gateway/webhook";
import { MAX_WEBHOOK_BODY_BYTES, readCapped } from "~/.server/webhook-body";

// The payment gateway's settlements (issue 7). Not a page: a JSON endpoint authenticated by its
// HMAC signature (http.ts exempts /webhooks/ from the Origin check). The raw body is read as bytes
// with a small cap, because the signature covers exactly those bytes.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader() {
  return json(405, { ok: false, error: "method-not-allowed" });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return json(405, { ok: false, error: "method-not-allowed" });
  const raw = await readCapped(request, MAX_WEBHOOK_BODY_BYTES);
  if (raw === null) {
    console.warn("[webhook] 413 body too large");
    return json(413, { ok: false, error: "body-too-large" });
  }
  try {
    const answer = await handlePaymentWebhook(raw, request.headers.get("x-signature"));
    (answer.status === 200 ? console.log : console.warn)(`[webhook] ${answer.log}`);
    return json(answer.status, answer.body);
  } catch (error) {
    // The gateway retries on a 5xx; the log line names the cause without a stack.
    console.warn(`[webhook] 500 ${error instanceof Error ? error.message : String(error)}`);
    return json(500, { ok: false, error: "internal" });
  }
}
