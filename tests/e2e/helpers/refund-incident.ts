import { createHmac, randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { newBuyer, newPaymentOrder } from "./purchase";

const BIKE = "Exotic Sepeda Listrik Lipat 14 inci";

/**
 * Finance's two kinds of work, made as they happen: a buyer's virtual-account order, cancelled while
 * it waits for payment, is then paid at the bank anyway — the gateway's signed webhook (signed here
 * with the sandbox's secret from the store's DATA_DIR) reports money for a closed order. The store
 * records a payment incident and refunds all of it; the buyer gives a bank account (a number with a
 * leading zero), so the refund waits for finance's transfer ('Sedang Diproses'). Returns the
 * invoice, the amount as the pages write it, and the account number.
 */
export async function refundWaitingForTransfer(
  page: Page,
  dataDir: string,
): Promise<{ invoice: string; total: string; accountNumber: string; holder: string }> {
  await newBuyer(page);
  // The order, paid by BNI's virtual account, made by the store (its screens: checkout.spec, payment.spec).
  const orderId = await newPaymentOrder(page, { product: BIKE, phone: `0813${randomInt(10_000_000, 99_999_999)}`, method: "BNI-VA" });
  await page.goto(`/payment/${orderId}`);
  const vaNumber = await page.getByLabel("Nomor Virtual Account", { exact: true }).inputValue();
  const total = await page.getByLabel("Total Pembayaran", { exact: true }).inputValue();

  await page.goto(`/transaction-detail/${orderId}`);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();
  await page.getByRole("link", { name: "Batalkan Pesanan" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Ya" }).click();
  await expect(page.locator(".status-bar")).toHaveText("Dibatalkan");

  const body = JSON.stringify({
    id: `evt-late-${randomInt(1_000_000_000)}`,
    type: "payment.paid",
    vaNumber,
    amount: Number(total.replace(/\D/g, "")),
    paidAt: new Date().toISOString(),
  });
  const secret = fs.readFileSync(path.join(dataDir, "payment-webhook-secret"), "utf8").trim();
  const answer = await page.request.post("/webhooks/payment", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Signature": createHmac("sha512", secret).update(body).digest("hex") },
  });
  expect(answer.status()).toBe(200);

  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.getByTestId("refund-state")).toHaveText("Menunggu Data Rekening");
  const holder = `Rina Wulandari ${randomInt(100_000, 999_999)}`;
  const accountNumber = `00${randomInt(1_000_000_000, 9_999_999_999)}`;
  const form = page.getByTestId("refund-form");
  await form.getByLabel("Nama Bank", { exact: true }).selectOption("BNI");
  await form.getByLabel("Nomor Rekening", { exact: true }).fill(accountNumber);
  await form.getByLabel("Nama Pemilik Rekening", { exact: true }).fill(holder);
  await form.getByRole("button", { name: "Kirim Data Rekening" }).click();
  await expect(page.getByTestId("refund-state")).toHaveText("Sedang Diproses");
  return { invoice, total, accountNumber, holder };
}
