import { randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import { readLatestEmail, test } from "./helpers";
import { BUYER_PASSWORD, newBuyer, newPaymentOrder, samplePhoto } from "./helpers/purchase";
import { signedInStaff } from "./helpers/staff";

// Issue 36 "Done when": money that reached the store for an order that will not be delivered goes
// back. A manual transfer with its proof, cancelled by the buyer in 'Verifikasi Bukti Transfer',
// becomes a refund; the buyer gives a bank account (a wrong number refused first, the form keeping
// what was typed); finance (role keuangan) marks it transferred with the bank's reference; the
// buyer sees 'Dana Telah Dikembalikan' with the reference, in the bell and in an e-mail. Issue 43
// item 5: until finance acts the buyer corrects the details; the block says what happens next (no
// 'sedang ditransfer' before anyone transferred); once done it names the account, masked.

const BIKE = "Exotic Sepeda Listrik Lipat 14 inci";

test("a transfer cancelled after its proof is refunded: bank details, finance's transfer with a reference, the buyer told", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  // Two people's whole paths (a purchase with its proof, a staff sign-in with its second factor).
  test.setTimeout(240_000);
  const { email } = await newBuyer(page);
  // The order, paid by manual transfer, made by the store (its checkout screens: checkout.spec, payment.spec).
  const orderId = await newPaymentOrder(page, { product: BIKE, phone: `0813${randomInt(10_000_000, 99_999_999)}` });
  await page.goto(`/payment/${orderId}`);
  const total = await page.getByLabel("Total Pembayaran", { exact: true }).inputValue();

  // The transfer is made and its proof sent: 302 'Verifikasi Bukti Transfer'.
  await page.getByRole("link", { name: "Saya sudah bayar" }).click();
  await page
    .getByLabel("Bukti Pembayaran", { exact: true })
    .setInputFiles({ name: "bukti.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() });
  await page.getByRole("dialog", { name: "Upload Bukti Pembayaran" }).getByRole("button", { name: "Kirim Bukti Pembayaran" }).click();
  await expect(page.getByTestId("payment-status")).toContainText("Verifikasi Bukti Transfer");

  // The buyer cancels: the money they sent is now owed back to them.
  const detail = `/transaction-detail/${orderId}`;
  await page.goto(detail);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();
  await page.getByRole("link", { name: "Batalkan Pesanan" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Ya" }).click();
  await expect(page.getByTestId("toast")).toHaveText(/Pesanan berhasil dibatalkan\./);
  await expect(page.locator(".status-bar")).toHaveText("Dibatalkan");
  const refund = page.getByTestId("refund");
  await expect(refund.getByRole("heading", { name: "Pengembalian Dana" })).toBeVisible();
  await expect(refund.getByTestId("refund-amount")).toHaveText(total);
  // Issue 45 item 2: nothing is owed on the buyer's picture alone. The block says finance checks the
  // statement first; finance confirms the amount that arrived, with the refund's cause on screen.
  await expect(refund.getByTestId("refund-state")).toHaveText("Menunggu Konfirmasi Dana");
  await expect(refund.getByTestId("refund-awaiting-funds")).toContainText("mencocokkan transfer Anda dengan mutasi rekening toko");
  const finance = await signedInStaff(browser, javaScriptEnabled, ["keuangan"]);
  await finance.goto("/ops/refunds?state=awaiting-funds");
  const waiting = finance.getByTestId("refund-row").filter({ hasText: invoice });
  await expect(waiting.getByTestId("refund-cause")).toHaveText("Dibatalkan pembeli setelah mengirim bukti transfer");
  await expect(waiting.getByTestId("refund-funds")).toContainText("Belum dikonfirmasi");
  await waiting.getByRole("button", { name: "Konfirmasi Dana" }).click();
  await expect(finance.getByTestId("refund-row").filter({ hasText: invoice })).toContainText(
    "Jumlah dana yang masuk tidak boleh kosong (isi 0 jika dana tidak masuk).",
  );
  const confirmRow = finance.getByTestId("refund-row").filter({ hasText: invoice });
  await confirmRow.getByLabel("Jumlah dana yang masuk (Rp, sesuai mutasi rekening)").fill(total.replace(/\D/g, ""));
  await confirmRow.getByRole("button", { name: "Konfirmasi Dana" }).click();
  await expect(finance.getByTestId("toast")).toContainText(`Dana untuk ${invoice} dikonfirmasi: Menunggu Data Rekening.`);
  await finance.goto("/ops/refunds?state=awaiting-account");
  await expect(finance.getByTestId("refund-row").filter({ hasText: invoice }).getByTestId("refund-funds")).toContainText(
    `Dana masuk ${total}`,
  );
  await page.goto(detail);
  await expect(page.getByTestId("refund").getByTestId("refund-state")).toHaveText("Menunggu Data Rekening");
  // 'Hapus Akun' waits for this refund, and says it waits for the buyer's own bank details, with the way to the order.
  await page.goto("/profile?sheet=hapus-akun");
  const eraseSheet = page.getByRole("dialog", { name: "Hapus Akun" });
  await eraseSheet.getByLabel("Kata Sandi", { exact: true }).fill(BUYER_PASSWORD);
  await eraseSheet.getByRole("button", { name: "Hapus Akun", exact: true }).click();
  await expect(eraseSheet.getByTestId("erase-error")).toContainText(
    `pengembalian dana untuk pesanan ${invoice} menunggu data rekening Anda. Kirim data rekening pada detail pesanan, lalu coba lagi.`,
  );
  await expect(eraseSheet.getByTestId("erase-error").getByRole("link", { name: "Lihat Detail Pesanan" })).toHaveAttribute("href", detail);
  // The transaction list's card says where the money is.
  await page.goto("/transaction?statusId=1");
  await expect(page.getByTestId("order-card").first()).toContainText("Menunggu Data Rekening");
  await page.goto(detail);

  // A wrong account number first: refused in Indonesian, nothing typed is lost.
  const holder = `Rina Wulandari ${randomInt(100_000, 999_999)}`;
  const form = page.getByTestId("refund-form");
  await form.getByLabel("Nama Bank", { exact: true }).selectOption("BNI");
  await form.getByLabel("Nomor Rekening", { exact: true }).fill("12ab34");
  await form.getByLabel("Nama Pemilik Rekening", { exact: true }).fill(holder);
  await form.getByRole("button", { name: "Kirim Data Rekening" }).click();
  await expect(page.getByTestId("refund-form").getByRole("alert")).toHaveText("Nomor Rekening harus 6-20 digit angka.");
  await expect(page.getByTestId("refund-form").getByLabel("Nama Bank", { exact: true })).toHaveValue("BNI");
  await expect(page.getByTestId("refund-form").getByLabel("Nomor Rekening", { exact: true })).toHaveValue("12ab34");
  await expect(page.getByTestId("refund-form").getByLabel("Nama Pemilik Rekening", { exact: true })).toHaveValue(holder);
  await expect(page.getByTestId("refund-state")).toHaveText("Menunggu Data Rekening");

  // A mistyped (yet valid) number is sent first.
  const mistyped = `0${randomInt(100_000_000, 999_999_999)}`;
  await page.getByTestId("refund-form").getByLabel("Nomor Rekening", { exact: true }).fill(mistyped);
  await page.getByTestId("refund-form").getByRole("button", { name: "Kirim Data Rekening" }).click();
  await expect(page.getByTestId("toast")).toContainText("Data rekening terkirim.");
  await expect(page.getByTestId("refund-state")).toHaveText("Sedang Diproses");
  const next = page.getByTestId("refund-processing");
  await expect(next).toContainText(`BNI ${mistyped} a.n. ${holder}`);
  // What happens next, and by whom: nobody has transferred anything yet.
  await expect(next).toContainText("Tim keuangan akan mentransfer dana ke rekening tersebut, biasanya 1–3 hari kerja.");
  await expect(next).toContainText("Anda akan diberi tahu lewat notifikasi dan email setelah dana ditransfer.");
  await expect(page.getByTestId("refund")).not.toContainText("sedang ditransfer");
  await expect(page.getByTestId("refund-form")).toHaveCount(0);

  // Corrected before finance acts: the form comes back filled with what was sent; a wrong number is
  // refused and kept; the right one replaces it, and the refund stays 'Sedang Diproses'.
  await next.getByRole("link", { name: "Ubah Data Rekening" }).click();
  const edit = page.getByTestId("refund-form");
  await expect(edit.getByLabel("Nama Bank", { exact: true })).toHaveValue("BNI");
  await expect(edit.getByLabel("Nomor Rekening", { exact: true })).toHaveValue(mistyped);
  await expect(edit.getByLabel("Nama Pemilik Rekening", { exact: true })).toHaveValue(holder);
  await edit.getByLabel("Nomor Rekening", { exact: true }).fill("98-76x");
  await edit.getByRole("button", { name: "Simpan Data Rekening" }).click();
  await expect(page.getByTestId("refund-form").getByRole("alert")).toHaveText("Nomor Rekening harus 6-20 digit angka.");
  await expect(page.getByTestId("refund-form").getByLabel("Nomor Rekening", { exact: true })).toHaveValue("98-76x");
  const accountNumber = `0${randomInt(100_000_000, 999_999_999)}`;
  await page.getByTestId("refund-form").getByLabel("Nomor Rekening", { exact: true }).fill(accountNumber);
  await page.getByTestId("refund-form").getByRole("button", { name: "Simpan Data Rekening" }).click();
  await expect(page.getByTestId("toast")).toContainText("Data rekening diperbarui.");
  await expect(page.getByTestId("refund-state")).toHaveText("Sedang Diproses");
  await expect(page.getByTestId("refund-processing")).toContainText(`BNI ${accountNumber} a.n. ${holder}`);
  await expect(page.getByTestId("refund-form")).toHaveCount(0);

  // Finance (role keuangan only) on 'Pengembalian Dana', the transfers to make.
  await finance.getByRole("navigation", { name: "Menu back office" }).getByRole("link", { name: "Pengembalian Dana" }).click();
  await expect(finance).toHaveURL("/ops/refunds");
  await expect(finance.getByRole("heading", { name: "Pengembalian Dana", level: 1 })).toBeVisible();
  await finance.getByTestId("refund-tab-processing").click();
  const row = finance.getByTestId("refund-row").filter({ hasText: holder });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`BNI ${accountNumber}`);
  await expect(row).not.toContainText(mistyped);
  await expect(row).toContainText(total);
  // The reference is required.
  await row.getByRole("button", { name: "Tandai Sudah Ditransfer" }).click();
  await expect(finance.getByTestId("refund-row").filter({ hasText: holder })).toContainText("Nomor Referensi Transfer tidak boleh kosong.");
  const reference = `TRF${randomInt(10_000_000, 99_999_999)}`;
  const again = finance.getByTestId("refund-row").filter({ hasText: holder });
  await again.getByLabel("Nomor Referensi Transfer", { exact: true }).fill(reference);
  await again.getByRole("button", { name: "Tandai Sudah Ditransfer" }).click();
  await expect(finance.getByTestId("toast")).toContainText("tersimpan.");
  await expect(finance.getByTestId("refund-row").filter({ hasText: holder })).toHaveCount(0);
  await finance.goto("/ops/refunds?state=refunded");
  await expect(finance.getByTestId("refund-row").filter({ hasText: holder })).toContainText(`Referensi: ${reference}`);
  // 'Keuangan': today's transfers show money received and refunded (the shared server's other orders too).
  await finance.getByRole("navigation", { name: "Menu back office" }).getByRole("link", { name: "Keuangan" }).click();
  await expect(finance).toHaveURL("/ops/finance");
  await expect(finance.getByRole("heading", { name: "Keuangan", level: 1 })).toBeVisible();
  await expect(finance.getByTestId("finance-days").getByRole("row").filter({ hasText: "Transfer Manual" }).first()).toBeVisible();
  await finance.context().close();

  // The buyer: the money is back, with the bank's reference, in the bell and in the mail.
  await page.goto(detail);
  await expect(page.getByTestId("refund-state")).toHaveText("Dana Telah Dikembalikan");
  await expect(page.getByTestId("refund-reference")).toHaveText(reference);
  await expect(page.getByTestId("refund-done")).toContainText("Tanggal Pengembalian");
  // Where the money went, masked: the last four digits only, never the whole number; no correction any more.
  await expect(page.getByTestId("refund-account")).toHaveText(
    `BNI ${"*".repeat(accountNumber.length - 4)}${accountNumber.slice(-4)} a.n. ${holder}`,
  );
  expect(await page.content()).not.toContain(accountNumber);
  await expect(page.getByRole("link", { name: "Ubah Data Rekening" })).toHaveCount(0);
  await page.goto("/notifikasi");
  const items = page.getByTestId("notification");
  await expect(items.filter({ hasText: "Pengembalian Dana: Dana Telah Dikembalikan" })).toHaveCount(1);
  await expect(items.filter({ hasText: "Pengembalian Dana: Dana Telah Dikembalikan" })).toContainText(reference);
  const mail = await readLatestEmail(page, email, { subject: `Pengembalian Dana: Dana Telah Dikembalikan — ${invoice}` });
  expect(mail.text).toContain(reference);
});
