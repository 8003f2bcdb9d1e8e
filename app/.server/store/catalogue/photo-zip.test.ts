import { randomUUID } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { zipSync } from "fflate";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { catalogueAudit, productImages, products } from "../../db/schema";
import { createProduct, createVerifiedUser } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { getStagedCsvImport, markCsvImportApplied, stageCsvImport } from "../back-office";
import {
  applyPhotoZip,
  keptPhotoZipPlan,
  photosAsZip,
  previewPhotoZip,
  readPhotoZip,
  skuCandidates,
  ZIP_TOO_MANY,
  ZIP_UNREADABLE,
} from "./photo-zip";
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

/** Applies with a claim that always succeeds (the route's claim marks its staged ZIP). */
const claimed = async () => true;

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
    const read = await readPhotoZip(zip);
    if ("error" in read) throw new Error(read.error);
    expect(read.entries.map((e) => e.fileName)).toEqual(["A1.jpg"]);
    expect(read.refused).toEqual([
      { fileName: "BOMB.jpg", reason: "Terlalu besar (maks. 5 MB)" },
      { fileName: "readme.txt", reason: "Bukan gambar JPG/PNG/WebP" },
    ]);
  });

  it("refuses what is no ZIP and a ZIP with too many entries", async () => {
    expect(await readPhotoZip(new TextEncoder().encode("bukan zip"))).toEqual({ error: ZIP_UNREADABLE });
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`X${i}.jpg`, new Uint8Array([i % 256])]));
    expect(await readPhotoZip(zipSync(many, { level: 0 }))).toEqual({ error: ZIP_TOO_MANY });
  });

  it("refuses a ZIP bomb (declared 1,000 bytes, inflates to 128 MB) after 1,000 bytes, off the event loop", async () => {
    const sku = `BOM-${randomUUID().slice(0, 6)}`;
    await productWithSku(sku);
    const jpeg = await picture(50);
    const bomb = handWrittenZip([
      { name: "BOMB.jpg", method: 8, data: deflateRawSync(Buffer.alloc(128 * 1024 * 1024)), declared: 1000 },
      { name: `${sku}.jpg`, method: 0, data: jpeg, declared: jpeg.byteLength },
    ]);
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    // Other work is answered while the ZIP is read: the ping, queued before, comes first.
    const ping = new Promise<string>((resolve) => setImmediate(() => resolve("ping")));
    const reading = Promise.resolve(readPhotoZip(bomb));
    expect(await Promise.race([ping, reading.then(() => "zip")])).toBe("ping");
    const read = await reading;
    if ("error" in read) throw new Error(read.error);
    expect(read.entries.map((e) => [e.fileName, e.bytes.byteLength])).toEqual([[`${sku}.jpg`, jpeg.byteLength]]);
    expect(read.refused).toEqual([
      { fileName: "BOMB.jpg", reason: "Isi file tidak sesuai dengan ukuran yang tercantum di ZIP (file rusak atau tidak aman)" },
    ]);
    // The preview names it among 'Ditolak' and keeps the honest photo.
    const preview = await previewPhotoZip(bomb);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.plan.items.map((i) => i.fileName)).toEqual([`${sku}.jpg`]);
    expect(preview.plan.refused.map((r) => r.fileName)).toEqual(["BOMB.jpg"]);
  });

  it("stops the worker at its time limit and says so", async () => {
    const zip = zipSync({ "A.jpg": await picture(60) });
    expect(await readPhotoZip(zip, { timeLimitMs: 0 })).toEqual({
      error: "ZIP tidak selesai dibaca dalam batas waktu. Periksa file ZIP atau bagi menjadi beberapa ZIP.",
    });
  });
});

