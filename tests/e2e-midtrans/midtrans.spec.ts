import { randomInt } from "node:crypto";
import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import { test } from "../e2e/helpers";
import { checkoutToPayment, newBuyer } from "../e2e/helpers/purchase";

// Paying through Midtrans (issue 18), with and without JavaScript, against the fake Midtrans that
// playwright.midtrans.config.ts starts beside the store: a BNI virtual account paid at the "bank"
// (the fake settles it and sends the signed notification), a Mandiri bill payment, and a BNI card
// instalment on Snap's page and back, with 'Lanjutkan Pembayaran' on the order list meanwhile, also
// one challenged by Midtrans's fraud review and accepted later.

test.describe.configure({ timeout: 180_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const BIKE = "Exotic Sepeda Listrik Lipat 14 inci";
const BATTERY = "Baterai Cadangan Motor Listrik 60V 28Ah";
const fakeUrl = () => fs.readFileSync(process.env.MIDTRANS_FAKE_URL_FILE!, "utf8").trim();
const uniquePhone = () => `0813${randomInt(10_000_000, 99_999_999)}`;

type FakeTx = {
  order_id: string;
  transaction_status: string;
  va_numbers?: { va_number: string }[];
  bill_key?: string;
  biller_code?: string;
  installment_term?: number;
};

async function fakeTransactions(page: Page): Promise<FakeTx[]> {
  return (await page.request.get(`${fakeUrl()}/_fake/transactions`)).json();
}

/** The bank pays the transaction at the fake Midtrans, which notifies the store (signed). */
async function payAtBank(page: Page, tx: FakeTx) {
  const answer = await page.request.post(`${fakeUrl()}/_fake/pay/${tx.order_id}`);
  expect(answer.status()).toBe(200);
  expect((await answer.json()).notified).toMatchObject({ status: 200, body: { ok: true, outcome: "paid" } });
}

async function chooseMethod(page: Page, method: string) {
  await page.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await page.getByRole("radio", { name: new RegExp(method) }).check();
  await page.locator(".checkout-bar").getByRole("button").click();
}

async function payPage(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  return Number(new URL(page.url()).pathname.split("/").pop());
}

test("BNI virtual account from Midtrans, paid at the bank: the notification settles the order", async ({ page, javaScriptEnabled }) => {
  await newBuyer(page);
  await checkoutToPayment(page, javaScriptEnabled, { product: BIKE, phone: uniquePhone() });
  await chooseMethod(page, "BNI Virtual Account");
  const orderId = await payPage(page);
  const va = page.getByLabel("Nomor Virtual Account", { exact: true });
  await expect(va).toHaveValue(/^9888\d{12}$/); // the fake's BNI numbers, not the sandbox's 8808…
  await expect(page.getByTestId("payment-deadline")).toHaveText(/WIB$/);
  await expect(page.getByRole("button", { name: "Bayar (Sandbox)" })).toHaveCount(0);
  const vaNumber = await va.inputValue();
  const mine = (await fakeTransactions(page)).find((t) => t.va_numbers?.[0]?.va_number === vaNumber);
  expect(mine?.transaction_status).toBe("pending");

  await payAtBank(page, mine!);
  await page.goto(`/payment/${orderId}`);
  await expect(page.getByTestId("payment-paid")).toContainText("telah kami terima");
  await page.goto("/transaction");
  await expect(page.getByTestId("order-card").first().getByTestId("order-status")).toHaveText("Pembayaran Diterima");
});

test("Mandiri bill payment: 'Kode Perusahaan' and 'Kode Bayar', then paid", async ({ page, javaScriptEnabled }) => {
  await newBuyer(page);
  await checkoutToPayment(page, javaScriptEnabled, { product: BIKE, phone: uniquePhone() });
  await chooseMethod(page, "Mandiri Virtual Account");
  const orderId = await payPage(page);
  await expect(page.getByLabel("Kode Perusahaan", { exact: true })).toHaveValue("70012");
  const billKey = page.getByLabel("Kode Bayar", { exact: true });
  await expect(billKey).toHaveValue(/^9\d{11}$/);
  await expect(page.getByLabel("Nomor Virtual Account", { exact: true })).toHaveCount(0);
  await page.locator("details.how-to-item > summary").first().click();
  await expect(page.locator("details.how-to-item").first()).toContainText("Kode Perusahaan 70012");

  const key = await billKey.inputValue();
  const tx = (await fakeTransactions(page)).find((t) => t.bill_key === key)!;
  expect(tx.biller_code).toBe("70012");
  await payAtBank(page, tx);
  await page.goto(`/payment/${orderId}`);
  await expect(page.getByTestId("payment-paid")).toBeVisible();
});

test("BNI card instalment on Snap: sent to Midtrans's page, 'Lanjutkan Pembayaran' on the list, paid and back", async ({
  page,
  javaScriptEnabled,
}) => {
  await newBuyer(page);
  await checkoutToPayment(page, javaScriptEnabled, { product: BATTERY, phone: uniquePhone() });
  await chooseMethod(page, "Cicilan Kartu Kredit BNI");
  await expect(page).toHaveURL("/tenorlist");
  await page.getByRole("radio", { name: "6x Cicilan 3%" }).check();
  await page.getByRole("button", { name: "Pilih", exact: true }).click();
  await expect(page).toHaveURL("/paymentmethod");
  // 'continue' answers with a redirect to Snap's page (without JavaScript: the form POST's answer,
  // which the CSP's form-action must allow).
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(new RegExp(`^${fakeUrl()}/snap/v2/vtweb/`));
  const snapUrl = page.url();
  await expect(page.getByTestId("snap-installment")).toHaveText("Cicilan BNI 6 bulan (wajib)");

  // The buyer leaves Snap without paying: the order list offers to continue there.
  await page.goto("/transaction");
  const card = page.getByTestId("order-card").first();
  await expect(card.getByTestId("order-status")).toHaveText("Menunggu Persetujuan Cicilan");
  const resume = card.getByRole("link", { name: "Lanjutkan Pembayaran" });
  await expect(resume).toHaveAttribute("href", snapUrl);
  await resume.click();
  await expect(page).toHaveURL(snapUrl);
  await page.getByRole("button", { name: "Bayar dengan Kartu" }).click();
  // Midtrans's finish URL brings the buyer back to /payment/{id}, which shows the outcome.
  await expect(page).toHaveURL(/\/payment\/\d+\?order_id=/);
  await expect(page.getByTestId("payment-paid")).toContainText("telah kami terima");
  await page.goto("/transaction");
  await expect(page.getByTestId("order-card").first().getByRole("link", { name: "Lanjutkan Pembayaran" })).toHaveCount(0);
});

test("BNI card instalment challenged by Midtrans's fraud review: waits for approval, then settles once accepted (issue 25)", async ({
  page,
  javaScriptEnabled,
}) => {
  await newBuyer(page);
  await checkoutToPayment(page, javaScriptEnabled, { product: BATTERY, phone: uniquePhone() });
  await chooseMethod(page, "Cicilan Kartu Kredit BNI");
  await page.getByRole("radio", { name: "3x Cicilan 0%" }).check();
  await page.getByRole("button", { name: "Pilih", exact: true }).click();
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(new RegExp(`^${fakeUrl()}/snap/v2/vtweb/`));
  const reference = (await page.getByTestId("snap-order").textContent())!;
  // The card is captured, but the fraud detection challenges it: Midtrans notifies capture + challenge.
  expect((await page.request.post(`${fakeUrl()}/_fake/challenge-next`)).status()).toBe(200);
  await page.getByRole("button", { name: "Bayar dengan Kartu" }).click();
  await expect(page).toHaveURL(/\/payment\/\d+\?order_id=/);
  await expect(page.getByTestId("payment-paid")).toHaveCount(0);
  await page.goto("/transaction");
  await expect(page.getByTestId("order-card").first().getByTestId("order-status")).toHaveText("Menunggu Persetujuan Cicilan");

  // The merchant accepts it after the review: Midtrans notifies capture + accept, which settles the order.
  const accepted = await page.request.post(`${fakeUrl()}/_fake/approve/${reference}`);
  expect((await accepted.json()).notified).toMatchObject({ status: 200, body: { ok: true, outcome: "paid" } });
  const replay = await page.request.post(`${fakeUrl()}/_fake/notify/${reference}`);
  expect((await replay.json()).notified).toMatchObject({ status: 200, body: { ok: true, outcome: "replay" } });
  await page.reload();
  await expect(page.getByTestId("order-card").first().getByTestId("order-status")).toHaveText("Pembayaran Diterima");
});
