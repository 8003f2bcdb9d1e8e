import { randomInt } from "node:crypto";
import fs from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import { test } from "../e2e/helpers";
import { checkoutToPayment, newBuyer } from "../e2e/helpers/purchase";
import { signedInStaff } from "../e2e/helpers/staff";
import type { StoreServer } from "../e2e/helpers/store-server";

// Issue 36 "Done when": a card instalment paid through the Midtrans fake is refunded through its
// refund API once, even when finance presses 'Kembalikan via Midtrans' twice (with JavaScript a
// double click racing the same form from a second tab — the browser itself sends one submission for
// a double click; without it the page's form posted twice at once). The store cancels the paid order
// ('Batalkan dan Kembalikan Dana'), finance refunds it, the fake's own record shows one refund named
// by the refund's key, and the buyer sees 'Dana Telah Dikembalikan'. A refund Midtrans refuses tells
// finance so in Indonesian and stays open (it becomes a bank transfer the buyer gives an account for).

test.describe.configure({ timeout: 240_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const BATTERY = "Baterai Cadangan Motor Listrik 60V 28Ah";
const fakeUrl = () => fs.readFileSync(process.env.MIDTRANS_FAKE_URL_FILE!, "utf8").trim();

type FakeRefund = { refund_key: string; refund_amount: string };
type FakeTx = { order_id: string; gross_amount: string; transaction_status: string; refunds?: FakeRefund[] };

async function fakeTransaction(page: Page, reference: string): Promise<FakeTx> {
  return (await page.request.get(`${fakeUrl()}/_fake/transaction/${reference}`)).json();
}

/** A buyer pays a BNI card instalment on the fake's Snap page: the order is paid (300). */
async function paidCardOrder(page: Page, javaScriptEnabled: boolean): Promise<{ orderId: number; reference: string }> {
  await newBuyer(page);
  await checkoutToPayment(page, javaScriptEnabled, { product: BATTERY, phone: `0813${randomInt(10_000_000, 99_999_999)}` });
  await page.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await page.getByRole("radio", { name: /Cicilan Kartu Kredit BNI/ }).check();
  await page.locator(".checkout-bar").getByRole("button").click();
  await page.getByRole("radio", { name: "3x Cicilan 0%" }).check();
  await page.getByRole("button", { name: "Pilih", exact: true }).click();
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(new RegExp(`^${fakeUrl()}/snap/v2/vtweb/`));
  const reference = (await page.getByTestId("snap-order").textContent())!.trim();
  await page.getByRole("button", { name: "Bayar dengan Kartu" }).click();
  await expect(page).toHaveURL(/\/payment\/\d+\?order_id=/);
  await expect(page.getByTestId("payment-paid")).toContainText("telah kami terima");
  return { orderId: Number(new URL(page.url()).pathname.split("/").pop()), reference };
}

/** A staff member with roles pesanan and keuangan on this run's store (its own DATA_DIR, the CLI grants the roles). */
async function financeStaff(browser: Browser, javaScriptEnabled: boolean, baseURL: string): Promise<Page> {
  const port = new URL(baseURL).port;
  const store = { url: baseURL, dataDir: `/tmp/store-e2e-midtrans-${port}` } as StoreServer;
  return signedInStaff(browser, javaScriptEnabled, ["pesanan", "keuangan"], store);
}

/** 'Batalkan dan Kembalikan Dana' on the order page: 300 → 1 and a card refund 'Sedang Diproses'. */
async function cancelWithRefund(staff: Page, orderId: number) {
  await staff.goto(`/ops/orders/${orderId}`);
  await expect(staff.getByTestId("ops-status")).toHaveText("Pembayaran Diterima");
  await staff.getByLabel("Alasan pembatalan", { exact: true }).fill("Stok baterai rusak di gudang pemasok.");
  await staff.getByRole("button", { name: "Batalkan dan Kembalikan Dana" }).click();
  await expect(staff.getByTestId("toast")).toContainText("Pengembalian dana dibuat");
  await expect(staff.getByTestId("ops-status")).toHaveText("Dibatalkan");
}

test("a card instalment cancelled by the store goes back through Midtrans's refund API once, though finance presses twice", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const { orderId, reference } = await paidCardOrder(page, javaScriptEnabled);
  const staff = await financeStaff(browser, javaScriptEnabled, baseURL!);
  await cancelWithRefund(staff, orderId);

  await staff.goto("/ops/refunds?state=processing");
  const mine = staff.getByTestId("refund-row").filter({ has: staff.locator(`a[href="/ops/orders/${orderId}"]`) });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("Kartu kredit (via Midtrans)");
  const refundId = Number(await mine.getAttribute("data-refund-id"));
  // Finance's list and toasts name a refund by its order's invoice (issue 43 item 4).
  const invoice = (await mine.locator(`a[href="/ops/orders/${orderId}"]`).textContent())!.trim();
  const press = mine.getByRole("button", { name: "Kembalikan via Midtrans" });
  const form = { refundId: String(refundId), intent: "gateway" };
  const postAgain = () => staff.request.post("/ops/refunds?state=processing", { form, maxRedirects: 0 });
  if (javaScriptEnabled) {
    // A double click (the browser sends one submission while the first is pending) and, at the same
    // moment, the same form from finance's second tab: two requests racing at the store.
    const [, other] = await Promise.all([press.dblclick(), postAgain()]);
    expect(other.status()).toBe(302);
  } else {
    // Without JavaScript the browser posts the page's form as it is; finance pressing again (or a
    // resubmitted POST) sends the same fields: two of them at once, then the button itself.
    const answers = await Promise.all([postAgain(), postAgain()]);
    for (const answer of answers) expect(answer.status()).toBe(302);
    await press.click();
  }
  await expect(staff.getByTestId("toast")).toContainText(`Pengembalian dana untuk ${invoice}`);
  await expect(staff.locator(`[data-testid="refund-row"][data-refund-id="${refundId}"]`)).toHaveCount(0);

  // Midtrans's own record: one refund of the whole amount, named by the refund's key.
  const atMidtrans = await fakeTransaction(page, reference);
  expect(atMidtrans.refunds).toHaveLength(1);
  expect(atMidtrans.refunds![0]).toMatchObject({ refund_key: `refund-${refundId}`, refund_amount: atMidtrans.gross_amount });
  expect(atMidtrans.transaction_status).toBe("refund");

  await staff.goto("/ops/refunds?state=refunded");
  await expect(staff.locator(`[data-testid="refund-row"][data-refund-id="${refundId}"]`)).toContainText("Referensi:");
  await staff.context().close();

  // The buyer: the money is back on the card.
  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.locator(".status-bar")).toHaveText("Dibatalkan");
  await expect(page.getByTestId("refund-state")).toHaveText("Dana Telah Dikembalikan");
});

