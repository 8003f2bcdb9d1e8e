import { randomInt } from "node:crypto";
import fs from "node:fs";
import { expect } from "@playwright/test";
import { DEMO_ACCOUNT, loginAs, readLatestEmail, test as base } from "./helpers";
import { checkoutToPayment } from "./helpers/purchase";
import { freePort, newDataDir, startStore, stopStore, type StoreServer } from "./helpers/store-server";
// @ts-expect-error: plain JavaScript module without types
import { spawnServer } from "../../scripts/lib.mjs";

// Operating the store (issue 20), on production servers of this spec's own (their output is read):
// the request log of a whole purchase holds one JSON line per request and no password, NIK or OTP;
// readiness turns 503 at SIGTERM while requests are still served, then the server stops cleanly.

const METRICS_TOKEN = "operations-spec-metrics-token";

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
  const verified = page.waitForResponse(
    (response) => new URL(response.url()).pathname.startsWith("/otp") && response.request().method() === "POST",
  );
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
  expect(otpPost).toMatchObject({
    level: "info",
    method: "POST",
    route: "routes/otp",
    status: expect.any(Number),
    ms: expect.any(Number),
    userId: expect.any(Number),
  });
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

test("start-up: production names its payment gateway (none: one line saying what to set), and the sandbox and a number of proxies are warned about", async ({
  store,
}) => {
  // The worker's store names the sandbox and trusts one proxy hop (store-server.ts): both said at start.
  expect(store.output()).toContain("PAYMENT_GATEWAY=sandbox: any buyer can pay their own orders for free");
  expect(store.output()).toContain("TRUST_PROXY=1 believes the X-Forwarded-For of any client that reaches this port");

  const dataDir = newDataDir();
  const child = spawnServer({
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    BUILD_DIR: process.env.BUILD_DIR ?? "build",
    DEMO_DATA: "0",
    PAYMENT_GATEWAY: "",
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
  expect(code).toBe(1);
  const lines = output.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    level: "fatal",
    msg: expect.stringMatching(/^Invalid configuration: PAYMENT_GATEWAY: must be set in production: midtrans, or sandbox/),
  });
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
