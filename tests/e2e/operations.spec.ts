import type { ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
// @ts-expect-error: plain JavaScript module without types
import { spawnServer } from "../../scripts/lib.mjs";
import { DEMO_ACCOUNT, loginAs, readLatestEmail, test as base } from "./helpers";
import { checkoutToPayment } from "./helpers/purchase";

// Operating the store (issue 20), on production servers of this spec's own (their output is read):
// the request log of a whole purchase holds one JSON line per request and no password, NIK or OTP;
// readiness turns 503 at SIGTERM while requests are still served, then the server stops cleanly.

const METRICS_TOKEN = "operations-spec-metrics-token";

type StoreServer = { url: string; child: ChildProcess; output: () => string; dataDir: string };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startStore(env: Record<string, string> = {}): Promise<StoreServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-ops-e2e-"));
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    BUILD_DIR: process.env.BUILD_DIR ?? "build",
    DEMO_DATA: "1",
    APP_URL: url,
    TRUST_PROXY: "1",
    OUTBOX_KEY: process.env.OUTBOX_KEY!,
    LOG_LEVEL: "debug",
    ...env,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await expect
    .poll(async () => (child.exitCode !== null ? -1 : await fetch(`${url}/readyz`).then((r) => r.status, () => 0)), { timeout: 90_000, message: "the server is ready" })
    .toBe(200);
  return { url, child, output: () => output, dataDir };
}

async function stopStore(server: StoreServer) {
  if (server.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGINT");
    await exited;
  }
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

const test = base.extend<{ baseURL: string }, { store: StoreServer }>({
  store: [
    async ({}, use) => {
      const server = await startStore({ METRICS_TOKEN });
      await use(server);
      await stopStore(server);
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ store }, use) => use(store.url),
});

test.describe.configure({ timeout: 180_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

/** Every string in a parsed log line (numbers such as ports and durations are not text a secret hides in). */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

test("a purchase's log: one JSON line per request with its id, and no password, NIK or OTP", async ({ page, store, javaScriptEnabled }) => {
  const nik = `3273${String(randomInt(0, 1e12)).padStart(12, "0")}`;
  const phone = `0813${randomInt(10_000_000, 99_999_999)}`;
  await loginAs(page, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
  await checkoutToPayment(page, javaScriptEnabled, { product: "Exotic Sepeda Listrik Lipat 14 inci", phone, nik });
  await page.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await page.getByRole("radio", { name: /BRI Ceria \(Paylater\)/ }).check();
  await page.locator(".checkout-bar").getByRole("button").click();
  await expect(page).toHaveURL("/paymentmethod");
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL("/otp");
  const otp = (await readLatestEmail(page, phone)).text.match(/\b(\d{4})\b/)![1]!;
  await page.getByLabel("Kode OTP", { exact: true }).fill(otp);
  const verified = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/otp") && response.request().method() === "POST");
  await page.getByRole("button", { name: "Verifikasi" }).click();
  const response = await verified;
  await expect(page).toHaveURL(/\/payment\/\d+$/);

  // The answer's X-Request-Id names its line in the log.
  const reqId = (await response.allHeaders())["x-request-id"];
  expect(reqId).toMatch(/^[0-9a-f]{16}$/);
  await expect.poll(() => store.output().includes(`"reqId":"${reqId}"`)).toBe(true);

  const lines = store
    .output()
    .split("\n")
    .filter((line) => line.trim());
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = parsed.filter((line) => line.msg === "request");
  const otpPost = requests.find((line) => line.reqId === reqId)!;
  expect(otpPost).toMatchObject({ level: "info", method: "POST", route: "routes/otp", status: expect.any(Number), ms: expect.any(Number), userId: expect.any(Number) });
  expect(String(otpPost.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(requests.filter((line) => line.route === "routes/login" && line.method === "POST")).toHaveLength(1);
  // Paths without their query strings (keywords, e-mails, keys live there).
  expect(requests.every((line) => !String(line.path).includes("?"))).toBe(true);
  expect(requests.some((line) => String(line.path) === "/outbox")).toBe(true);

  const text = parsed.flatMap(stringsOf).join("\n");
  expect(text).not.toContain(DEMO_ACCOUNT.password);
  expect(text).not.toContain(nik);
  expect(text).not.toMatch(new RegExp(`\\b${otp}\\b`));
});

test("metrics: to this machine or with the token; to anyone else the 404 page", async ({ page, store }) => {
  await page.goto("/login");
  // Through a proxy (the spec's requests carry X-Forwarded-For) and without the token: not found.
  const refused = await page.request.get("/metrics");
  expect(refused.status()).toBe(404);
  expect(await refused.text()).toContain("Page Not Found");
  const withToken = await page.request.get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(withToken.status()).toBe(200);
  expect(await withToken.text()).toMatch(/^http_request_duration_seconds_count\{route="routes\/login",method="GET",status="2xx"\} \d+$/m);
  // Straight from this machine: no token needed.
  const local = await fetch(`${store.url}/metrics`);
  expect(local.status).toBe(200);
  expect(await local.text()).toContain("# TYPE store_oldest_waiting_seconds gauge");
});

test("readiness: 503 from SIGTERM on while requests are still served, then a clean stop", async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  const server = await startStore({ SHUTDOWN_DRAIN_MS: "2000", DEMO_DATA: "0" });
  try {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status).toBe(503);
    // Still serving during the drain: the balancer sees unready and moves on without failed requests.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
    expect(await exited).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(server.output()).toMatch(/"signal":"SIGTERM","drainMs":2000/);
    expect(server.output()).toContain('"msg":"stopped"');
  } finally {
    await stopStore(server);
  }
});