test("a card refund Midtrans refuses: finance is told in Indonesian and the refund stays open for a bank transfer", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const { orderId, reference } = await paidCardOrder(page, javaScriptEnabled);
  const staff = await financeStaff(browser, javaScriptEnabled, baseURL!);
  await cancelWithRefund(staff, orderId);
  expect((await page.request.post(`${fakeUrl()}/_fake/refuse-refunds/${reference}`)).status()).toBe(200);

  await staff.goto("/ops/refunds?state=processing");
  const mine = staff.getByTestId("refund-row").filter({ has: staff.locator(`a[href="/ops/orders/${orderId}"]`) });
  const refundId = Number(await mine.getAttribute("data-refund-id"));
  const invoice = (await mine.locator(`a[href="/ops/orders/${orderId}"]`).textContent())!.trim();
  await mine.getByRole("button", { name: "Kembalikan via Midtrans" }).click();
  await expect(staff.getByTestId("toast")).toHaveText(
    `Pengembalian dana untuk ${invoice}: Midtrans menolak pengembalian dana. Pembeli diminta mengirim data rekening.`,
  );
  expect((await fakeTransaction(page, reference)).refunds ?? []).toHaveLength(0);
  // Still owed: under 'Gagal Diproses', now a bank transfer.
  await staff.goto("/ops/refunds?state=failed");
  const failed = staff.locator(`[data-testid="refund-row"][data-refund-id="${refundId}"]`);
  await expect(failed).toContainText("Transfer bank");
  await expect(failed).toContainText("Pengembalian ke kartu ditolak oleh penyedia pembayaran.");
  await staff.context().close();

  // The buyer is asked for an account.
  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.getByTestId("refund-state")).toHaveText("Gagal Diproses");
  await expect(page.getByTestId("refund-form").getByRole("button", { name: "Kirim Data Rekening" })).toBeVisible();
});
