import { randomBytes, randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import { zipSync } from "fflate";
import sharp from "sharp";
import { test } from "./helpers";
import { signedInStaff } from "./helpers/staff";

// Photos for many products from one ZIP (issue 38 item 2), with JavaScript on and off: a catalogue
// operator adds a published product by CSV, uploads a ZIP named by SKU (its main photo, a second
// photo, a file that is no picture, an unknown SKU), sees the preview with what is refused, applies,
// and the photo is on the product in the back office and on the buyer's /detail page. Then two
// loose photos without a ZIP: one replaces the main photo, one is added as the third.

test.describe.configure({ timeout: 240_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const picture = async (r: number, format: "jpeg" | "png") => {
  const image = sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g: 90, b: 60 } } });
  return new Uint8Array(await image.toFormat(format).toBuffer());
};

test("a catalogue operator uploads a ZIP of photos named by SKU, previews, applies; the buyer sees the photo", async ({
  browser,
  javaScriptEnabled,
  page,
}) => {
  const tag = `zip${randomBytes(4).toString("hex")}`;
  const sku = `${tag}-sku`;
  const title = `Kipas Angin ${tag}`;
  const operator = await signedInStaff(browser, javaScriptEnabled, ["katalog"]);

  // A published product with a SKU, from the price list.
  await operator.goto("/ops/catalogue/import");
  const csv = [
    "sku;nama;kategori;harga;diskon;tipe_diskon;stok;kota;kondisi;berat_gram;minimal_pembelian;deskripsi;status",
    `${sku};${title};Peralatan Rumah;450000;0;v;5;Bandung;Baru;3000;1;Kipas berdiri;tayang`,
  ].join("\r\n");
  await operator
    .getByLabel("File CSV", { exact: true })
    .setInputFiles({ name: "harga.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await operator.getByRole("button", { name: "Unggah CSV" }).click();
  await operator.getByRole("button", { name: "Terapkan Impor" }).click();
  await expect(operator.getByTestId("import-applied")).toContainText("1 ditambah");

  // Not a ZIP: refused, the form is there again.
  await operator.getByRole("link", { name: "Foto dari ZIP" }).click();
  await expect(operator).toHaveURL("/ops/catalogue/photo-zip");
  await operator
    .getByLabel("File ZIP atau foto", { exact: true })
    .setInputFiles({ name: "foto.zip", mimeType: "application/zip", buffer: Buffer.from("bukan zip") });
  await operator.getByRole("button", { name: "Unggah", exact: true }).click();
  await expect(operator.getByTestId("zip-error")).toHaveText("File bukan ZIP yang valid atau rusak. Unggah file .zip berisi foto produk.");
  await expect(operator.getByLabel("File ZIP atau foto", { exact: true })).toBeVisible();

  const zip = zipSync({
    [`foto/${sku}.jpg`]: await picture(210, "jpeg"),
    [`foto/${sku}-2.PNG`]: await picture(30, "png"),
    [`foto/${sku}-3.jpg`]: new TextEncoder().encode("ini bukan gambar"),
    [`foto/TIDAKADA-${tag}.jpg`]: await picture(90, "jpeg"),
    "__MACOSX/foto/._x.jpg": new Uint8Array([0, 1]),
  });
  await operator
    .getByLabel("File ZIP atau foto", { exact: true })
    .setInputFiles({ name: "foto.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
  await operator.getByRole("button", { name: "Unggah", exact: true }).click();
  await expect(operator).toHaveURL(/\/ops\/catalogue\/photo-zip\?id=/);
  const preview = operator.getByTestId("zip-preview");
  await expect(preview).toContainText("2 foto untuk 1 produk; 2 file ditolak.");
  const items = operator.getByTestId("zip-item");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText(`${sku}.jpg`);
  await expect(items.nth(0)).toContainText(title);
  await expect(items.nth(0)).toContainText("Foto utama");
  await expect(items.nth(0)).toContainText("akan ditambah");
  await expect(items.nth(1)).toContainText("Foto 2");
  // Each row shows the picture it will store (decoded by the browser: it has a width).
  for (const row of [0, 1]) {
    const thumb = items.nth(row).getByTestId("zip-thumb");
    await expect(thumb).toBeVisible();
    expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  await expect(operator.getByTestId("zip-refused")).toContainText(`${sku}-3.jpg: Gambar tidak dapat dibaca`);
  await expect(operator.getByTestId("zip-refused")).toContainText(`TIDAKADA-${tag}.jpg: SKU tidak ditemukan`);
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ] as const) {
    await operator.setViewportSize({ width, height });
    await operator.screenshot({
      // Kept with the test's results, to look at (the preview at a phone's and a desk's width).
      path: test.info().outputPath(`photo-zip-preview-${width}-${javaScriptEnabled ? "js" : "nojs"}.png`),
      fullPage: true,
    });
  }
  const previewUrl = operator.url();

  await operator.getByRole("button", { name: "Terapkan" }).click();
  await expect(operator.getByTestId("zip-applied")).toContainText("2 foto untuk 1 produk (2 baru, 0 diganti), 2 file ditolak");

  // A second 'Terapkan' of the same ZIP (a double submit) changes nothing.
  const again = await operator.request.post("/ops/catalogue/photo-zip", {
    multipart: { intent: "apply", id: new URL(previewUrl).searchParams.get("id")! },
    headers: { Origin: new URL(previewUrl).origin },
    maxRedirects: 0,
  });
  expect(again.status()).toBeLessThan(400);

  // Several pictures chosen at once, no ZIP: the same preview and apply.
  await operator.goto("/ops/catalogue/photo-zip");
  await operator.getByLabel("File ZIP atau foto", { exact: true }).setInputFiles([
    { name: `${sku}.jpg`, mimeType: "image/jpeg", buffer: Buffer.from(await picture(120, "jpeg")) },
    { name: `${sku}-3.png`, mimeType: "image/png", buffer: Buffer.from(await picture(250, "png")) },
  ]);
  await operator.getByRole("button", { name: "Unggah", exact: true }).click();
  await expect(operator.getByTestId("zip-preview")).toContainText("Pratinjau: 2 foto");
  await expect(operator.getByTestId("zip-item").nth(0)).toContainText("akan mengganti foto yang ada");
  await expect(operator.getByTestId("zip-item").nth(1)).toContainText("Foto 3");
  await operator.getByRole("button", { name: "Terapkan" }).click();
  await expect(operator.getByTestId("zip-applied")).toContainText("2 foto untuk 1 produk (1 baru, 1 diganti), 0 file ditolak");

  await operator.goto(`/ops/catalogue/products?q=${tag}`);
  await operator.getByTestId("ops-product-row").first().getByRole("link").first().click();
  await expect(operator.getByTestId("ops-photo")).toHaveCount(3);
  await expect(operator.getByTestId("ops-history")).toContainText("Foto dari ZIP");
  const mainPhoto = await operator.getByTestId("ops-photo").first().getByRole("img").getAttribute("src");
  expect(mainPhoto).toMatch(/^\/catalogue-images\//);
  const productId = Number(new URL(operator.url()).pathname.split("/").pop());

  await page.goto(`/detail/${productId}`);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.locator('img[src^="/catalogue-images/"]').first()).toBeVisible();
});
