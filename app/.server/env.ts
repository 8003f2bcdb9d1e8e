import net from "node:net";
import path from "node:path";
import { z } from "zod/mini";
import { parseDataKeys } from "./data-keys";

// Configuration is read and validated once; a bad value stops the server with a message naming it.
// zod/mini, like the forms: the full zod would add about 4 MB to the server's heap for this alone.
const schema = z.object({
  NODE_ENV: z._default(z.enum(["development", "production", "test"], "must be development, production or test"), "development"),
  PORT: z._default(
    z.string().check(
      z.regex(/^\d{1,5}$/, { error: "must be a port number", abort: true }),
      z.refine((port) => Number(port) >= 1 && Number(port) <= 65535, "must be between 1 and 65535"),
    ),
    "3000",
  ),
  APP_URL: z.optional(z.url({ error: "must be an absolute address such as https://toko.example.id" })),
  DATABASE_URL: z.optional(z.string().check(z.regex(/^postgres(ql)?:\/\//, "must start with postgres://"))),
  DATA_DIR: z._default(z.string().check(z.minLength(1, "must not be empty")), "./data"),
  SESSION_SECRET: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  SMTP_URL: z.optional(z.string().check(z.regex(/^smtps?:\/\//, "must start with smtp:// or smtps://"))),
  MAIL_FROM: z._default(
    z.string().check(z.minLength(3, "must be an address such as Toko <no-reply@example.id>")),
    "Toko Pegawai PLN <no-reply@toko-pegawai.local>",
  ),
  // No default in production (issue 25): the sandbox lets any buyer pay their own orders for free.
  PAYMENT_GATEWAY: z.optional(z.enum(["sandbox", "midtrans"], "must be sandbox or midtrans")),
  // Midtrans (PAYMENT_GATEWAY=midtrans, decision 0021): the server key is checked for shape only, and
  // no message here ever repeats its value.
  MIDTRANS_SERVER_KEY: z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9_:-]{10,200}$/, "must be the server key from the Midtrans dashboard (Settings > Access Keys)")),
  ),
  MIDTRANS_ENV: z._default(z.enum(["sandbox", "production"], "must be sandbox or production"), "sandbox"),
  MIDTRANS_API_URL: z.optional(z.url({ error: "must be an absolute address such as https://api.sandbox.midtrans.com" })),
  MIDTRANS_SNAP_URL: z.optional(z.url({ error: "must be an absolute address such as https://app.sandbox.midtrans.com" })),
  PAYMENT_WEBHOOK_SECRET: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  DEMO_DATA: z._default(z.enum(["0", "1", ""], "must be 0 or 1"), "0"),
  ADMIN_PHONE: z._default(z.string(), "+62 811-1000-123"),
  TRUST_PROXY: z._default(
    z
      .string()
      .check(
        z.refine(
          (value) => /^\d{1,2}$/.test(value) || proxyAddressList(value) !== null,
          "must be the number of reverse proxies in front of the app (0, 1, 2 …) or their addresses (10.0.0.5, 10.0.1.0/24, fd00::/8, comma-separated)",
        ),
      ),
    "0",
  ),
  // Personal data at rest (issue 35): checked in readEnv with data-crypto.ts's parser, never echoed.
  DATA_ENCRYPTION_KEY: z.optional(z.string()),
  OUTBOX_KEY: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  LOG_LEVEL: z.optional(
    z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"], "must be trace, debug, info, warn, error, fatal or silent"),
  ),
  METRICS_TOKEN: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  SHUTDOWN_DRAIN_MS: z._default(z.string().check(z.regex(/^\d{1,6}$/, "must be a number of milliseconds")), "5000"),
  // Messages (issue 28): the first retry's wait (later ones double), and the SMS provider.
  MESSAGE_RETRY_SECONDS: z._default(z.string().check(z.regex(/^\d{1,5}$/, "must be a number of seconds")), "60"),
  SMS_PROVIDER: z._default(z.enum(["sandbox", "twilio"], "must be sandbox or twilio"), "sandbox"),
  TWILIO_ACCOUNT_SID: z.optional(
    z.string().check(z.regex(/^AC[0-9a-fA-F]{32}$/, "must be the Account SID from the Twilio console (AC followed by 32 hex digits)")),
  ),
  TWILIO_AUTH_TOKEN: z.optional(z.string().check(z.minLength(16, "must be the Auth Token from the Twilio console"))),
  // The sender: a Twilio number in E.164 (+1…) or an approved alphanumeric sender id.
  TWILIO_FROM: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(\+\d{8,15}|[A-Za-z0-9 ]{1,11}|MG[0-9a-fA-F]{32})$/,
          "must be a Twilio number such as +15005550006, a sender id of at most 11 letters, or a Messaging Service SID (MG…)",
        ),
      ),
  ),
  TWILIO_API_URL: z.optional(z.url({ error: "must be an absolute address such as https://api.twilio.com" })),
  API_CORS_ORIGINS: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^\s*https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*\s*$/,
          "must be a comma-separated list of origins such as https://app.example.id",
        ),
      ),
  ),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  appUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  sessionSecrets: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  paymentGateway: "sandbox" | "midtrans";
  paymentWebhookSecret: string | undefined;
  /** Only with PAYMENT_GATEWAY=midtrans. The key is a secret: never log or show this object. */
  midtrans: MidtransSettings | undefined;
  demoData: boolean;
  adminPhone: string;
  /**
   * The reverse proxies in front of the app, whose X-Forwarded-* entries (and only theirs) are
   * believed: a number of hops (any peer counts as the first), or the proxies' addresses and CIDRs.
   */
  trustProxy: number | string[];
  /**
   * DATA_ENCRYPTION_KEY as given (validated: 32-byte keys in base64, comma-separated), or undefined
   * outside production (data-crypto.ts then keeps a generated key in DATA_DIR). A secret: never log it.
   */
  dataEncryptionKey: string | undefined;
  /** Opens the demo outbox from other machines (/outbox?key=…); absent: a new one each start. */
  outboxKey: string | undefined;
  /** Opens GET /metrics to other machines (`Authorization: Bearer …`); loopback clients need none. */
  metricsToken: string | undefined;
  /** After SIGTERM: how long /readyz answers 503 while requests are still served, before the listener closes. */
  shutdownDrainMs: number;
  /** Origins whose pages may call the JSON API from a browser (CORS); empty: none. */
  apiCorsOrigins: string[];
  /** The wait before a failed message's first retry (each later one about doubles). */
  messageRetrySeconds: number;
  /** Only with SMS_PROVIDER=twilio. The token is a secret: never log or show this object. */
  twilio: TwilioSettings | undefined;
};

