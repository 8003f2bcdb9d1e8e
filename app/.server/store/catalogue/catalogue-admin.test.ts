import { randomUUID } from "node:crypto";
import { asc, count, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { catalogueAudit, catalogueImages, categories, orderProducts, orders, productImages, products } from "../../db/schema";
import { csvTooManyRows, csvTooLarge, csvUnknownColumns, CSV_FORMULA } from "../../csv";
import { createProduct, createVerifiedUser, productStock, realAddress, submission } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { createOrderFromDraft, PRODUCT_WITHDRAWN, saveDraftAddress, startCheckout } from "../checkout";
import { getProductDetail, listProducts } from "./catalogue";
import { applyCatalogueCsv, CATALOGUE_COLUMNS, exportCatalogueCsv, previewCatalogueCsv } from "./catalogue-csv";
import { addProductPhotos, changeProductPhoto, getCatalogueImage } from "./photos";
import { PRODUCT_MESSAGES } from "./product-input";
import { getProductForOps, listProductHistory, PRODUCT_CONFLICT, saveProduct } from "./products-admin";
import { changeTaxonomy } from "./taxonomy";

// The back office's catalogue store (issue 26): the product form's rules, versions, the stock race
// with orders, publishing, photos, categories, and the CSV import (preview, apply, idempotence,
// round trip, hostile files). On this file's own database (it writes many products).

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let db: Db;
let operatorId: number;
let categoryId: number;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  operatorId = (await createVerifiedUser(db)).id;
  const [row] = await db.insert(categories).values({ title: "Motor Listrik Uji" }).returning({ id: categories.id });
  categoryId = row!.id;
});

const form = (overrides: Record<string, string> = {}) => ({
  title: "Motor Listrik Uji Admin",
  categoryId: String(categoryId),
  price: "28.500.000",
  discount: "5",
  discountType: "%",
  stock: "10",
  condition: "Baru",
  weightGram: "99000",
  minimumPurchase: "1",
  description: "- Baterai 72V\n- Jarak 50 km",
  status: "tayang",
  ...overrides,
});

async function newProduct(overrides: Record<string, string> = {}) {
  const saved = await saveProduct(operatorId, { id: null, version: null, stockRead: null, fields: form(overrides), promoIds: [] });
  if (!saved.ok) throw new Error(JSON.stringify(saved));
  return saved.id;
}

