import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../env";
import { log } from "../log";

// The webhook's signature (DESIGN §6, §9): X-Signature is the lowercase hex HMAC-SHA512 of the raw
// request body with PAYMENT_WEBHOOK_SECRET. The sandbox signs with the same secret it verifies with.

let generated: string | undefined;

/**
 * PAYMENT_WEBHOOK_SECRET, or (sandbox only) a secret generated once and kept in DATA_DIR, as
 * session.ts does for the session secret, so the sandbox works out of the box and restarts keep it.
 */
export function webhookSecret(): string {
  const e = env();
  if (e.paymentWebhookSecret) return e.paymentWebhookSecret;
  if (generated) return generated;
  const file = path.join(e.dataDir, "payment-webhook-secret");
  try {
    generated = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(e.dataDir, { recursive: true });
    generated = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, generated, { mode: 0o600 });
    if (e.isProduction) log.warn({ file }, "PAYMENT_WEBHOOK_SECRET is not set: generated one for the sandbox gateway");
  }
  return generated;
}

/** For tests that change DATA_DIR or the secret between cases. */
export function resetWebhookSecretForTests() {
  generated = undefined;
}

export function signWebhookBody(rawBody: string, secret = webhookSecret()): string {
  return crypto.createHmac("sha512", secret).update(rawBody, "utf8").digest("hex");
}

const HEX_SHA512 = /^[0-9a-f]{128}$/;

/** Constant-time comparison of the header with the body's signature; a malformed header is simply false. */
export function hasValidSignature(rawBody: string, signature: string | null | undefined, secret = webhookSecret()): boolean {
  if (typeof signature !== "string" || !HEX_SHA512.test(signature)) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret), "hex");
  return crypto.timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