export type TwilioSettings = { accountSid: string; authToken: string; from: string; apiUrl: string };

export type MidtransSettings = {
  serverKey: string;
  environment: "sandbox" | "production";
  /** Core API base (charge, status, expire), without a trailing slash. */
  apiUrl: string;
  /** Snap base (card instalment pages), without a trailing slash. */
  snapUrl: string;
};

/** Midtrans's own base URLs per environment (docs.midtrans.com); MIDTRANS_API_URL / _SNAP_URL override them. */
export const MIDTRANS_BASE_URLS = {
  sandbox: { apiUrl: "https://api.sandbox.midtrans.com", snapUrl: "https://app.sandbox.midtrans.com" },
  production: { apiUrl: "https://api.midtrans.com", snapUrl: "https://app.midtrans.com" },
} as const;

/** "10.0.0.5, 10.0.1.0/24, fd00::/8" as a list of addresses and CIDRs; null when an entry is neither. */
export function proxyAddressList(value: string): string[] | null {
  const entries = value.split(",").map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    const [address = "", prefix, ...rest] = entry.split("/");
    const version = net.isIP(address);
    if (version === 0 || rest.length) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
  });
  return valid && entries.length ? entries : null;
}

/** A setting the server cannot start with; server.js prints its message as one line and exits. */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
  constructor(problems: string) {
    super(`Invalid configuration: ${problems}`);
  }
}

