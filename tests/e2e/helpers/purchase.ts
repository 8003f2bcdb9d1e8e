/**
 * Buying through the real screens, for the specs that need an order: a freshly registered and
 * activated account, then 'Beli Sekarang' → /checkout → /address → 'Ajukan Insentif'. Works with
 * and without JavaScript (the steps are the ones tests/e2e/checkout.spec.ts checks in detail).
 */
import { randomBytes, randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { readLatestEmail, uniqueEmail } from "./index";
import { makeAccount, makeOrder } from "./preconditions";
import { opsOverSocket } from "./store-server";

export const BUYER_PASSWORD = "Rahasia123!";
/** The phone number every test buyer gives (the server-log checks look for it). */
export const BUYER_PHONE = "081234567890";

/**
 * An operator command on the running e2e server, sent over its socket in DATA_DIR as the CLI sends it
 * (same request, same store functions; issue 44: starting the CLI cost 1.3 s a call): its output as
 * the CLI prints it; refused or failed (exit code other than 0), it throws with the CLI's stderr.
 */
export async function ops(...args: string[]) {
  const port = process.env.PORT ?? "3456";
  const reply = await opsOverSocket(`/tmp/store-e2e-${port}`, args);
  if (reply.code !== 0) throw new Error(`ops ${args[0]} exited with ${reply.code}: ${reply.err}`);
  return reply.out;
}
export const INCENTIVE_PRODUCT = "Gesits G1 Motor Listrik Nasional";

/** Registers through the form; activates by the e-mail link unless `activate` is false. */
export async function registerBuyer(page: Page, options: { activate?: boolean; company?: string; nip?: string } = {}) {
  const email = uniqueEmail("pesan");
  await page.goto("/register");
  await page.getByLabel("Nama Lengkap", { exact: true }).fill("Rina Wulandari");
  await page.getByLabel("Nomor HP", { exact: true }).fill(BUYER_PHONE);
  await page.getByLabel("NIP", { exact: true }).fill(options.nip ?? `86${randomInt(10_000_000, 99_999_999)}`);
  await page.getByLabel("Perusahaan", { exact: true }).selectOption({ label: options.company ?? "PT PLN Icon Plus" });
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Kata Sandi", { exact: true }).fill(BUYER_PASSWORD);
  await page.getByLabel("Konfirmasi Kata Sandi", { exact: true }).fill(BUYER_PASSWORD);
  await page.getByLabel("Konfirmasi Kata Sandi", { exact: true }).press("Tab");
  await page.getByRole("button", { name: "Daftar", exact: true }).click();
  // The answer comes once the password is hashed (argon2: seconds on a busy machine, issue 25).
  await expect(page).toHaveURL("/home", { timeout: 30_000 });
  if (options.activate === false) return { email };
  const mail = await readLatestEmail(page, email);
  await page.goto(mail.link!);
  await page.getByRole("button", { name: "Aktifkan Akun" }).click();
  await expect(page.getByRole("dialog", { name: "Akun berhasil diaktivasi!" })).toBeVisible({ timeout: 30_000 });
  return { email };
}

/**
 * A buyer made by the store (helpers/preconditions.ts), as registerBuyer() makes one through the
 * screens: the same fields, activated unless `activate` is false, and signed in on `page`'s context.
 * For every spec that is not about registration, activation or the login form.
 */
export async function newBuyer(page: Page, options: { activate?: boolean; company?: string; nip?: string; phone?: string } = {}) {
  const email = uniqueEmail("pesan");
  await makeAccount(page, {
    email,
    password: BUYER_PASSWORD,
    activate: options.activate,
    company: options.company ?? "PT PLN Icon Plus",
    nip: options.nip ?? `86${randomInt(10_000_000, 99_999_999)}`,
    phone: options.phone ?? BUYER_PHONE,
    fullname: "Rina Wulandari",
  });
  return { email };
}

/** A photo of noise: no stretch of its bytes repeats, nor stands in any other file (a probe's needle). */
export function noisePhoto(): Promise<Buffer> {
  return sharp(randomBytes(320 * 200 * 3), { raw: { width: 320, height: 200, channels: 3 } })
    .jpeg()
    .toBuffer();
}

/** A small JPEG photo (a KTP, a transfer proof, a delivery photo). */
export function samplePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 570, channels: 3, background: { r: 40, g: 110, b: 180 } } })
    .jpeg()
    .toBuffer();
}

