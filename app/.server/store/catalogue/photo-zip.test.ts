import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { zipSync } from "fflate";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { catalogueAudit, productImages, products } from "../../db/schema";
import { createProduct, createVerifiedUser } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { applyPhotoZip, previewPhotoZip, readPhotoZip, skuCandidates, ZIP_TOO_MANY, ZIP_UNREADABLE } from "./photo-zip";
import { getProductForOps } from "./products-admin";

// Photos for many products from one ZIP (issue 38 item 2): names → SKU and position, what is
// refused (a huge declared entry, a non-image, an unknown SKU, macOS litter), and the apply
// (replaces the N-th photo or adds, records 'Riwayat').

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let db: Db;
let operatorId: number;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  operatorId = (await createVerifiedUser(db)).id;
});

async function picture(r: number, format: "jpeg" | "png" | "webp" = "jpeg"): Promise<Uint8Array> {
  const image = sharp({ create: { width: 400, height: 300, channels: 3, background: { r, g: 80, b: 40 } } });
  return new Uint8Array(await image.toFormat(format).toBuffer());
}

async function productWithSku(sku: string): Promise<number> {
  const id = await createProduct(db, { title: `Produk ${sku}` });
  await db.update(products).set({ sku }).where(eq(products.id, id));
  return id;
}

describe("reading the ZIP", () => {
  it("maps names to SKU and photo number", () => {
    expect(skuCandidates("ABC.jpg")).toEqual([{ sku: "ABC", photo: 1 }]);
    expect(skuCandidates("ABC-3.PNG")).toEqual([
      { sku: "ABC-3", photo: 1 },
      { sku: "ABC", photo: 3 },
    ]);
    expect(skuCandidates("notes.txt")).toEqual([]);
  });

  it("refuses by declared size before inflating, skips folders and macOS litter, names a non-image", async () => {
    const jpeg = await picture(10);
    const zip = zipSync({
      "foto/A1.jpg": jpeg,
      "__MACOSX/foto/._A1.jpg": new Uint8Array([1, 2, 3]),
      ".DS_Store": new Uint8Array([0]),
      // Bomb-like: a few KB compressed, declared 6 MB inflated.
      "BOMB.jpg": new Uint8Array(6 * 1024 * 1024),
      "readme.txt": new TextEncoder().encode("halo"),
    });
    const read = readPhotoZip(zip);
    if ("error" in read) throw new Error(read.error);
    expect(read.entries.map((e) => e.fileName)).toEqual(["A1.jpg"]);
    expect(read.refused).toEqual([
      { fileName: "BOMB.jpg", reason: "Terlalu besar (maks. 5 MB)" },
      { fileName: "readme.txt", reason: "Bukan gambar JPG/PNG/WebP" },
    ]);
  });

  it("refuses what is no ZIP and a ZIP with too many entries", () => {
    expect(readPhotoZip(new TextEncoder().encode("bukan zip"))).toEqual({ error: ZIP_UNREADABLE });
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`X${i}.jpg`, new Uint8Array([i % 256])]));
    expect(readPhotoZip(zipSync(many, { level: 0 }))).toEqual({ error: ZIP_TOO_MANY });
  });
});

describe("preview and apply", () => {
  it("previews positions and refusals, then stores the photos once per apply", async () => {
    const sku = `Z-${randomUUID().slice(0, 8)}`;
    const id = await productWithSku(sku);
    const zip = zipSync({
      [`${sku}.jpg`]: await picture(20),
      [`${sku}-2.png`]: await picture(30, "png"),
      [`${sku}-3.jpg`]: new TextEncoder().encode("ini bukan gambar"),
      "TIDAK-ADA.jpg": await picture(40, "webp"),
    });
    const preview = await previewPhotoZip(zip);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.plan.items.map(({ fileName, sku: s, photo, replaces }) => ({ fileName, s, photo, replaces }))).toEqual([
      { fileName: `${sku}.jpg`, s: sku, photo: 1, replaces: false },
      { fileName: `${sku}-2.png`, s: sku, photo: 2, replaces: false },
    ]);
    expect(preview.plan.refused).toEqual([
      { fileName: "TIDAK-ADA.jpg", reason: "SKU tidak ditemukan" },
      { fileName: `${sku}-3.jpg`, reason: "Gambar tidak dapat dibaca" },
    ]);
    expect(await db.select().from(productImages).where(eq(productImages.productId, id))).toHaveLength(0);

    expect((await applyPhotoZip(operatorId, zip, "foto.zip")).ok).toBe(true);
    const first = (await getProductForOps(id))!.photos;
    expect(first).toHaveLength(2);

    // A new main photo replaces the first one; the second stays.
    const again = zipSync({ [`${sku}.jpg`]: await picture(200) });
    const replacing = await previewPhotoZip(again);
    expect(replacing.ok && replacing.plan.items[0]).toMatchObject({ photo: 1, replaces: true });
    expect((await applyPhotoZip(operatorId, again, "ganti.zip")).ok).toBe(true);
    const after = (await getProductForOps(id))!.photos;
    expect(after).toHaveLength(2);
    expect(after[0]!.url).not.toBe(first[0]!.url);
    expect(after[1]!.url).toBe(first[1]!.url);
    const history = await db
      .select({ detail: catalogueAudit.detail })
      .from(catalogueAudit)
      .where(and(eq(catalogueAudit.productId, id), eq(catalogueAudit.action, "foto-zip")));
    expect(history.map((h) => h.detail).sort()).toEqual(["1 foto diganti dari ganti.zip", "2 foto ditambah dari foto.zip"]);
  });
});