function readEnv(source: NodeJS.ProcessEnv): Env {
  // Empty strings count as "not set", as they do in most container tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";
  if (isProduction && !e.PAYMENT_GATEWAY) {
    throw new ConfigurationError(
      "PAYMENT_GATEWAY: must be set in production: midtrans, or sandbox for a demo or a test (with sandbox anyone can pay their orders for free)",
    );
  }
  if (isProduction && !e.DATA_ENCRYPTION_KEY) {
    throw new ConfigurationError(
      "DATA_ENCRYPTION_KEY: must be set in production: 32 random bytes in base64 (openssl rand -base64 32); it encrypts the NIK and KTP photos",
    );
  }
  if (e.DATA_ENCRYPTION_KEY) {
    const keys = parseDataKeys(e.DATA_ENCRYPTION_KEY);
    if (typeof keys === "string") throw new ConfigurationError(`DATA_ENCRYPTION_KEY: ${keys}`);
  }
  const paymentGateway = e.PAYMENT_GATEWAY ?? "sandbox";
  if (paymentGateway === "midtrans" && !e.MIDTRANS_SERVER_KEY) {
    throw new ConfigurationError("MIDTRANS_SERVER_KEY: is required when PAYMENT_GATEWAY=midtrans");
  }
  if (e.SMS_PROVIDER === "twilio" && !(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM)) {
    throw new Error("Invalid configuration: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM: are required when SMS_PROVIDER=twilio");
  }
  const midtransBase = MIDTRANS_BASE_URLS[e.MIDTRANS_ENV];
  const port = Number(e.PORT);
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port,
    appUrl: (e.APP_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    // Absent: session.ts generates one and keeps it in DATA_DIR, so restarts keep sessions.
    sessionSecrets: (e.SESSION_SECRET ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    paymentGateway,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET,
    midtrans:
      paymentGateway === "midtrans"
        ? {
            serverKey: e.MIDTRANS_SERVER_KEY!,
            environment: e.MIDTRANS_ENV,
            apiUrl: (e.MIDTRANS_API_URL ?? midtransBase.apiUrl).replace(/\/+$/, ""),
            snapUrl: (e.MIDTRANS_SNAP_URL ?? midtransBase.snapUrl).replace(/\/+$/, ""),
          }
        : undefined,
    demoData: e.DEMO_DATA === "1",
    adminPhone: e.ADMIN_PHONE,
    trustProxy: /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : proxyAddressList(e.TRUST_PROXY)!,
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY,
    outboxKey: e.OUTBOX_KEY,
    metricsToken: e.METRICS_TOKEN,
    shutdownDrainMs: Number(e.SHUTDOWN_DRAIN_MS),
    apiCorsOrigins: (e.API_CORS_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim().replace(/\/+$/, ""))
      .filter(Boolean),
    messageRetrySeconds: Math.max(1, Number(e.MESSAGE_RETRY_SECONDS)),
    twilio:
      e.SMS_PROVIDER === "twilio"
        ? {
            accountSid: e.TWILIO_ACCOUNT_SID!,
            authToken: e.TWILIO_AUTH_TOKEN!,
            from: e.TWILIO_FROM!,
            apiUrl: (e.TWILIO_API_URL ?? "https://api.twilio.com").replace(/\/+$/, ""),
          }
        : undefined,
  };
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= readEnv(process.env);
  return cached;
}

/**
 * A real store (production, no demo data) on the sandbox gateway: its buyers can mark their own
 * virtual-account orders paid with 'Bayar (Sandbox)'. The back office says so on every page.
 */
export function sandboxPaysForFree(e: Env = env()): boolean {
  return e.isProduction && e.paymentGateway === "sandbox" && !e.demoData;
}

/** For tests that change the environment between cases. */
export function resetEnvForTests() {
  cached = undefined;
}
