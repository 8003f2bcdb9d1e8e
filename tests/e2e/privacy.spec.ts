import { randomInt } from "node:crypto";
import { expect, test } from "@playwright/test";
import { buyIncentiveOrder, registerBuyer } from "./helpers/purchase";
import { signedInStaff } from "./helpers/staff";

// Issue 35, with JavaScript on and off: the buyer sees their NIK masked; an operator who decides
// incentives ('pesanan') sees the full NIK and the KTP photo in the incentive review; the opening is
// in the admin's 'Log Akses Data Pribadi' (/ops/privacy), filtered by the buyer; the privacy policy is
// public and linked from the profile.

test.describe.configure({ timeout: 300_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const MASKED = /^3273\*{8}\d{4}$/;

test("the NIK is masked except in the incentive review, whose opening the admin's access log lists", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  const { email } = await registerBuyer(page);
  const orderId = await buyIncentiveOrder(page, javaScriptEnabled);
  await page.goto(`/transaction-detail/${orderId}`);
  const masked = (await page.getByTestId("buyer-nik").textContent())!.trim();
  expect(masked).toMatch(MASKED);
  const invoice = (await page.getByTestId("invoice-id").textContent())!.trim();

  // The privacy policy: public, linked from the profile.
  await page.goto("/profile");
  await page.getByTestId("privacy-policy-link").click();
  await expect(page).toHaveURL("/kebijakan-privasi");
  await expect(page.getByRole("heading", { name: "Kebijakan Privasi", level: 1 })).toBeVisible();
  await expect(page.getByText(/Foto KTP dihapus 90 hari setelah keputusan insentif/)).toBeVisible();

  // The incentive review: the full NIK (the masked one's ends) and the KTP photo, to 'pesanan'.
  const reviewer = await signedInStaff(browser, javaScriptEnabled, ["pesanan"]);
  await reviewer.goto(`/ops/orders/${orderId}`);
  const full = (await reviewer.getByTestId("ops-nik").textContent())!.trim();
  expect(full).toMatch(/^3273\d{12}$/);
  expect(full.slice(-4)).toBe(masked.slice(-4));
  const ktp = reviewer.getByRole("img", { name: "Foto KTP" });
  await expect(ktp).toBeVisible();
  await expect(ktp).toHaveAttribute("src", `/ops/orders/${orderId}/ktp`);
  // A 'pesanan' operator has no access log: admins only (the plain 404).
  expect((await reviewer.request.get("/ops/privacy")).status()).toBe(404);

  // The admin's log lists the opening, by buyer.
  const admin = await signedInStaff(browser, javaScriptEnabled);
  await admin.goto("/ops");
  await admin.getByRole("link", { name: "Log Akses Data Pribadi" }).click();
  await expect(admin).toHaveURL("/ops/privacy");
  await admin.getByLabel("Pembeli (email atau nama)").fill(email);
  await admin.getByRole("button", { name: "Tampilkan" }).click();
  await expect(admin).toHaveURL(/\/ops\/privacy\?/);
  const log = admin.getByTestId("privacy-log");
  await expect(log.getByRole("row").filter({ hasText: "NIK lengkap" }).filter({ hasText: invoice })).toHaveCount(1);
  await expect(log.getByRole("row").filter({ hasText: "Foto KTP" }).filter({ hasText: invoice }).first()).toBeVisible();
  const csv = await admin.request.get(`/ops/privacy/export?buyer=${encodeURIComponent(email)}`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(invoice);
  await reviewer.context().close();
  await admin.context().close();
});
