import { randomBytes, randomInt } from "node:crypto";
import { type Browser, expect } from "@playwright/test";
import sharp from "sharp";
import { test } from "./helpers";
import { signedInStaff } from "./helpers/staff";
import { checkoutToPayment, newBuyer } from "./helpers/purchase";
import { startStore, stopStore, type StoreServer } from "./helpers/store-server";
import { PHONE } from "./helpers/phone";

// The catalogue in the back office (issue 26), with JavaScript on and off: an operator with the
// 'katalog' role adds a product with two photos and publishes it; a buyer finds it by search, sees
// the photo and buys it; the operator changes the price (the order keeps the old one, the detail
// shows the new one) and archives it (the detail answers 404); a CSV import previews, then applies;
// a banner appears on /home. On a store of its own (demo data): what it publishes would otherwise
// change the shared server's home and search under the other specs' feet.

test.describe.configure({ timeout: 300_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const picture = (r: number, g: number, b: number, format: "jpeg" | "png") => {
  const image = sharp({ create: { width: 1200, height: 900, channels: 3, background: { r, g, b } } });
  return (format === "jpeg" ? image.jpeg() : image.png()).toBuffer();
};

test("an operator fills the catalogue from the browser; a buyer finds, sees and buys; the price and status change; a CSV import; a banner", async ({
  browser,
  javaScriptEnabled,
}) => {
  const store = await startStore({ LOG_LEVEL: "warn" });
  try {
    await scenario(browser, javaScriptEnabled, store);
  } finally {
    await stopStore(store);
  }
});

async function scenario(browser: Browser, javaScriptEnabled: boolean, store: StoreServer) {
  const tag = `uji${randomBytes(4).toString("hex")}`;
  const title = `Motor Listrik ${tag}`;
  const operator = await signedInStaff(browser, javaScriptEnabled, ["katalog"], store);
  const buyer = await browser.newContext({
    baseURL: store.url,
    javaScriptEnabled,
    ...PHONE,
    locale: "id-ID",
    timezoneId: "Asia/Jakarta",
    extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  const page = await buyer.newPage();

  // 'Katalog' in the menu (and nothing of the order queues for this role).
  await operator.getByRole("link", { name: "Katalog", exact: true }).click();
  await expect(operator).toHaveURL("/ops/catalogue/products");
  await expect(operator.getByRole("link", { name: "Cari Pesanan" })).toHaveCount(0);
  await operator.getByRole("link", { name: "Tambah Produk" }).click();

  // A wrong price is answered beside its field; what was typed stays.
  await operator.getByLabel("Nama Produk", { exact: true }).fill(title);
  await operator.getByLabel("Kategori", { exact: true }).selectOption({ label: "Motor Listrik" });
  await operator.getByLabel("Harga", { exact: true }).fill("-1");
  await operator.getByLabel("Stok", { exact: true }).fill("5");
  await operator.getByRole("button", { name: "Simpan" }).click();
  await expect(operator.locator("#price-error")).toHaveText("Harga harus lebih dari 0.");
  await expect(operator.getByLabel("Nama Produk", { exact: true })).toHaveValue(title);
  await operator.getByLabel("Harga", { exact: true }).fill("12.500.000");
  await operator.getByRole("button", { name: "Simpan" }).click();
  await expect(operator).toHaveURL(/\/ops\/catalogue\/products\/\d+$/);
  const productId = Number(new URL(operator.url()).pathname.split("/").pop());
  await expect(operator.getByRole("heading", { name: title })).toBeVisible();
  await expect(operator.getByRole("radio", { name: "Draf" })).toBeChecked();
  // A draft is not for buyers.
  expect((await page.goto(`/detail/${productId}`))!.status()).toBe(404);

  // Two photos at once; the second becomes the main one.
  await operator.getByLabel(/^Tambah foto/).setInputFiles([
    { name: "depan.jpg", mimeType: "image/jpeg", buffer: await picture(200, 40, 40, "jpeg") },
    { name: "samping.png", mimeType: "image/png", buffer: await picture(40, 40, 200, "png") },
  ]);
  await operator.getByRole("button", { name: "Unggah Foto" }).click();
  await expect(operator.getByTestId("toast")).toContainText("2 foto ditambahkan.");
  const photos = operator.getByTestId("ops-photo");
  await expect(photos).toHaveCount(2);
  const second = await photos.nth(1).getByRole("img").getAttribute("src");
  await photos.nth(1).getByRole("button", { name: "Jadikan Utama" }).click();
  await expect(photos.first().getByRole("img")).toHaveAttribute("src", second!);
  const served = await operator.request.get(second!);
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(served.headers()["content-type"]).toBe("image/webp");

  await operator.getByRole("radio", { name: "Tayang" }).check();
  await operator.getByRole("button", { name: "Simpan" }).click();
  await expect(operator.getByTestId("toast")).toContainText("Produk disimpan.");
  await expect(operator.getByTestId("ops-history")).toContainText("Status: Draf → Tayang");

  // The buyer finds it by search, sees the photo, buys it.
  await newBuyer(page);
  await page.goto(`/res-search?keyword=${tag}`);
  const card = page.getByTestId("product-card").filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card.locator("img")).toHaveAttribute("src", second!);
  await card.getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.locator('img[src^="/catalogue-images/"]').first()).toBeVisible();
  await checkoutToPayment(page, javaScriptEnabled, { product: title, phone: `0813${randomInt(10_000_000, 99_999_999)}` });
  await page.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await page.getByRole("radio", { name: /Transfer Bank BNI \(Manual\)/ }).check();
  await page.locator(".checkout-bar").getByRole("button").click();
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const orderId = Number(new URL(page.url()).pathname.split("/").pop());

  // A new price applies to new orders only.
  await operator.reload();
  await operator.getByLabel("Harga", { exact: true }).fill("11000000");
  await operator.getByRole("button", { name: "Simpan" }).click();
  await expect(operator.getByTestId("ops-history")).toContainText("Harga: Rp12.500.000 → Rp11.000.000");
  await expect(operator.getByLabel("Stok", { exact: true })).toHaveValue("4"); // the order's unit stays reserved
  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.getByTestId("cost-lines")).toContainText("12.500.000");
  await page.goto(`/detail/${productId}`);
  await expect(page.getByTestId("detail-price")).toContainText("11.000.000");

  // Archived: gone for buyers.
  await operator.getByRole("radio", { name: "Arsip" }).check();
  await operator.getByRole("button", { name: "Simpan" }).click();
  await expect(operator.getByTestId("toast")).toContainText("Produk disimpan.");
  expect((await page.goto(`/detail/${productId}`))!.status()).toBe(404);
  await page.goto(`/transaction-detail/${orderId}`);
  await expect(page.getByText(title)).toBeVisible(); // the order still shows it

  // The price list: a preview first (nothing written), then 'Terapkan Impor'.
  await operator.getByRole("link", { name: "Impor & Ekspor" }).click();
  // A workbook or a picture chosen by mistake is refused with how to save a CSV from Excel.
  await operator
    .getByLabel("File CSV", { exact: true })
    .setInputFiles({ name: "harga.png", mimeType: "image/png", buffer: await picture(30, 20, 20, "png") });
  await operator.getByRole("button", { name: "Unggah CSV" }).click();
  await expect(operator.getByTestId("import-error")).toHaveText(
    "File harus berupa CSV, bukan file lain. Dari Excel: pilih Simpan Sebagai, lalu jenis file CSV.",
  );
  await expect(operator.getByTestId("import-preview")).toHaveCount(0);
  const csv = [
    "sku;nama;kategori;harga;diskon;tipe_diskon;stok;kota;kondisi;berat_gram;minimal_pembelian;deskripsi;status",
    `${tag}-a;Kompor Induksi ${tag};Peralatan Rumah;2500000;0;v;3;Bandung;Baru;4000;1;Dari daftar harga;draf`,
    `${tag}-b;Kompor Rusak ${tag};Peralatan Rumah;-5;0;v;3;Bandung;Baru;4000;1;Harga salah;draf`,
  ].join("\r\n");
  await operator
    .getByLabel("File CSV", { exact: true })
    .setInputFiles({ name: "harga.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await operator.getByRole("button", { name: "Unggah CSV" }).click();
  const preview = operator.getByTestId("import-preview");
  await expect(preview).toContainText("1 produk akan ditambah");
  await expect(preview).toContainText("0 produk akan diubah");
  await expect(operator.getByTestId("import-problems")).toHaveText("Baris 3: Harga harus lebih dari 0.");
  await operator.goto(`/ops/catalogue/products?q=${tag}`);
  await expect(operator.getByTestId("ops-product-row")).toHaveCount(1); // only the archived one so far
  await operator.goBack();
  await operator.getByRole("button", { name: "Terapkan Impor" }).click();
  await expect(operator.getByTestId("import-applied")).toContainText("1 ditambah, 0 diubah");
  await operator.goto(`/ops/catalogue/products?q=${tag}`);
  await expect(operator.getByTestId("ops-product-row")).toHaveCount(2);
  await expect(operator.getByTestId("ops-product-row").first()).toContainText(`Kompor Induksi ${tag}`);

  // A banner on /home, then removed.
  await operator.goto("/ops/catalogue/banners");
  await operator.getByLabel("Judul", { exact: true }).fill(`Banner ${tag}`);
  await operator.getByLabel("Kata Kunci", { exact: true }).fill("motor");
  await operator
    .getByLabel("Gambar", { exact: true })
    .setInputFiles({ name: "banner.jpg", mimeType: "image/jpeg", buffer: await picture(10, 120, 90, "jpeg") });
  await operator.getByRole("button", { name: "Tambah Banner" }).click();
  await expect(operator.getByTestId("toast")).toContainText("Banner ditambahkan.");
  await page.goto("/home");
  const banner = page.getByTestId("banner-carousel").getByRole("img", { name: `Banner ${tag}` });
  await expect(banner).toHaveCount(1);
  await expect(banner).toHaveAttribute("src", /^\/catalogue-images\//);
  await operator
    .getByTestId("ops-banner")
    .filter({ hasText: `Banner ${tag}` })
    .getByRole("button", { name: "Hapus" })
    .click();
  await expect(operator.getByTestId("toast")).toContainText("Banner dihapus.");
  await page.goto("/home");
  await expect(page.getByTestId("banner-carousel").getByRole("img", { name: `Banner ${tag}` })).toHaveCount(0);
  await operator.context().close();
  await buyer.close();
}

test("a store started without demo data: /home says it is empty, without a carousel or an error", async ({ page }) => {
  const server = await startStore({ DEMO_DATA: "0" });
  try {
    const response = await page.goto(`${server.url}/home`);
    expect(response!.status()).toBe(200);
    await expect(page.getByText("Belum ada produk di toko ini. Produk akan tampil di sini setelah katalog diisi.")).toBeVisible();
    await expect(page.getByTestId("banner-carousel")).toHaveCount(0);
    await expect(page.getByTestId("product-card")).toHaveCount(0);
  } finally {
    await stopStore(server);
  }
});
