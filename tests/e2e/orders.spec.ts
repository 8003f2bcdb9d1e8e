import { randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import { DEMO_ACCOUNT, loginAs, test } from "./helpers";
import { newBuyer, ops, newIncentiveOrder, samplePhoto } from "./helpers/purchase";

// Following an order as a buyer: the list (empty, unverified, filters through the address with the
// three date messages), the detail with the cancel confirmation, the 404 for anyone else, and the
// whole life of an incentive order (ops CLI approves and ships, 'Bayar (Sandbox)' pays).
// Each test registers its own account: both projects share one server and database.

test.describe.configure({ timeout: 150_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());

test("the transaction list of an unverified and of a new account", async ({ page }) => {
  await newBuyer(page, { activate: false });
  await page.goto("/transaction");
  await expect(page.getByRole("heading", { name: "Lakukan aktivasi akun dulu, yuk!" })).toBeVisible();

  await page.context().clearCookies();
  await newBuyer(page);
  await page.goto("/transaction");
  await expect(page.getByRole("heading", { name: "Anda belum pernah bertransaksi" })).toBeVisible();
  await page.getByRole("link", { name: "Mulai Belanja" }).click();
  await expect(page).toHaveURL("/home");
});

test("an order in the list, the filters through the address, cancelling it, and 404 for others", async ({ page, browser }) => {
  await newBuyer(page);
  const orderId = await newIncentiveOrder(page);

  await page.goto("/transaction");
  const card = page.getByTestId("order-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("order-status")).toHaveText("Menunggu Verifikasi Insentif");
  await expect(card).toContainText("Gesits G1 Motor Listrik Nasional");
  await expect(card).toContainText("1 barang");
  await expect(card).toContainText("Total Belanja");
  await expect(page.getByRole("link", { name: "Muat lebih banyak" })).toHaveCount(0);

  // Status filter: the sheet, a status without orders, then back to all.
  await page.getByTestId("status-filter").click();
  const statusSheet = page.getByRole("dialog", { name: "Mau lihat status apa?" });
  await statusSheet.getByRole("link", { name: "Selesai", exact: true }).click();
  await expect(page).toHaveURL("/transaction?statusId=500");
  await expect(page.getByTestId("order-card")).toHaveCount(0);
  await expect(page.getByTestId("transaction-none")).toBeVisible();
  await expect(page.getByTestId("status-filter")).toHaveText("Selesai");
  await page.goto("/transaction?statusId=100");
  await expect(page.getByTestId("order-card")).toHaveCount(1);

  // Date filter: the three messages, shown on the page, the list unfiltered; then a good range.
  await page.getByTestId("date-filter").click();
  const dateSheet = page.getByRole("dialog", { name: "Tanggal Transaksi" });
  await dateSheet.getByRole("button", { name: "Atur Tanggal" }).click();
  await expect(page.getByTestId("date-error")).toHaveText("Tanggal awal tidak boleh kosong.");
  await expect(page.getByTestId("order-card")).toHaveCount(1);
  await page.getByLabel("Mulai Dari").fill("2024-01-10");
  await page.getByRole("dialog", { name: "Tanggal Transaksi" }).getByRole("button", { name: "Atur Tanggal" }).click();
  await expect(page.getByTestId("date-error")).toHaveText("Tanggal akhir tidak boleh kosong.");
  await page.getByLabel("Mulai Dari").fill("2024-01-10");
  await page.getByLabel("Sampai").fill("2024-01-01");
  await page.getByRole("dialog", { name: "Tanggal Transaksi" }).getByRole("button", { name: "Atur Tanggal" }).click();
  await expect(page.getByTestId("date-error")).toHaveText("Tanggal akhir tidak boleh lebih dari tanggal awal.");
  await expect(page).toHaveURL(/statusId=100/); // the status filter stays
  await page.getByLabel("Mulai Dari").fill("2024-01-01");
  await page.getByLabel("Sampai").fill("2024-01-10");
  await page.getByRole("dialog", { name: "Tanggal Transaksi" }).getByRole("button", { name: "Atur Tanggal" }).click();
  await expect(page).toHaveURL("/transaction?statusId=100&dateFrom=2024-01-01&dateTo=2024-01-10");
  await expect(page.getByTestId("order-card")).toHaveCount(0);
  await page.goto(`/transaction?dateFrom=${today()}&dateTo=${today()}`);
  await expect(page.getByTestId("order-card")).toHaveCount(1);
  await page.getByTestId("filter-reset").click();
  await expect(page).toHaveURL("/transaction");

  // The detail: status bar, invoice, buyer, cost breakdown, and the cancel with its confirmation.
  await page.getByRole("link", { name: "Lihat Detail" }).click();
  await expect(page).toHaveURL(`/transaction-detail/${orderId}`);
  await expect(page.locator(".status-bar")).toHaveText("Menunggu Verifikasi Insentif");
  await expect(page.locator(".status-bar")).toHaveClass(/tone-warning/);
  await expect(page.getByTestId("buyer-address")).toContainText("Kota Bandung, Jawa Barat 40111");
  await expect(page.getByTestId("cost-lines")).toContainText("Insentif Pemerintah");
  await expect(page.getByRole("link", { name: "Konfirmasi Barang Sampai" })).toHaveCount(0);
  await page.getByRole("link", { name: "Lihat Invoice" }).click();
  await expect(page.getByTestId("invoice-number")).toHaveText(/^INV\//);
  await expect(page.getByTestId("invoice-issued")).toHaveText("-");
  await expect(page.getByTestId("paid-stamp")).toHaveCount(0);
  await page.getByRole("link", { name: "Kembali" }).click();
  await expect(page).toHaveURL(`/transaction-detail/${orderId}`);

  await page.getByRole("link", { name: "Batalkan Pesanan" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Apakah kamu yakin ingin membatalkan pesanan?" });
  await dialog.getByRole("link", { name: "Tidak" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator(".status-bar")).toHaveText("Menunggu Verifikasi Insentif");
  await page.getByRole("link", { name: "Batalkan Pesanan" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Ya" }).click();
  await expect(page.getByTestId("toast")).toHaveText(/Pesanan berhasil dibatalkan\./);
  await expect(page.locator(".status-bar")).toHaveText("Dibatalkan");
  await expect(page.locator(".status-bar")).toHaveClass(/tone-danger/);
  await expect(page.getByRole("link", { name: "Batalkan Pesanan" })).toHaveCount(0);
  await page.goto("/transaction?statusId=1");
  await expect(page.getByTestId("order-card")).toHaveCount(1);

  // Anyone else: the 404 page for the detail, its sheets and the invoice.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await loginAs(otherPage, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
  for (const url of [`/transaction-detail/${orderId}`, `/transaction-detail/${orderId}?sheet=cancel`, `/transaction-invoice/${orderId}`]) {
    const response = await otherPage.goto(url);
    expect(response?.status(), url).toBe(404);
    await expect(otherPage.getByText("Page Not Found")).toBeVisible();
  }
  await other.close();
});

test("an incentive order approved, paid, shipped, confirmed with a photo, the reward and the paid invoice", async ({ page }) => {
  test.setTimeout(300_000);
  await newBuyer(page);
  const orderId = await newIncentiveOrder(page);
  const detail = `/transaction-detail/${orderId}`;

  // Ops approves the incentive: the buyer chooses a method from the detail (the spec's set-payment).
  await ops("orders:approve-incentive", String(orderId));
  await page.goto(detail);
  await expect(page.locator(".status-bar")).toHaveText("Menunggu Pembayaran");
  await page.getByRole("link", { name: "Pilih Metode Pembayaran" }).click();
  await expect(page).toHaveURL(`/paymentmethod?orderId=${orderId}`);
  const goodsTotal = await page.getByTestId("summary-total").textContent();
  await page.getByRole("link", { name: "Pilih Metode Pembayaran" }).click();
  await page.getByRole("radio", { name: /BNI Virtual Account/ }).check();
  await page.locator(".checkout-bar").getByRole("button", { name: "Pilih" }).click();
  await expect(page).toHaveURL(new RegExp(`/paymentmethod\\?orderId=${orderId}&paymentMethodId=\\d+$`));
  await expect(page.getByTestId("summary-method")).toContainText("BNI Virtual Account");
  const vaTotal = await page.getByTestId("summary-total").textContent();
  expect(vaTotal).not.toBe(goodsTotal);
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(`/payment/${orderId}`);

  // The list and the detail now lead to the payment page.
  await page.goto("/transaction");
  await page.getByRole("link", { name: "Lihat Cara Bayar" }).click();
  await expect(page).toHaveURL(`/payment/${orderId}`);
  await expect(page.getByLabel("Total Pembayaran", { exact: true })).toHaveValue(vaTotal!);
  await page.getByRole("button", { name: "Bayar (Sandbox)" }).click();
  await expect(page.getByTestId("payment-paid")).toContainText("Pembayaran Diterima");
  // Paid (300) is 'LUNAS' on the invoice already, with the date of payment (issue 16).
  await page.goto(`/transaction-invoice/${orderId}`);
  await expect(page.getByTestId("paid-stamp")).toHaveText("LUNAS");
  await expect(page.getByTestId("paid-at")).toHaveText(/^Dibayar pada \d{2} \w{3} \d{4} \d{2}:\d{2} WIB$/);

  await ops("orders:ship", String(orderId), "JNE", "JNE0012345");
  await page.goto(detail);
  await expect(page.locator(".status-bar")).toHaveText("Dalam Pengiriman");
  await page.getByRole("link", { name: "Konfirmasi Barang Sampai" }).click();
  const sheet = page.getByTestId("confirm-sheet");
  // Two photos in the one `multiple` input (issue 16).
  await sheet.locator('input[type="file"]').setInputFiles([
    { name: "sampai.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() },
    { name: "paket.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() },
  ]);
  await sheet.getByRole("button", { name: "Konfirmasi" }).click();
  await expect(page).toHaveURL(new RegExp(`/transaction-done\\?order=${orderId}$`));
  await expect(page.getByTestId("reward-sheet")).toContainText("+Rp");
  await page.goto(detail);
  await expect(page.locator(".status-bar")).toHaveText("Selesai");
  await expect(page.getByTestId("delivery-proof")).toHaveText(["Lihat Bukti Barang Sampai 1", "Lihat Bukti Barang Sampai 2"]);
  for (const href of await page.getByTestId("delivery-proof").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
    expect((await page.request.get(href)).headers()["content-type"]).toBe("image/jpeg");
  }
  await page.getByRole("link", { name: "Lihat Invoice" }).click();
  await expect(page.getByTestId("paid-stamp")).toHaveText("LUNAS");
});
