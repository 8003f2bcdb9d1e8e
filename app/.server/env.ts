import path from "node:path";
import { z } from "zod/mini";

// Configuration is read and validated once; a bad value stops the server with a message naming it.
// zod/mini, like the forms: the full zod would add about 4 MB to the server's heap for this alone.
const schema = z.object({
  NODE_ENV: z._default(z.enum(["development", "production", "test"], "must be development, production or test"), "development"),
  PORT: z._default(z.string().check(z.regex(/^\d{1,5}$/, { error: "must be a port number", abort: true }), z.refine((port) => Number(port) >= 1 && Number(port) <= 65535, "must be between 1 and 65535")), "3000"),
  APP_URL: z.optional(z.url({ error: "must be an absolute address such as https://toko.example.id" })),
  DATABASE_URL: z.optional(z.string().check(z.regex(/^postgres(ql)?:\/\//, "must start with postgres://"))),
  DATA_DIR: z._default(z.string().check(z.minLength(1, "must not be empty")), "./data"),
  SESSION_SECRET: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  SMTP_URL: z.optional(z.string().check(z.regex(/^smtps?:\/\//, "must start with smtp:// or smtps://"))),
  MAIL_FROM: z._default(z.string().check(z.minLength(3, "must be an address such as Toko <no-reply@example.id>")), "Toko Pegawai PLN <no-reply@toko-pegawai.local>"),
  PAYMENT_GATEWAY: z._default(z.enum(["sandbox"], "must be sandbox (the only gateway built in)"), "sandbox"),
  PAYMENT_WEBHOOK_SECRET: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  DEMO_DATA: z._default(z.enum(["0", "1", ""], "must be 0 or 1"), "0"),
  ADMIN_PHONE: z._default(z.string(), "+62 811-1000-123"),
  TRUST_PROXY: z._default(z.string().check(z.regex(/^\d{1,2}$/, "must be the number of reverse proxies in front of the app (0, 1, 2 …)")), "0"),
  OUTBOX_KEY: z.optional(z.string().check(z.minLength(16, "must be at least 16 characters"))),
  API_CORS_ORIGINS: z.optional(z.string().check(z.regex(/^\s*https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*\s*$/, "must be a comma-separated list of origins such as https://app.example.id"))),
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
  paymentGateway: "sandbox";
  paymentWebhookSecret: string | undefined;
  demoData: boolean;
  adminPhone: string;
  /** Reverse proxies in front of the app; their X-Forwarded-* entries (and only theirs) are believed. */
  trustProxyHops: number;
  /** Opens the demo outbox from other machines (/outbox?key=…); absent: a new one each start. */
  outboxKey: string | undefined;
  /** Origins whose pages may call the JSON API from a browser (CORS); empty: none. */
  apiCorsOrigins: string[];
};

function readEnv(source: NodeJS.ProcessEnv): Env {
  // Empty strings count as "not set", as they do in most container tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";
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
    paymentGateway: e.PAYMENT_GATEWAY,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET,
    demoData: e.DEMO_DATA === "1",
    adminPhone: e.ADMIN_PHONE,
    trustProxyHops: Number(e.TRUST_PROXY),
    outboxKey: e.OUTBOX_KEY,
    apiCorsOrigins: (e.API_CORS_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim().replace(/\/+$/, ""))
      .filter(Boolean),
  };
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= readEnv(process.env);
  return cached;
}

/** For tests that change the environment between cases. */
export function resetEnvForTests() {
  cached = undefined;
}