describe("the product form", () => {
  it("answers every wrong field with its Indonesian message and writes nothing", async () => {
    const before = (await db.select({ n: count() }).from(products))[0]!.n;
    const result = await saveProduct(operatorId, {
      id: null,
      version: null,
      stockRead: null,
      fields: {
        title: "",
        sku: "bad sku!",
        categoryId: "",
        price: "-5",
        discount: "abc",
        discountType: "x",
        stock: "1.5",
        condition: "Rusak",
        weightGram: "-1",
        minimumPurchase: "0",
        status: "jual",
      },
      promoIds: ["999999"],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        title: PRODUCT_MESSAGES.titleRequired,
        sku: PRODUCT_MESSAGES.sku,
        categoryId: "Kategori wajib dipilih.",
        price: PRODUCT_MESSAGES.pricePositive,
        discount: PRODUCT_MESSAGES.discountNumber,
        discountType: PRODUCT_MESSAGES.discountType,
        stock: PRODUCT_MESSAGES.stock,
        condition: PRODUCT_MESSAGES.condition,
        weightGram: PRODUCT_MESSAGES.weight,
        minimumPurchase: PRODUCT_MESSAGES.minimumPurchase,
        status: PRODUCT_MESSAGES.status,
        promoIds: "Promo tidak ditemukan.",
      },
    });
    const html = await saveProduct(operatorId, {
      id: null,
      version: null,
      stockRead: null,
      fields: form({ title: "<img src=x onerror=alert(1)>", price: "0", discount: "200" }),
      promoIds: [],
    });
    expect(html).toMatchObject({
      ok: false,
      errors: { title: PRODUCT_MESSAGES.titleHtml, price: PRODUCT_MESSAGES.pricePositive, discount: PRODUCT_MESSAGES.discountPercent },
    });
    expect(
      (await saveProduct(operatorId, {
        id: null,
        version: null,
        stockRead: null,
        fields: form({ title: "=cmd|' /C calc'!A0" }),
        promoIds: [],
      })) as unknown,
    ).toMatchObject({ errors: { title: CSV_FORMULA } });
    expect((await db.select({ n: count() }).from(products))[0]!.n).toBe(before);
  });

  it("generates a unique SKU, refuses a taken one, and keeps 'Rp' thousands separators as rupiah", async () => {
    const id = await newProduct();
    const product = (await getProductForOps(id))!;
    expect(product).toMatchObject({
      sku: expect.stringMatching(/^P-[0-9A-Z]{8}$/),
      price: 28_500_000,
      discount: 5,
      discountType: "%",
      status: "tayang",
      version: 1,
    });
    const taken = await saveProduct(operatorId, {
      id: null,
      version: null,
      stockRead: null,
      fields: form({ sku: product.sku! }),
      promoIds: [],
    });
    expect(taken).toEqual({ ok: false, errors: { sku: PRODUCT_MESSAGES.skuTaken } });
  });

  it("two operators saving the same version: the second is told and nothing of it is written", async () => {
    const id = await newProduct({ price: "10000000" });
    const read = (await getProductForOps(id))!;
    const first = await saveProduct(operatorId, {
      id,
      version: read.version,
      stockRead: read.stock,
      fields: form({ price: "11000000" }),
      promoIds: [],
    });
    const second = await saveProduct(operatorId, {
      id,
      version: read.version,
      stockRead: read.stock,
      fields: form({ price: "9000000", title: "Ditimpa" }),
      promoIds: [],
    });
    expect(first).toEqual({ ok: true, id });
    expect(second).toEqual({ ok: false, errors: {}, conflict: PRODUCT_CONFLICT });
    expect(PRODUCT_CONFLICT).toBe("Produk ini sudah diubah oleh operator lain. Muat ulang halaman.");
    expect(await getProductForOps(id)).toMatchObject({ price: 11_000_000, title: "Motor Listrik Uji Admin", version: 2 });
    // 'Riwayat': who changed what, before → after.
    const history = await listProductHistory(id);
    expect(history.map((h) => h.action)).toEqual(["produk-diubah", "produk-dibuat"]);
    expect(history[0]!.changes).toEqual({ price: { before: 10_000_000, after: 11_000_000 } });
    expect(history[0]!.operator).toMatch(/@/);
  });
});