/** A product's id, found through the home page's links. */
export async function productId(page: Page, title: string) {
  const html = await (await page.request.get("/home?page=1000")).text();
  for (const tag of html.match(/<a [^>]*class="product-card-link"[^>]*>/g) ?? []) {
    if (tag.match(/title="([^"]*)"/)?.[1] === title) return Number(tag.match(/href="\/detail\/(\d+)[?"]/)![1]);
  }
  throw new Error(`product "${title}" not on the home page`);
}

async function chooseArea(
  page: Page,
  level: string,
  option: { label: string } | { index: number },
  nextButton: string | null,
  javaScriptEnabled: boolean,
) {
  const select = page.getByRole("combobox", { name: level, exact: true });
  // Without JavaScript the list comes with the page the previous 'Tampilkan …' loads (seen taking
  // over 5 s once in CI while another suite ran).
  await expect(select).toBeEnabled({ timeout: 15_000 });
  if ("label" in option) await select.selectOption({ label: option.label });
  else {
    await expect(select.locator("option").nth(option.index)).toBeAttached();
    await select.selectOption((await select.locator("option").nth(option.index).getAttribute("value"))!);
  }
  if (!javaScriptEnabled && nextButton) await page.getByRole("button", { name: nextButton, exact: true }).click();
}

/**
 * The checkout's NIK: a new one typed, or the previous order's that the checkout offers (issue 38)
 * kept when no particular NIK is asked for ('Ganti' first when one is).
 */
async function fillNik(page: Page, nik?: string) {
  const saved = page.getByTestId("saved-nik");
  if (await saved.isVisible()) {
    if (!nik) return;
    await saved.getByRole("button", { name: "Ganti" }).click();
    await expect(saved).toHaveCount(0);
  }
  await page.getByLabel("NIK", { exact: true }).fill(nik ?? `3273${String(randomInt(0, 1e12)).padStart(12, "0")}`);
}

/** An incentive order of the signed-in buyer (status 100), made through the screens; its id. */
export async function buyIncentiveOrder(page: Page, javaScriptEnabled: boolean, ktpPhoto?: Buffer): Promise<number> {
  await fillIncentiveCheckout(page, javaScriptEnabled, { ktp: ktpPhoto });
  await page.getByRole("button", { name: "Ajukan Insentif", exact: true }).click();
  await expect(page).toHaveURL(/\/checkout\?selesai=\d+$/);
  return Number(new URL(page.url()).searchParams.get("selesai"));
}

/**
 * The incentive checkout filled through the screens up to its 'Ajukan Insentif' (not pressed), back
 * on /checkout: 'Beli Sekarang', the buyer's data with `nik` (a new one by default), the KTP photo,
 * the incentive's boxes and the address.
 */
export async function fillIncentiveCheckout(page: Page, javaScriptEnabled: boolean, options: { nik?: string; ktp?: Buffer } = {}) {
  await page.goto(`/detail/${await productId(page, INCENTIVE_PRODUCT)}`);
  await page.getByRole("button", { name: "Beli Sekarang" }).click();
  await expect(page).toHaveURL("/checkout");
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await field("Nama Pembeli").fill("Rina Wulandari");
  await field("No. HP").fill(BUYER_PHONE);
  await field("Email").fill("rina@example.test");
  await fillNik(page, options.nik);
  await page
    .locator('input[type="file"][name="ktp"]:not([capture])')
    .setInputFiles({ name: "ktp.jpg", mimeType: "image/jpeg", buffer: options.ktp ?? (await samplePhoto()) });
  await page.getByRole("checkbox", { name: "Ajukan Insentif" }).check();
  await field("Nama Ayah Kandung").fill("Slamet Riyadi");
  await page
    .getByRole("checkbox", { name: "Saya menyatakan NIK di atas belum pernah digunakan untuk pengajuan insentif kendaraan listrik." })
    .check();
  await page
    .getByRole("checkbox", { name: "Saya memahami bahwa biaya pengiriman dibayarkan langsung kepada dealer di luar aplikasi." })
    .check();
  await page.getByRole("checkbox", { name: "Saya menyatakan alamat domisili saya sesuai dengan KTP." }).check();
  await page.getByRole("button", { name: "Isi Alamat" }).click();
  await expect(page).toHaveURL("/address");
  await page.getByLabel("Alamat Lengkap", { exact: true }).fill("Jl. Asia Afrika No. 1");
  await chooseArea(page, "Provinsi", { label: "Jawa Barat" }, "Tampilkan Kota/Kabupaten", javaScriptEnabled);
  await chooseArea(page, "Kota/Kabupaten", { label: "Kota Bandung" }, "Tampilkan Kecamatan", javaScriptEnabled);
  await chooseArea(page, "Kecamatan", { index: 1 }, "Tampilkan Kelurahan", javaScriptEnabled);
  await chooseArea(page, "Kelurahan/Desa", { index: 1 }, null, javaScriptEnabled);
  await page.getByLabel("Kode Pos", { exact: true }).fill("40111");
  await page.getByRole("button", { name: "Simpan", exact: true }).click();
  await expect(page).toHaveURL("/checkout");
}

/**
 * An order waiting for its payment method: 'Beli Sekarang' on `product` (no incentive ticked) →
 * /checkout (buyer data with `phone`) → /address → 'Pilih Metode Pembayaran' → /paymentmethod.
 */
export async function checkoutToPayment(page: Page, javaScriptEnabled: boolean, options: { product: string; phone: string; nik?: string }) {
  await page.goto(`/detail/${await productId(page, options.product)}`);
  await page.getByRole("button", { name: "Beli Sekarang" }).click();
  await expect(page).toHaveURL("/checkout");
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await field("Nama Pembeli").fill("Rina Wulandari");
  await field("No. HP").fill(options.phone);
  await field("Email").fill("rina@example.test");
  await fillNik(page, options.nik);
  await page
    .locator('input[type="file"][name="ktp"]:not([capture])')
    .setInputFiles({ name: "ktp.jpg", mimeType: "image/jpeg", buffer: await samplePhoto() });
  await page
    .getByRole("checkbox", { name: "Saya memahami bahwa biaya pengiriman dibayarkan langsung kepada dealer di luar aplikasi." })
    .check();
  await page.getByRole("checkbox", { name: "Saya menyatakan alamat domisili saya sesuai dengan KTP." }).check();
  // The buyer's saved address comes back with the next checkout (then there is nothing to fill).
  if (await page.getByRole("button", { name: "Isi Alamat" }).isVisible()) {
    await page.getByRole("button", { name: "Isi Alamat" }).click();
    await expect(page).toHaveURL("/address");
    await page.getByLabel("Alamat Lengkap", { exact: true }).fill("Jl. Asia Afrika No. 1");
    await chooseArea(page, "Provinsi", { label: "Jawa Barat" }, "Tampilkan Kota/Kabupaten", javaScriptEnabled);
    await chooseArea(page, "Kota/Kabupaten", { label: "Kota Bandung" }, "Tampilkan Kecamatan", javaScriptEnabled);
    await chooseArea(page, "Kecamatan", { index: 1 }, "Tampilkan Kelurahan", javaScriptEnabled);
    await chooseArea(page, "Kelurahan/Desa", { index: 1 }, null, javaScriptEnabled);
    await page.getByLabel("Kode Pos", { exact: true }).fill("40111");
    await page.getByRole("button", { name: "Simpan", exact: true }).click();
    await expect(page).toHaveURL("/checkout");
  }
  await page.getByRole("button", { name: "Pilih Metode Pembayaran", exact: true }).click();
  // The post carries the KTP photo (decoded and re-encoded by sharp): on a busy machine, or while a
  // backup's dump holds the server (backup.spec), the answer may take longer than a click's.
  await expect(page).toHaveURL("/paymentmethod", { timeout: 30_000 });
}

/** From /paymentmethod: 'Transfer Bank BNI (Manual)' → 'Bayar Sekarang'; the order's payment page is open. Its id. */
export async function chooseManualTransfer(page: Page): Promise<number> {
  await page.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await page.getByRole("radio", { name: /Transfer Bank .+ \(Manual\)/ }).check();
  await page.locator(".checkout-bar").getByRole("button").click();
  await expect(page).toHaveURL("/paymentmethod");
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  return Number(new URL(page.url()).pathname.split("/").pop());
}

const randomNik = () => `3273${String(randomInt(0, 1e12)).padStart(12, "0")}`;

/** The checkout form's buyer fields as buyIncentiveOrder() and checkoutToPayment() fill them. */
function buyerFields(phone: string, nik: string): Record<string, string> {
  return {
    buyerName: "Rina Wulandari",
    buyerPhoneNumber: phone,
    buyerEmail: "rina@example.test",
    buyerNik: nik,
    bbnValidation: "on",
    domisiliValidation: "on",
  };
}

/**
 * An incentive order of the signed-in buyer (status 100) made by the store (helpers/preconditions.ts),
 * the order buyIncentiveOrder() makes through the screens: the same product, buyer data and address.
 * For every spec that is not about the checkout's screens. Its id.
 */
export async function newIncentiveOrder(page: Page, options: { ktp?: Buffer; nik?: string } = {}): Promise<number> {
  return makeOrder(page, {
    productId: await productId(page, INCENTIVE_PRODUCT),
    fields: { ...buyerFields(BUYER_PHONE, options.nik ?? randomNik()), insentif: "on", buyerDadName: "Slamet Riyadi", nikValidation: "on" },
    ktp: options.ktp ?? (await samplePhoto()),
  });
}

/**
 * An order of `product` without the incentive, paid by `method` (default the manual transfer, as
 * chooseManualTransfer), waiting in 200 'Menunggu Pembayaran': what checkoutToPayment() and the
 * choice on /paymentmethod make through the screens. Its id; its payment page is /payment/<id>.
 */
export async function newPaymentOrder(
  page: Page,
  options: { product: string; phone: string; nik?: string; method?: string; tenor?: string },
): Promise<number> {
  return makeOrder(page, {
    productId: await productId(page, options.product),
    fields: buyerFields(options.phone, options.nik ?? randomNik()),
    ktp: await samplePhoto(),
    method: options.method ?? "MANUAL-BNI",
    tenor: options.tenor,
  });
}
