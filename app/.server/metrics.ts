import crypto from "node:crypto";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics (issue 20), served at GET /metrics by server.js to loopback clients or with
 * `Authorization: Bearer $METRICS_TOKEN`. Counters live in this process (each instance reports its
 * own; Prometheus sums them). The store's state is read from the database at scrape time by the
 * gauges store/back-office/metrics.ts adds (registerStoreMetrics), so this module imports no store.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to its response's end, by route id, method and status class.",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const paymentNotifications = new Counter({
  name: "store_payment_notifications_total",
  help: "Payment notifications (gateway webhooks) by gateway and outcome (paid, replay, bad_signature, amount_mismatch, …).",
  labelNames: ["gateway", "outcome"] as const,
  registers: [registry],
});

const mailFailures = new Counter({
  name: "store_mail_failures_total",
  help: "E-mails that could not be sent.",
  registers: [registry],
});

const rateLimited = new Counter({
  name: "store_rate_limited_total",
  help: "Requests refused by a rate limit, by limit.",
  labelNames: ["limit"] as const,
  registers: [registry],
});

const smsSent = new Counter({
  name: "store_sms_sent_total",
  help: "SMS queued for sending (one-time codes of BRI-CERIA), by kind: paid traffic once a provider is set.",
  labelNames: ["kind"] as const,
  registers: [registry],
});

/** One SMS queued (each one costs money with a provider such as Twilio: watch for pumping). */
export function countSmsSent(kind: string) {
  smsSent.inc({ kind });
}

/** One payment notification from `gateway` (sandbox, midtrans…) and how it ended. */
export function countPaymentNotification(gateway: string, outcome: string) {
  paymentNotifications.inc({ gateway, outcome });
}

export function countMailFailure() {
  mailFailures.inc();
}

export function countRateLimited(limit: string) {
  rateLimited.inc({ limit });
}

/** The status label: 2xx, 3xx, 4xx, 5xx. */
export function statusClass(status: number) {
  return `${Math.floor(status / 100)}xx`;
}

/** Who may read /metrics: a client on this machine talking to the app directly, or one with the token. */
export function mayReadMetrics(directLoopback: boolean, authorization: string | undefined, token: string | undefined): boolean {
  if (directLoopback) return true;
  if (!token || !authorization?.startsWith("Bearer ")) return false;
  const given = crypto.createHash("sha256").update(authorization.slice(7)).digest();
  return crypto.timingSafeEqual(given, crypto.createHash("sha256").update(token).digest());
}

/** The Prometheus text (and its content type). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
