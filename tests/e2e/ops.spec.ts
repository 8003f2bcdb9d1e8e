import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { loginAs, OUTBOX_PATH, parseOutbox, test } from "./helpers";
import { BUYER_PASSWORD, buyIncentiveOrder, newPaymentOrder, newBuyer, ops, registerBuyer, samplePhoto } from "./helpers/purchase";
import { enrolStaffThroughScreens, signedInStaff } from "./helpers/staff";

// The operators' back office (issue 17), with JavaScript on and off: an operator signs in, enrols
// the TOTP second factor (codes computed here from the page's 'Kunci'), approves an incentive after
// opening the KTP photo, and ships with a tracking number the buyer then sees; a transfer proof is
// rejected with a reason the buyer sees; a buyer who opens /ops gets the plain 404 page.
// Each test registers its own accounts: both projects share one server and database.

test.describe.configure({ timeout: 300_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const BIKE = "Exotic Sepeda Listrik Lipat 14 inci";

/** Opens the order from its queue on /ops (the queue's list, oldest first), by its invoice. */
async function openFromQueue(page: Page, queue: string, invoice: string) {
  await page.goto("/ops");
  await page.getByRole("link", { name: new RegExp(`^${queue}`) }).click();
  await expect(page.getByRole("heading", { name: new RegExp(`^${queue}`) })).toBeVisible();
  await page.getByRole("link", { name: invoice, exact: true }).click();
  await expect(page.getByTestId("ops-invoice")).toHaveText(invoice);
}

/** The 302 'Tolak' form (302 also offers 'Tolak Permanen', with the same 'Dana diterima' choice). */
const rejectForm = (page: Page) => page.locator("form").filter({ has: page.getByLabel("Alasan", { exact: true }) });

test("an operator enrols the second factor, approves an incentive after opening the KTP; the buyer pays; shipped with a tracking number the buyer sees", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  await registerBuyer(page);
  const orderId = await buyIncentiveOrder(page, javaScriptEnabled);
  const detail = `/transaction-detail/${orderId}`;
  await page.goto(detail);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();

  // The one spec that enrols the second factor through /ops/2fa (every other gets it from the store).
  const operator = await enrolStaffThroughScreens(browser, javaScriptEnabled);
  await openFromQueue(operator, "Verifikasi Insentif", invoice);
  await expect(operator.getByTestId("ops-status")).toHaveText("Menunggu Verifikasi Insentif");
  await expect(operator.getByText("Slamet Riyadi")).toBeVisible(); // the father's name
  // The KTP photo opens full size in a new tab, served to the operator only.
  const ktp = operator.getByRole("img", { name: "Foto KTP" });
  await expect(ktp).toBeVisible();
  const [photoTab] = await Promise.all([operator.waitForEvent("popup"), operator.getByRole("link", { name: "Foto KTP" }).click()]);
  // Issue 35: through its order, on record (the personal-data access log).
  await expect(photoTab).toHaveURL(/\/ops\/orders\/\d+\/ktp$/);
  const ktpUrl = photoTab.url();
  await photoTab.close();
  const image = await operator.request.get(ktpUrl);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/jpeg");
  expect(image.headers()["cache-control"]).toMatch(/^private/);
  await operator.getByRole("button", { name: "Setujui" }).click();
  await expect(operator.getByTestId("toast")).toContainText("Insentif disetujui.");
  await expect(operator.getByTestId("ops-status")).toHaveText("Menunggu Pembayaran");
  await expect(operator.getByTestId("timeline")).toContainText(/Menunggu Pembayaran\s*oleh Operator pesan-/);

  // The buyer pays with a virtual account and the sandbox.
  await page.goto(detail);
  await expect(page.locator(".status-bar")).toHaveText("Menunggu Pembayaran");
  await page.getByRole("link", { name: "Pilih Metode Pembayaran" }).click();
  await expect(page).toHaveURL(`/paymentmethod?orderId=${orderId}`);
  await page.getByRole("link", { name: "Pilih Metode Pembayaran" }).click();
  await expect(page).toHaveURL(/\/paymentmethodlist/);
  await page.getByRole("radio", { name: /BNI Virtual Account/ }).check();
  await page.locator(".checkout-bar").getByRole("button", { name: "Pilih" }).click();
  await expect(page).toHaveURL(new RegExp(`/paymentmethod\\?orderId=${orderId}&paymentMethodId=\\d+$`));
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(`/payment/${orderId}`);
  await page.getByRole("button", { name: "Bayar (Sandbox)" }).click();
  await expect(page.getByTestId("payment-paid")).toContainText("Pembayaran Diterima");

  // Shipping: the tracking number is required; then the buyer sees the courier and the number.
  await openFromQueue(operator, "Siap Dikirim", invoice);
  await operator.getByLabel("Kurir", { exact: true }).selectOption("JNE");
  await operator.getByRole("button", { name: "Kirim" }).click();
  await expect(operator.getByText("Nomor Resi tidak boleh kosong.")).toBeVisible();
  await expect(operator.getByTestId("ops-status")).toHaveText("Pembayaran Diterima");
  const resi = `JNE${randomInt(1e9, 9e9)}`;
  await operator.getByLabel("Nomor Resi", { exact: true }).fill(resi);
  await operator.getByLabel("Kurir", { exact: true }).selectOption("JNE");
  await operator.getByRole("button", { name: "Kirim" }).click();
  await expect(operator.getByTestId("toast")).toContainText("Pesanan dikirim.");
  await expect(operator.getByTestId("ops-status")).toHaveText("Dalam Pengiriman");
  await expect(operator.getByTestId("ops-tracking")).toHaveText(resi);

  await page.goto(detail);
  await expect(page.locator(".status-bar")).toHaveText("Dalam Pengiriman");
  await expect(page.getByTestId("courier")).toHaveText("JNE");
  await expect(page.getByTestId("tracking-number")).toHaveText(resi);
  await operator.context().close();
});

/** A new buyer's order of the bike, to be paid by manual BNI transfer, made by the store: its payment page is open. */
async function manualTransferOrder(page: Page) {
  const { email } = await newBuyer(page);
  const orderId = await newPaymentOrder(page, { product: BIKE, phone: `0813${randomInt(10_000_000, 99_999_999)}` });
  await page.goto(`/payment/${orderId}`);
  return { orderId, email };
}

test("a transfer proof rejected with a reason: the buyer sees the reason on the order and in the e-mail", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  const { orderId } = await manualTransferOrder(page);
  const code = String(Number((await page.getByLabel("Total Pembayaran", { exact: true }).inputValue()).replace(/\D/g, ""))).slice(-3);
  await page.getByRole("link", { name: "Saya sudah bayar" }).click();
  await page
    .getByLabel("Bukti Pembayaran", { exact: true })
    .setInputFiles({ name: "bukti.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() });
  await page.getByRole("dialog", { name: "Upload Bukti Pembayaran" }).getByRole("button", { name: "Kirim Bukti Pembayaran" }).click();
  await expect(page.getByTestId("payment-status")).toContainText("Verifikasi Bukti Transfer");
  await page.goto(`/transaction-detail/${orderId}`);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();

  const operator = await signedInStaff(browser, javaScriptEnabled);
  await openFromQueue(operator, "Bukti Transfer", invoice);
  await expect(operator.getByRole("img", { name: "Bukti Transfer" })).toBeVisible();
  await expect(operator.getByTestId("ops-unique-code")).toHaveText(code);
  // 'Tolak' needs its reason.
  await operator.getByRole("button", { name: "Tolak", exact: true }).click();
  await expect(operator.getByText("Alasan tidak boleh kosong.")).toBeVisible();
  await expect(operator.getByTestId("ops-status")).toHaveText("Verifikasi Bukti Transfer");
  const reason = "Nominal pada bukti transfer tidak sesuai dengan kode unik.";
  await operator.getByLabel("Alasan", { exact: true }).fill(reason);
  // Issue 45 item 1: the rejection says whether the money arrived; without it nothing changes.
  await operator.getByRole("button", { name: "Tolak", exact: true }).click();
  await expect(operator.getByText("Pilih apakah dana sudah masuk ke rekening toko.")).toBeVisible();
  await expect(operator.getByTestId("ops-status")).toHaveText("Verifikasi Bukti Transfer");
  await rejectForm(operator).getByLabel("Dana belum diterima").check();
  await rejectForm(operator).getByRole("button", { name: "Tolak", exact: true }).click();
  await expect(operator.getByTestId("toast")).toContainText("Bukti transfer ditolak.");
  await expect(operator.getByTestId("ops-status")).toHaveText("Menunggu Pembayaran");
  await expect(operator.getByTestId("timeline")).toContainText(reason);

  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.locator(".status-bar")).toHaveText("Menunggu Pembayaran");
  await expect(page.getByTestId("rejection-reason")).toContainText("Bukti transfer ditolak");
  await expect(page.getByTestId("rejection-reason")).toContainText(reason);
  // The e-mail goes to the order's e-mail (the checkout's), named by the invoice.
  await expect
    .poll(
      async () =>
        parseOutbox(await (await page.request.get(OUTBOX_PATH)).text()).find((m) => m.subject === `Bukti Transfer Ditolak – ${invoice}`)
          ?.text ?? "",
    )
    .toContain(`Alasan: ${reason}`);
  await operator.context().close();
});

// A rejected proof (302 → 200) clears the payment's "marked paid", so the payment page offers
// 'Saya sudah bayar' again with the operator's reason (issue 16 item 1).
test("after a rejected proof the buyer sends a new one and the operator verifies it", async ({ page, browser, javaScriptEnabled }) => {
  const { orderId } = await manualTransferOrder(page);
  const sendProof = async () => {
    await page.goto(`/payment/${orderId}`);
    await page.getByRole("link", { name: "Saya sudah bayar" }).click();
    await page
      .getByLabel("Bukti Pembayaran", { exact: true })
      .setInputFiles({ name: "bukti.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() });
    await page.getByRole("dialog", { name: "Upload Bukti Pembayaran" }).getByRole("button", { name: "Kirim Bukti Pembayaran" }).click();
    await expect(page.getByTestId("payment-status")).toContainText("Verifikasi Bukti Transfer");
  };
  await sendProof();
  await page.goto(`/transaction-detail/${orderId}`);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();
  const operator = await signedInStaff(browser, javaScriptEnabled);
  await openFromQueue(operator, "Bukti Transfer", invoice);
  await operator.getByLabel("Alasan", { exact: true }).fill("Bukti transfer buram.");
  await rejectForm(operator).getByLabel("Dana belum diterima").check();
  await operator.getByRole("button", { name: "Tolak", exact: true }).click();
  await expect(operator.getByTestId("ops-status")).toHaveText("Menunggu Pembayaran");

  await page.goto(`/payment/${orderId}`);
  await expect(page.getByText("Bukti transfer buram.")).toBeVisible();
  await sendProof();
  await openFromQueue(operator, "Bukti Transfer", invoice);
  await operator.getByRole("button", { name: "Verifikasi" }).click();
  await expect(operator.getByTestId("ops-status")).toHaveText("Pembayaran Diterima");
  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.locator(".status-bar")).toHaveText("Pembayaran Diterima");
  await operator.context().close();
});

test("at 390 px: the sign-in toast never covers the code field and goes when a wrong code shows; a table scrolls inside its card (issue 25)", async ({
  page,
}) => {
  // The buyer's order gives the search a row; then the same account becomes an operator and signs in again.
  const { orderId, email } = await manualTransferOrder(page);
  await page.goto(`/transaction-detail/${orderId}`);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();
  await ops("users:grant-operator", email);
  await page.context().clearCookies();
  await loginAs(page, email, BUYER_PASSWORD, "/ops");
  await expect(page).toHaveURL("/ops/2fa");
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Login berhasil");
  const code = page.getByLabel("Kode", { exact: true });
  const submit = page.getByRole("button", { name: "Aktifkan" });
  const toastBox = (await toast.boundingBox())!;
  for (const control of [code, submit]) {
    const box = (await control.boundingBox())!;
    expect(toastBox.y + toastBox.height <= box.y || box.y + box.height <= toastBox.y, "the toast is clear of the form").toBe(true);
  }
  await code.fill("000000");
  await submit.click();
  await expect(page.getByRole("alert")).toHaveText("Kode salah atau sudah kedaluwarsa.");
  await expect(toast).toHaveCount(0);

  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s+/g, "");
  await code.fill(new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate());
  await submit.click();
  await page.getByRole("link", { name: "Lanjut ke Back Office" }).click();
  await expect(page).toHaveURL("/ops");
  await page.goto(`/ops/search?invoice=${encodeURIComponent(invoice)}`);
  await expect(page.getByTestId("search-row")).toHaveCount(1);
  // The table is a card within the page (its border shows where it ends) that scrolls sideways to its last column.
  const wrap = page.locator(".ops-table-wrap");
  const box = (await wrap.boundingBox())!;
  expect(box.x).toBeGreaterThan(0);
  expect(box.x + box.width).toBeLessThan(390);
  expect(await wrap.evaluate((element) => getComputedStyle(element).borderRightWidth)).toBe("1px");
  expect(await wrap.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  // The search form above may push the table below the first screen: bring it up, then scroll it sideways.
  await wrap.scrollIntoViewIfNeeded();
  await wrap.evaluate((element) => (element.scrollLeft = element.scrollWidth));
  await expect(wrap.getByRole("columnheader", { name: "Tanggal Pembelian" })).toBeInViewport();
});

test("a buyer who opens /ops gets the plain 404 page, on every back-office address", async ({ page }) => {
  await newBuyer(page);
  for (const url of ["/ops", "/ops/2fa", "/ops/queue/insentif", "/ops/orders/1", "/ops/search?nik=1", "/ops/withdrawals", "/ops/export"]) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(404);
    if (url !== "/ops/export") await expect(page.getByText("Page Not Found")).toBeVisible();
  }
  const post = await page.request.post("/ops/orders/1", {
    form: { intent: "approve-incentive" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(post.status()).toBe(404);
});
