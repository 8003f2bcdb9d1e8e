import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";

// Issue 19: the headless buyer (`npm run api:buyer`) against the e2e server — a whole purchase with
// nothing but the JSON API (register → activation e-mail → search → KTP upload → incentive order →
// ops approval → VA → sandbox payment → ops ship → delivery photo → balance). It uses no browser, so
// it runs once (project js).

test("a buyer completes a purchase through the JSON API only", async ({ baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no browser involved: once is enough");
  test.setTimeout(120_000);
  const port = new URL(baseURL!).port;
  const run = spawnSync(process.execPath, ["scripts/api-buyer.mjs"], {
    env: { ...process.env, API_BASE_URL: baseURL, DATA_DIR: `/tmp/store-e2e-${port}` },
    encoding: "utf8",
    timeout: 110_000,
  });
  const last = run.stdout.trim().split("\n").pop() ?? "";
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  const summary = JSON.parse(last) as { ok: boolean; balance: number; orderId: number };
  expect(summary.ok).toBe(true);
  expect(summary.balance).toBeGreaterThan(0);
});
