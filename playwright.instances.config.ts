import { randomBytes } from "node:crypto";
import baseConfig from "./playwright.config";
// @ts-expect-error: plain JavaScript module without types
import { SERVER_ENV, SERVER_NODE_FLAGS } from "./scripts/lib.mjs";

/**
 * Two production instances on one PostgreSQL (DATABASE_URL, an empty database: they start together
 * and migrate under the start-up lock), for tests/e2e-instances/: a buyer's requests go to either
 * instance, as behind a per-request balancer. Run by .ci/run's PostgreSQL step:
 *   DATABASE_URL=postgres://… PORT=3456 npx playwright test -c playwright.instances.config.ts
 * The instances listen on PORT and PORT + 1; both share one DATA_DIR (the demo outbox) and the secrets.
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("playwright.instances.config.ts needs DATABASE_URL (an empty PostgreSQL database)");
const port = Number(process.env.PORT ?? 3456);
export const INSTANCE_URLS = [`http://localhost:${port}`, `http://localhost:${port + 1}`] as const;
process.env.INSTANCE_URLS = INSTANCE_URLS.join(",");
// Each instance's log, searched after the suite for personal data (tests/e2e/helpers/server-log-check.ts).
const serverLogs = INSTANCE_URLS.map((_, i) => `/tmp/store-e2e-instances-${port + i}.server.log`);
process.env.E2E_SERVER_LOG = serverLogs.join(",");

const shared = {
  ...SERVER_ENV,
  BUILD_DIR: process.env.BUILD_DIR ?? "build",
  DATABASE_URL: databaseUrl,
  DATA_DIR: `/tmp/store-e2e-instances-${port}`,
  DEMO_DATA: "1",
  STORE_TEST_DOOR: "1",
  NODE_ENV: "production",
  PAYMENT_GATEWAY: "sandbox",
  // The sandbox's 'Bayar (Sandbox)' posts the webhook to APP_URL: the first instance, whichever
  // instance served the page.
  APP_URL: INSTANCE_URLS[0],
  TRUST_PROXY: "1",
  OUTBOX_KEY: process.env.OUTBOX_KEY!,
  SESSION_SECRET: randomBytes(24).toString("base64url"),
  PAYMENT_WEBHOOK_SECRET: randomBytes(24).toString("base64url"),
};

export default {
  ...baseConfig,
  testDir: "tests/e2e-instances",
  reporter: [["list"], ["json", { outputFile: "test-reports/playwright-instances.json" }]],
  use: { ...baseConfig.use, baseURL: INSTANCE_URLS[0] },
  webServer: INSTANCE_URLS.map((url, i) => ({
    command: `node ${SERVER_NODE_FLAGS.join(" ")} server.js > ${serverLogs[i]}`,
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
    env: { ...shared, PORT: String(port + i) },
  })),
};