describe("publishing and orders", () => {
  it("a draft or archived product is absent for buyers; a checkout started before archiving is refused at order creation, nothing reserved", async () => {
    const id = await newProduct({ status: "draf", title: "Sepeda Listrik Rahasia" });
    expect(await getProductDetail(id)).toBeNull();
    expect((await listProducts({ page: 0, keyword: "Rahasia" })).total).toBe(0);
    const buyer = await createVerifiedUser(db);
    expect(await startCheckout({ id: buyer.id, verified: true }, id)).toEqual({ ok: false, message: "Produk tidak ditemukan." });

    const read = (await getProductForOps(id))!;
    expect(
      await saveProduct(operatorId, {
        id,
        version: read.version,
        stockRead: read.stock,
        fields: form({ status: "tayang", title: "Sepeda Listrik Rahasia" }),
        promoIds: [],
      }),
    ).toMatchObject({ ok: true });
    expect(await getProductDetail(id)).toMatchObject({ id, title: "Sepeda Listrik Rahasia" });
    expect((await listProducts({ page: 0, keyword: "rahasia" })).content.map((p) => p.id)).toEqual([id]);
    expect(await startCheckout({ id: buyer.id, verified: true }, id)).toEqual({ ok: true });
    await saveDraftAddress(buyer.id, await realAddress(db));

    const published = (await getProductForOps(id))!;
    await saveProduct(operatorId, {
      id,
      version: published.version,
      stockRead: published.stock,
      fields: form({ status: "arsip", title: "Sepeda Listrik Rahasia" }),
      promoIds: [],
    });
    expect(await getProductDetail(id)).toBeNull();
    const refused = await createOrderFromDraft(buyer.id, randomUUID(), submission(buyer), { statusId: 200 });
    expect(refused).toEqual({ ok: false, field: "product", message: PRODUCT_WITHDRAWN });
    expect(await productStock(db, id)).toBe(10);
    expect((await db.select({ n: count() }).from(orders).where(eq(orders.productId, id)))[0]!.n).toBe(0);
  });

  it("50 concurrent orders while an operator sets the stock: every reservation stays, the stock never goes below them", async () => {
    const productId = await createProduct(db, { stock: 100, price: 5_000_000 });
    const address = await realAddress(db);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => createVerifiedUser(db)));
    for (const buyer of buyers) {
      expect(await startCheckout({ id: buyer.id, verified: true }, productId)).toEqual({ ok: true });
      await saveDraftAddress(buyer.id, address);
    }
    // The operator read the form at 100 and lowers the stock to 60 (40 units fewer), while 50 orders come in.
    const read = (await getProductForOps(productId))!;
    const fields = { title: read.title!, categoryId: String(categoryId), price: "5000000", stock: "60", status: "tayang" };
    // The save sits among the orders (half are sent before it), so some reservations land between
    // the form's read and its save: setting 60 outright would undo them.
    const order = (buyer: (typeof buyers)[number]) => createOrderFromDraft(buyer.id, randomUUID(), submission(buyer), { statusId: 200 });
    const outcomes = await Promise.all([
      ...buyers.slice(0, 25).map(order),
      saveProduct(operatorId, { id: productId, version: read.version, stockRead: read.stock, fields, promoIds: [] }),
      ...buyers.slice(25).map(order),
    ]);
    const [operatorSave] = outcomes.splice(25, 1);
    const placed = outcomes;
    expect(operatorSave).toEqual({ ok: true, id: productId });
    const created = placed.filter((p) => p.ok).length;
    expect(created).toBe(50);
    // 100 − 50 reserved − 40 taken away by the operator: not 60 (which would undo the reservations).
    expect(await productStock(db, productId)).toBe(10);
    console.log(`[stock race] 50 orders + an operator setting 100 → 60: ${created} orders, stock ${await productStock(db, productId)}`);
  });

  it("an order keeps the price and title it was made with after the operator changes them", async () => {
    const id = await newProduct({ price: "20000000", discount: "0", title: "Kompor Harga Lama" });
    const buyer = await createVerifiedUser(db);
    await startCheckout({ id: buyer.id, verified: true }, id);
    await saveDraftAddress(buyer.id, await realAddress(db));
    const order = await createOrderFromDraft(buyer.id, randomUUID(), submission(buyer), { statusId: 200 });
    if (!order.ok) throw new Error(order.message);
    const read = (await getProductForOps(id))!;
    await saveProduct(operatorId, {
      id,
      version: read.version,
      stockRead: read.stock,
      fields: form({ price: "25000000", discount: "0", title: "Kompor Harga Baru" }),
      promoIds: [],
    });
    expect(
      await db
        .select({ title: orderProducts.title, price: orderProducts.price })
        .from(orderProducts)
        .where(eq(orderProducts.orderId, order.orderId)),
    ).toEqual([{ title: "Kompor Harga Lama", price: 20_000_000 }]);
    expect(await getProductDetail(id)).toMatchObject({ price: 25_000_000, title: "Kompor Harga Baru" });
  });
});

