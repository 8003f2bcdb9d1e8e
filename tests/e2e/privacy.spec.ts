import { randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { test as pageTest } from "./helpers";
import { BUYER_PHONE, buyIncentiveOrder, noisePhoto, registerBuyer } from "./helpers/purchase";
import { signedInStaff } from "./helpers/staff";
import { runOps } from "./helpers/store-server";

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

/** Every file under `dir` that holds `needle`, by its path below `dir`. */
function filesHolding(dir: string, needle: Buffer): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && fs.readFileSync(path.join(entry.parentPath, entry.name)).includes(needle))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

// Issue 35's probe: a buyer registers and checks out with an incentive (NIK and KTP photo) through the
// screens; then the store's database files, a `db:backup` of it and the server's log are searched for
// that NIK, those KTP bytes and the buyer's phone. The buyer's e-mail, kept in clear, is searched
// too: found in the files and the backup, it shows the search reads this order's data.
test("the NIK and the KTP photo are in no database file and no backup; none of them, nor the phone, in the server's log", async ({
  page,
  browser,
  javaScriptEnabled,
  baseURL,
}) => {
  const { email } = await registerBuyer(page);
  const orderId = await buyIncentiveOrder(page, javaScriptEnabled, await noisePhoto());
  const reviewer = await signedInStaff(browser, javaScriptEnabled, ["pesanan"]);
  await reviewer.goto(`/ops/orders/${orderId}`);
  const nik = Buffer.from((await reviewer.getByTestId("ops-nik").textContent())!.trim());
  expect(nik.toString()).toMatch(/^3273\d{12}$/);
  const photo = await (await reviewer.request.get(`/ops/orders/${orderId}/ktp`)).body();
  expect(photo.length).toBeGreaterThan(1000);
  // A stretch from the middle of the picture: no header bytes that every JPEG shares.
  const ktp = photo.subarray(photo.length / 2, photo.length / 2 + 64);
  const phone = Buffer.from(BUYER_PHONE);
  await reviewer.context().close();

  const dataDir = `/tmp/store-e2e-${new URL(baseURL!).port}`;
  const files = path.join(dataDir, "pglite");
  expect(filesHolding(files, Buffer.from(email)).length, "the buyer's e-mail in the database files").toBeGreaterThan(0);
  expect(filesHolding(files, nik), "database files holding the NIK").toEqual([]);
  expect(filesHolding(files, ktp), "database files holding the KTP photo").toEqual([]);

  const file = path.join(os.tmpdir(), `privacy-probe-${process.pid}-${randomInt(1e9)}.backup`);
  try {
    const backup = await runOps(dataDir, ["db:backup", file]);
    expect(backup.code, backup.err).toBe(0);
    const dump = zlib.gunzipSync(fs.readFileSync(file));
    expect(dump.includes(Buffer.from(email)), "the buyer's e-mail in the backup").toBe(true);
    expect(dump.includes(nik), "the NIK in the backup").toBe(false);
    expect(dump.includes(ktp), "the KTP photo in the backup").toBe(false);
  } finally {
    fs.rmSync(file, { force: true });
  }

  const log = fs.readFileSync(process.env.E2E_SERVER_LOG!);
  expect(log.includes(Buffer.from(`"path":"/ops/orders/${orderId}"`)), "the review of this order in the log").toBe(true);
  for (const [what, needle] of [
    ["NIK", nik],
    ["KTP photo", ktp],
    ["phone", phone],
    ["e-mail", Buffer.from(email)],
  ] as const)
    expect(log.includes(needle), `the ${what} in the server's log`).toBe(false);
});

// Issue 43 item 6: the bank accounts buyers give for refunds are personal data the store keeps, so
// the policy names them, what they are for and when they go.
pageTest("/kebijakan-privasi lists the refund bank accounts among the data kept", async ({ page }) => {
  await page.goto("/kebijakan-privasi");
  const kept = page.getByRole("heading", { name: "Data yang kami simpan dan untuk apa" }).locator("xpath=following-sibling::ul[1]");
  await expect(kept.getByRole("listitem").filter({ hasText: "Rekening bank" })).toContainText(
    "nama bank, nomor rekening dan nama pemilik rekening yang Anda isi untuk pengembalian dana",
  );
  await expect(page.getByText("nomor rekening dan nama pemiliknya dihapus bila Anda menghapus akun")).toBeVisible();
});

// Issue 45 item 9: an erasure keeps the NIK's keyed hash on incentive orders (one NIK, one unit), and
// the policy says so.
pageTest("/kebijakan-privasi says the NIK's keyed hash stays on incentive orders after an erasure", async ({ page }) => {
  await page.goto("/kebijakan-privasi");
  const kept = page.getByTestId("privacy-nik-hash");
  await expect(kept).toContainText("kode hash NIK");
  await expect(kept).toContainText("juga bila Anda menghapus akun");
  await expect(kept).toContainText("satu NIK untuk satu unit");
});
