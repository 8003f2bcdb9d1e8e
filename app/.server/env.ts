import path from "node:path";
import { z } from "zod";

// Configuration is read and validated once; a bad value stops the server with a message naming it.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: z.url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres://").optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: z.string().min(16).optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().min(3).default("Toko Pegawai PLN <no-reply@toko-pegawai.local>"),
  PAYMENT_GATEWAY: z.enum(["sandbox"]).default("sandbox"),
  PAYMENT_WEBHOOK_SECRET: z.string().min(16).optional(),
  DEMO_DATA: z.enum(["0", "1", ""]).default("0"),
  ADMIN_PHONE: z.string().default("+62 811-1000-123"),
  TRUST_PROXY: z.string().regex(/^\d{1,2}$/, "must be the number of reverse proxies in front of the app (0, 1, 2 …)").default("0"),
  OUTBOX_KEY: z.string().min(16).optional(),
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
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
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
