import { randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import { BUYER_PASSWORD, checkoutToPayment, registerBuyer } from "../e2e/helpers/purchase";
import { loginAs, test } from "../e2e/helpers";

// Issue 16 item 10: two instances on one PostgreSQL, as behind a per-request balancer. The buyer
// signs in through the first, checks out and pays through the second, and the gateway's webhook
// (the sandbox posts it to APP_URL) reaches the first; each instance then shows the order paid.
test.describe.configure({ timeout: 180_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const [first, second] = process.env.INSTANCE_URLS!.split(",") as [string, string];

test("sign in on one instance, check out on the other, paid by a webhook to the first", async ({ page, browser, javaScriptEnabled }) => {
  // An account of this test's own (the js and nojs runs go at once; a buyer has one checkout draft).
  const { email } = await registerBuyer(page);
  await page.context().clearCookies();
  await loginAs(page, email, BUYER_PASSWORD);
  expect(new URL(page.url()).origin).toBe(first);

  // The same browser (cookies are per host, not per port) talking to the second instance.
  const context = await browser.newContext({
    baseURL: second,
    javaScriptEnabled,
    viewport: page.viewportSize(),
    locale: "id-ID",
    extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
    storageState: await page.context().storageState(),
  });
  const other = await context.newPage();
  await checkoutToPayment(other, javaScriptEnabled, {
    product: "Exotic Sepeda Listrik Lipat 14 inci",
    phone: `0813${randomInt(10_000_000, 99_999_999)}`,
  });
  await other.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await other.getByRole("radio", { name: /BNI Virtual Account/ }).check();
  await other.locator(".checkout-bar").getByRole("button").click();
  await expect(other).toHaveURL("/paymentmethod");
  await other.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(other).toHaveURL(/\/payment\/\d+$/);
  const orderId = Number(new URL(other.url()).pathname.split("/").pop());
  expect(new URL(other.url()).origin).toBe(second);

  await other.getByRole("button", { name: "Bayar (Sandbox)" }).click();
  await expect(other.getByTestId("payment-paid")).toContainText("Pembayaran Diterima");
  await context.close();

  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.locator(".status-bar")).toHaveText("Pembayaran Diterima");
});