describe("photos", () => {
  it("several at once, re-encoded as WebP in the storefront's sizes; reordered and deleted; anything not a picture refused", async () => {
    const id = await newProduct();
    const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .withMetadata({ exif: { IFD0: { Copyright: "rahasia-gps" } } })
      .jpeg()
      .toBuffer();
    const png = await sharp({ create: { width: 500, height: 900, channels: 4, background: { r: 0, g: 0, b: 200, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const files = [new File([new Uint8Array(jpeg)], "a.jpg"), new File([new Uint8Array(png)], "b.png")];
    expect(await addProductPhotos(operatorId, id, files)).toEqual({ ok: true, added: 2 });
    const photos = (await getProductForOps(id))!.photos;
    expect(photos).toHaveLength(2);
    const [card] = await db.select().from(productImages).where(eq(productImages.id, photos[0]!.id));
    expect(card).toMatchObject({ cardWidth: 360, cardHeight: 360, detailWidth: 780, detailHeight: 585 });
    const stored = (await getCatalogueImage(card!.cardUrl.replace("/catalogue-images/", "").replace(".webp", "")))!;
    const meta = await sharp(stored.bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 360, height: 360 });
    expect(meta.exif).toBeUndefined();
    expect(await getProductDetail(id)).toMatchObject({
      imageUrl: card!.cardUrl,
      images: [
        { url: card!.detailUrl, width: 780, height: 585 },
        { width: 325, height: 585 },
      ],
    });

    expect(await changeProductPhoto(operatorId, id, photos[1]!.id, "first")).toBe(true);
    expect((await getProductForOps(id))!.photos.map((p) => p.id)).toEqual([photos[1]!.id, photos[0]!.id]);
    expect(await changeProductPhoto(operatorId, id + 1, photos[1]!.id, "delete")).toBe(false);
    expect(await changeProductPhoto(operatorId, id, photos[1]!.id, "delete")).toBe(true);
    expect((await getProductForOps(id))!.photos.map((p) => p.id)).toEqual([photos[0]!.id]);

    const svg = new File([new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')], "x.jpg");
    expect(await addProductPhotos(operatorId, id, [svg])).toEqual({ ok: false, message: "Foto harus berupa JPG, PNG atau WebP." });
    expect(await addProductPhotos(operatorId, id, [new File([new Uint8Array(6 * 1024 * 1024)], "big.jpg")])).toEqual({
      ok: false,
      message: "Ukuran foto maksimal 5 MB.",
    });
    expect(await addProductPhotos(operatorId, id, [])).toEqual({ ok: false, message: "Pilih minimal satu foto." });
  });
});

describe("categories", () => {
  it("a new store starts with six categories (issue 38), which the admin renames like any other", async () => {
    const starting = ["Kendaraan Listrik", "Motor Listrik", "Mobil Listrik", "Sepeda Listrik", "Peralatan Rumah", "Aksesori"];
    // This file's database has no demo data: the rows are the migration's.
    const rows = await db
      .select({ id: categories.id, title: categories.title, position: categories.position })
      .from(categories)
      .where(inArray(categories.title, starting))
      .orderBy(asc(categories.position));
    expect(rows.map((r) => [r.title, r.position])).toEqual(starting.map((title, i) => [title, i]));
    const accessories = rows.find((r) => r.title === "Aksesori")!;
    expect(await changeTaxonomy(operatorId, "kategori", { intent: "rename", id: accessories.id, name: "Aksesori Kendaraan" })).toEqual({
      ok: true,
    });
    const [renamed] = await db.select({ title: categories.title }).from(categories).where(eq(categories.id, accessories.id));
    expect(renamed?.title).toBe("Aksesori Kendaraan");
  });

  it("one in use cannot be deleted (it can be hidden, and leaves the buyers' list); an unused one can", async () => {
    const id = await newProduct();
    const { categoryId: used } = (await getProductForOps(id))!;
    const refused = await changeTaxonomy(operatorId, "kategori", { intent: "delete", id: used! });
    expect(refused).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Kategori Motor Listrik Uji masih dipakai \d+ produk dan tidak dapat dihapus\. Sembunyikan saja\.$/),
    });
    expect(await changeTaxonomy(operatorId, "kategori", { intent: "add", name: "Kosong Sementara" })).toEqual({ ok: true });
    expect(await changeTaxonomy(operatorId, "kategori", { intent: "add", name: "Kosong Sementara" })).toMatchObject({
      ok: false,
      field: "name",
    });
    const [empty] = await db.select({ id: categories.id }).from(categories).where(eq(categories.title, "Kosong Sementara"));
    expect(await changeTaxonomy(operatorId, "kategori", { intent: "delete", id: empty!.id })).toEqual({ ok: true });
  });
});

const header = CATALOGUE_COLUMNS.join(",");
const row = (sku: string, overrides: Partial<Record<(typeof CATALOGUE_COLUMNS)[number], string>> = {}) => {
  const values = {
    sku,
    nama: `Produk ${sku}`,
    kategori: "Impor Uji",
    harga: "1500000",
    diskon: "0",
    tipe_diskon: "v",
    stok: "7",
    kota: "Kota Impor",
    kondisi: "Baru",
    berat_gram: "1000",
    minimal_pembelian: "1",
    deskripsi: "Dari CSV",
    status: "tayang",
    ...overrides,
  };
  return CATALOGUE_COLUMNS.map((c) => (/[",;\n]/.test(values[c]) ? `"${values[c].replaceAll('"', '""')}"` : values[c])).join(",");
};
const countProducts = async () => (await db.select({ n: count() }).from(products))[0]!.n;

describe("CSV import", () => {
  it("previews (added, changed, invalid rows by line), applies valid rows in one go, and a second apply changes nothing", async () => {
    const sku = `csv-${randomUUID().slice(0, 8)}`;
    const csv = [
      header,
      row(`${sku}-1`, { diskon: "10", tipe_diskon: "%", kondisi: "bekas" }),
      row(`${sku}-2`, { harga: "-5" }),
      row(`${sku}-3`, { nama: "=cmd|' /C calc'!A0" }),
      row(`${sku}-4`, { status: "jual", diskon: "101", tipe_diskon: "%" }),
      row(`${sku}-1`),
    ].join("\n");
    const before = await countProducts();
    const preview = await previewCatalogueCsv(csv);
    expect(preview).toEqual({
      ok: true,
      plan: {
        rows: 5,
        added: 1,
        changed: 0,
        unchanged: 0,
        invalid: 4,
        problems: [
          "Baris 3: Harga harus lebih dari 0.",
          `Baris 4: ${CSV_FORMULA}`,
          "Baris 5: Diskon persen maksimal 100. Status harus Draf, Tayang atau Arsip.",
          `Baris 6: SKU ${sku}-1 sudah ada di baris 2.`,
        ],
        newCategories: ["Impor Uji"],
        newCities: ["Kota Impor"],
        // The values read, beside what the row will do (issue 38): only rows that add or change a product.
        shown: [
          {
            line: 2,
            sku: `${sku}-1`,
            name: `Produk ${sku}-1`,
            price: 1_500_000,
            discount: 10,
            discountType: "%",
            stock: 7,
            condition: "Bekas",
            status: "tayang",
            outcome: "akan ditambah",
          },
        ],
      },
    });
    expect(await countProducts()).toBe(before);

    const applied = await applyCatalogueCsv(operatorId, csv, "harga.csv");
    expect(applied).toMatchObject({ ok: true, plan: { added: 1, changed: 0, invalid: 4 } });
    expect(await countProducts()).toBe(before + 1);
    const [created] = await db
      .select()
      .from(products)
      .where(eq(products.sku, `${sku}-1`));
    expect(created).toMatchObject({ title: `Produk ${sku}-1`, price: 1_500_000, stock: 7, status: "tayang" });
    const audit = await db.select().from(catalogueAudit).where(eq(catalogueAudit.productId, created!.id));
    expect(audit).toMatchObject([{ operatorId, action: "impor-csv", detail: "harga.csv baris 2" }]);

    const again = await applyCatalogueCsv(operatorId, csv, "harga.csv");
    expect(again).toMatchObject({ ok: true, plan: { added: 0, changed: 0, unchanged: 1 } });
    expect(await countProducts()).toBe(before + 1);

    // A semicolon file (Excel in Indonesia) changing the price: one product 'akan diubah'.
    const semicolon = [CATALOGUE_COLUMNS.join(";"), row(`${sku}-1`, { harga: "1400000" }).replaceAll(",", ";")].join("\r\n");
    expect(await previewCatalogueCsv(semicolon)).toMatchObject({ ok: true, plan: { added: 0, changed: 1 } });
  });

  it("export → import changes nothing (formula-like and quoted cells included)", async () => {
    await newProduct({ description: '-Baterai; "72V", lepas-pasang\n+ garansi' });
    await newProduct({ title: "Motor;=cmd|' /C calc'!A0" });
    const chunks: Buffer[] = [];
    for await (const chunk of exportCatalogueCsv()) chunks.push(Buffer.from(chunk));
    const csv = Buffer.concat(chunks).toString("utf8");
    expect(csv.split("\n")[0]).toBe(header);
    expect(csv).toContain("'-Baterai");
    // Excel in Indonesia splits on ';': the piece after it is text, never a formula.
    expect(csv).toContain("Motor;'=cmd");
    expect(csv).not.toMatch(/[,;\t\r\n]"?[=+@]/);
    const preview = await previewCatalogueCsv(csv);
    expect(preview).toMatchObject({ ok: true, plan: { added: 0, changed: 0, invalid: 0 } });
    if (preview.ok) expect(preview.plan.unchanged).toBe(await countProducts());
  });

  it("hostile files: a clear message, nothing written", async () => {
    const before = await countProducts();
    const cases: [string, string | Buffer, string | RegExp][] = [
      [
        "100,000 rows",
        ["sku,nama,kategori,harga", ...Array.from({ length: 100_000 }, (_, i) => `big-${i},x,k,1`)].join("\n"),
        csvTooManyRows(20_000),
      ],
      ["50 MB", Buffer.alloc(50 * 1024 * 1024, "a"), csvTooLarge(5 * 1024 * 1024)],
      ["broken quoting", `${header}\n${row("q-1")}\n"q-2,"Produk,x\n`, /^Baris \d+: format CSV rusak/],
      ["unknown columns", `${header},harga_grosir\n${row("u-1")},1`, csvUnknownColumns(["harga_grosir"])],
      [
        "not text",
        Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]),
        "File harus berupa CSV, bukan file lain. Dari Excel: pilih Simpan Sebagai, lalu jenis file CSV.",
      ],
    ];
    for (const [name, content, message] of cases) {
      const preview = await previewCatalogueCsv(content);
      expect(preview.ok, name).toBe(false);
      if (!preview.ok) expect(preview.message, name).toMatch(message);
      const applied = await applyCatalogueCsv(operatorId, content, "x.csv");
      expect(applied.ok, name).toBe(false);
    }
    // HTML in names and negative prices: the rows are invalid with their reasons; none written.
    const rows = [header, row("h-1", { nama: "<script>alert(1)</script>" }), row("h-2", { harga: "-1000" })].join("\n");
    expect(await previewCatalogueCsv(rows)).toMatchObject({
      ok: true,
      plan: { added: 0, invalid: 2, problems: [`Baris 2: ${PRODUCT_MESSAGES.titleHtml}`, "Baris 3: Harga harus lebih dari 0."] },
    });
    expect(await applyCatalogueCsv(operatorId, rows, "x.csv")).toMatchObject({ ok: true, plan: { added: 0 } });
    expect(await countProducts()).toBe(before);
    expect(
      await db
        .select({ n: count() })
        .from(products)
        .where(inArray(products.sku, ["h-1", "h-2", "q-1", "u-1", "big-0"])),
    ).toEqual([{ n: 0 }]);
  });
});

describe("stored pictures", () => {
  it("an unknown or malformed hash is not served", async () => {
    expect(await getCatalogueImage("x".repeat(32))).toBeNull();
    expect(await getCatalogueImage("../../etc/passwd")).toBeNull();
    expect((await db.select({ n: count() }).from(catalogueImages))[0]!.n).toBeGreaterThan(0);
  });
});
