import { randomBytes } from "node:crypto";
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The Midtrans end-to-end run (issue 18): the same production server, started with
 * PAYMENT_GATEWAY=midtrans against a fake Midtrans (tests/fakes/midtrans.ts) by
 * scripts/e2e-midtrans-server.mjs, and only the specs in tests/e2e-midtrans/, in projects js and
 * nojs. `npm test` runs it after the main e2e run. Same environment as playwright.config.ts
 * (PORT, BUILD_DIR, PLAYWRIGHT_CHROMIUM); its own DATA_DIR.
 */
const port = Number(process.env.PORT ?? 3456);
process.env.MIDTRANS_SERVER_KEY ??= `SB-Mid-server-e2e${randomBytes(12).toString("hex")}`;
process.env.MIDTRANS_FAKE_URL_FILE ??= `/tmp/store-e2e-midtrans-${port}.fake-url`;

const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig({
  ...base,
  testDir: "tests/e2e-midtrans",
  reporter: [["list"], ["json", { outputFile: "test-reports/playwright-midtrans.json" }]],
  webServer: {
    ...webServer,
    command: webServer.command.replace("scripts/e2e-server.mjs", "scripts/e2e-midtrans-server.mjs"),
    env: {
      ...webServer.env,
      DATA_DIR: `/tmp/store-e2e-midtrans-${port}`,
      MIDTRANS_SERVER_KEY: process.env.MIDTRANS_SERVER_KEY,
      MIDTRANS_FAKE_URL_FILE: process.env.MIDTRANS_FAKE_URL_FILE,
    },
  },
});
