import { randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import { test } from "./helpers";
import { newBuyer, newPaymentOrder, samplePhoto } from "./helpers/purchase";
import { signedInStaff } from "./helpers/staff";

// Issue 36 / decision 0057: a manual transfer paid above what it asked. Finance reads the bank
// statement and records all that arrived ('Catat Kelebihan Bayar' on /ops/refunds); an amount not
// above the bill is refused in Indonesian with what was typed kept; the excess becomes a refund the
// buyer sees, asking for their account.

const BIKE = "Exotic Sepeda Listrik Lipat 14 inci";
const rupiah = (n: number) => `Rp${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ".")}`;

test("finance records a manual transfer paid above the bill: the excess is refunded to the buyer", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  test.setTimeout(240_000);
  await newBuyer(page);
  // The order, paid by manual transfer, made by the store (its checkout screens: checkout.spec, payment.spec).
  const orderId = await newPaymentOrder(page, { product: BIKE, phone: `0813${randomInt(10_000_000, 99_999_999)}` });
  await page.goto(`/payment/${orderId}`);
  const totalText = await page.getByLabel("Total Pembayaran", { exact: true }).inputValue();
  const total = Number(totalText.replace(/\D/g, ""));
  await page.getByRole("link", { name: "Saya sudah bayar" }).click();
  await page
    .getByLabel("Bukti Pembayaran", { exact: true })
    .setInputFiles({ name: "bukti.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() });
  await page.getByRole("dialog", { name: "Upload Bukti Pembayaran" }).getByRole("button", { name: "Kirim Bukti Pembayaran" }).click();
  await expect(page.getByTestId("payment-status")).toContainText("Verifikasi Bukti Transfer");
  await page.goto(`/transaction-detail/${orderId}`);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();

  // The proof is verified (300); the bank statement shows Rp50.000 more than the bill.
  const staff = await signedInStaff(browser, javaScriptEnabled, ["pesanan", "keuangan"]);
  await staff.goto(`/ops/orders/${orderId}`);
  await staff.getByRole("button", { name: "Verifikasi", exact: true }).click();
  await expect(staff.getByTestId("ops-status")).toHaveText("Pembayaran Diterima");

  await staff.goto("/ops/refunds");
  const form = staff.getByTestId("overpayment-form");
  await form.getByLabel("Nomor Invoice", { exact: true }).fill(invoice);
  await form.getByLabel("Jumlah Diterima (Rp)", { exact: true }).fill(totalText);
  await form.getByRole("button", { name: "Catat Kelebihan Bayar" }).click();
  const again = staff.getByTestId("overpayment-form");
  await expect(again.getByText(`Jumlah Diterima harus lebih besar dari dana yang sudah tercatat diterima (${totalText}).`)).toBeVisible();
  await expect(again.getByLabel("Nomor Invoice", { exact: true })).toHaveValue(invoice);
  await expect(again.getByLabel("Jumlah Diterima (Rp)", { exact: true })).toHaveValue(totalText);

  await again.getByLabel("Jumlah Diterima (Rp)", { exact: true }).fill(rupiah(total + 50_000));
  await again.getByRole("button", { name: "Catat Kelebihan Bayar" }).click();
  await expect(staff.getByTestId("toast")).toContainText("sebesar Rp50.000 dibuat.");
  await expect(staff).toHaveURL("/ops/refunds?state=awaiting-account");
  const row = staff.getByTestId("refund-row").filter({ has: staff.getByRole("link", { name: invoice, exact: true }) });
  await expect(row).toContainText("Rp50.000");
  await expect(row).toContainText(`Kelebihan bayar: diterima ${rupiah(total + 50_000)}, tagihan ${totalText}`);
  await staff.context().close();

  // The buyer: a paid order with Rp50.000 to come back, for which they give an account.
  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.getByTestId("refund").getByTestId("refund-amount")).toHaveText("Rp50.000");
  await expect(page.getByTestId("refund-state")).toHaveText("Menunggu Data Rekening");
});