/** A ZIP written by hand (local headers, central directory, end record), sizes as declared here. */
function handWrittenZip(files: { name: string; method: 0 | 8; data: Uint8Array; declared: number }[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(file.method, 8);
    local.writeUInt32LE(file.data.byteLength, 18);
    local.writeUInt32LE(file.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(file.method, 10);
    record.writeUInt32LE(file.data.byteLength, 20);
    record.writeUInt32LE(file.declared, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    parts.push(local, name, Buffer.from(file.data));
    central.push(record, name);
    offset += 30 + name.length + file.data.byteLength;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}

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
    // Each previewed photo comes with its picture, small: a 400×300 photo as a 64×48 WebP.
    for (const item of preview.plan.items) {
      const [, base64] = item.thumbnail!.match(/^data:image\/webp;base64,(.+)$/)!;
      const bytes = Buffer.from(base64!, "base64");
      expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 64, height: 48 });
      expect(bytes.byteLength).toBeLessThan(2048);
    }

    expect(await applyPhotoZip(operatorId, zip, "foto.zip", claimed)).toMatchObject({ ok: true, applied: true });
    const first = (await getProductForOps(id))!.photos;
    expect(first).toHaveLength(2);

    // A new main photo replaces the first one; the second stays.
    const again = zipSync({ [`${sku}.jpg`]: await picture(200) });
    const replacing = await previewPhotoZip(again);
    expect(replacing.ok && replacing.plan.items[0]).toMatchObject({ photo: 1, replaces: true });
    expect(await applyPhotoZip(operatorId, again, "ganti.zip", claimed)).toMatchObject({ ok: true, applied: true });
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

  it("keeps the upload's preview, thumbnails too, so that a view does not read the ZIP again", async () => {
    const sku = `SIMPAN-${randomUUID().slice(0, 6)}`;
    await productWithSku(sku);
    const zip = zipSync({ [`${sku}.jpg`]: await picture(80) });
    const preview = await previewPhotoZip(zip);
    if (!preview.ok) throw new Error(preview.message);
    const id = await stageCsvImport(
      "foto-zip",
      operatorId,
      "simpan.zip",
      Buffer.from(zip).toString("base64"),
      JSON.stringify(preview.plan),
    );
    const staged = (await getStagedCsvImport(id, "foto-zip", operatorId))!;
    // The plan comes from the kept preview alone (the file's content is not handed in).
    const kept = keptPhotoZipPlan(staged.preview);
    expect(kept).toEqual(preview.plan);
    expect(kept!.items[0]!.thumbnail).toMatch(/^data:image\/webp;base64,/);
    expect(keptPhotoZipPlan(null)).toBeNull();
    expect(keptPhotoZipPlan("{rusak")).toBeNull();
  });

  it("takes several loose pictures as one ZIP", async () => {
    const sku = `LEPAS-${randomUUID().slice(0, 6)}`;
    await productWithSku(sku);
    const zip = photosAsZip([
      { name: `${sku}.jpg`, bytes: await picture(70) },
      { name: `C:\\Users\\ops\\${sku}-2.webp`, bytes: await picture(90, "webp") },
    ]);
    const preview = await previewPhotoZip(zip);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.plan.items.map((i) => [i.fileName, i.photo])).toEqual([
      [`${sku}.jpg`, 1],
      [`${sku}-2.webp`, 2],
    ]);
  });

  it("claims the staged ZIP in the apply's transaction: a lost claim writes nothing, a failed apply keeps the ZIP", async () => {
    const sku = `KLAIM-${randomUUID().slice(0, 6)}`;
    const id = await productWithSku(sku);
    const zip = zipSync({ [`${sku}.jpg`]: await picture(120) });
    const staged = await stageCsvImport("foto-zip", operatorId, "klaim.zip", Buffer.from(zip).toString("base64"));

    // Another 'Terapkan' already took it: nothing is written.
    expect(await applyPhotoZip(operatorId, zip, "klaim.zip", async () => false)).toMatchObject({ ok: true, applied: false });
    expect(await db.select().from(productImages).where(eq(productImages.productId, id))).toHaveLength(0);

    // The apply fails after the claim: the claim is undone with it, the ZIP stays for another try.
    await expect(
      applyPhotoZip(operatorId, zip, "klaim.zip", async (tx) => {
        expect(await markCsvImportApplied(staged, "klaim", tx)).toBe(true);
        throw new Error("disk penuh");
      }),
    ).rejects.toThrow("disk penuh");
    const kept = await getStagedCsvImport(staged, "foto-zip", operatorId);
    expect(kept).toMatchObject({ appliedAt: null });
    expect(kept!.content.length).toBeGreaterThan(0);
    expect(await db.select().from(productImages).where(eq(productImages.productId, id))).toHaveLength(0);

    const applied = await applyPhotoZip(operatorId, zip, "klaim.zip", (tx, plan) =>
      markCsvImportApplied(staged, `${plan.items.length} foto`, tx),
    );
    expect(applied).toMatchObject({ ok: true, applied: true });
    expect(await getStagedCsvImport(staged, "foto-zip", operatorId)).toMatchObject({ summary: "1 foto", content: "", preview: null });
    expect(await db.select().from(productImages).where(eq(productImages.productId, id))).toHaveLength(1);
  });
});
