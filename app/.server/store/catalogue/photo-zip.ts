import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { Worker } from "node:worker_threads";
import { zipSync } from "fflate";
import { getDb, type Executor } from "../../db/client";
import { catalogueAudit, productImages, products } from "../../db/schema";
import {
  checkPicture,
  dropUnusedImages,
  encodePicture,
  PHOTO_MAX_BYTES,
  PHOTO_SIZES,
  PHOTO_TOO_MANY_PIXELS,
  storeImages,
  type EncodedImage,
} from "./photos";
import { catalogueWrite } from "./version";

// Photos for many products at once (issue 38 item 2): one ZIP whose entry names are SKUs —
// `SKU.jpg` is the product's main photo, `SKU-2.jpg` its second, and so on. The ZIP is read with
// its central directory, refusing entries by their DECLARED size before anything is inflated; the
// rest are inflated in a worker thread, each stopped at its declared size (issue 45 item 12: fflate
// cut a lying entry's output short but inflated all of it, 13 s of the main thread for 1 GB). Every
// accepted entry is decoded by the same code as 'Foto Produk' in the preview; 'Terapkan' stores
// them with that code again, one transaction for the whole ZIP. Several loose pictures chosen
// instead of a ZIP are packed into one (photosAsZip), so both take the same way from there on.

/** The upload itself (request-guards.ts adds the form around it). */
export const PHOTO_ZIP_MAX_BYTES = 30 * 1024 * 1024;
export const PHOTO_ZIP_MAX_ENTRIES = 200;
/** What all accepted entries may inflate to together. */
export const PHOTO_ZIP_MAX_TOTAL = 200 * 1024 * 1024;

export const ZIP_UNREADABLE = "File bukan ZIP yang valid atau rusak. Unggah file .zip berisi foto produk.";
export const ZIP_TOO_MANY = `ZIP berisi lebih dari ${PHOTO_ZIP_MAX_ENTRIES} file. Bagi menjadi beberapa ZIP.`;
export const ZIP_TOO_LARGE = `Ukuran ZIP maksimal ${PHOTO_ZIP_MAX_BYTES / 1024 / 1024} MB.`;
export const ZIP_EMPTY = "ZIP tidak berisi foto (SKU.jpg, SKU-2.jpg, …).";

const REFUSED_TYPE = "Bukan gambar JPG/PNG/WebP";
const REFUSED_SIZE = `Terlalu besar (maks. ${PHOTO_MAX_BYTES / 1024 / 1024} MB)`;
const REFUSED_TOTAL = `Total isi ZIP terlalu besar (maks. ${PHOTO_ZIP_MAX_TOTAL / 1024 / 1024} MB)`;
const REFUSED_SKU = "SKU tidak ditemukan";
const REFUSED_UNREADABLE = "Gambar tidak dapat dibaca";
const REFUSED_NAME = "Nama file harus SKU.jpg atau SKU-2.jpg, …";
const REFUSED_TWICE = "Posisi foto yang sama muncul lebih dari sekali";

const IMAGE_NAME = /^(.+)\.(jpe?g|png|webp)$/i;

export type ZipEntry = { fileName: string; bytes: Uint8Array };
export type ZipRefusal = { fileName: string; reason: string };

/** How long the worker may take to inflate one upload's entries before it is stopped. */
export const PHOTO_ZIP_TIME_LIMIT_MS = 20_000;
export const ZIP_TOO_SLOW = "ZIP tidak selesai dibaca dalam batas waktu. Periksa file ZIP atau bagi menjadi beberapa ZIP.";
export const REFUSED_LYING = "Isi file tidak sesuai dengan ukuran yang tercantum di ZIP (file rusak atau tidak aman)";

/** One central-directory record: what the ZIP says about an entry, before anything is inflated. */
type ZipRecord = { name: string; method: number; compressedSize: number; declared: number; offset: number };

/** The ZIP's central directory (metadata only, no inflating); null when it is no ZIP we read. */
function zipRecords(zip: Uint8Array): ZipRecord[] | null {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65,535, at the very end.
  let end = -1;
  for (let i = zip.byteLength - 22; i >= Math.max(0, zip.byteLength - 22 - 65_535); i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  // ZIP64 (its markers are all ones) is for files far past the 30 MB an upload may be.
  if (count === 0xffff || at === 0xffffffff) return null;
  const records: ZipRecord[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.byteLength || view.getUint32(at, true) !== 0x02014b50) return null;
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLength);
    records.push({
      // Bit 11: the name is UTF-8; otherwise it is read byte by byte (as fflate did).
      name: flags & 0x800 ? new TextDecoder().decode(nameBytes) : String.fromCharCode(...nameBytes),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      declared: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return records;
}

// The worker's whole program (plain CommonJS, so the server bundle needs no file of its own for it).
// Each entry is inflated by zlib with `maxOutputLength` = its declared size (never more than the
// per-entry limit): zlib inflates chunk by chunk and stops as soon as the output would pass it, so
// an entry declared as 1,000 bytes costs at most 1,000 bytes of work, whatever it would inflate to.
// Stored entries and inflated ones must be exactly their declared size.
const INFLATE_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const zlib = require("node:zlib");
const zip = Buffer.from(workerData.zip.buffer, workerData.zip.byteOffset, workerData.zip.byteLength);
const results = [];
for (const e of workerData.entries) {
  try {
    if (e.offset + 30 > zip.length || zip.readUInt32LE(e.offset) !== 0x04034b50) throw new Error("header");
    const start = e.offset + 30 + zip.readUInt16LE(e.offset + 26) + zip.readUInt16LE(e.offset + 28);
    if (start + e.compressedSize > zip.length) throw new Error("short");
    const data = zip.subarray(start, start + e.compressedSize);
    let bytes;
    if (e.method === 0) bytes = data;
    else if (e.method === 8) bytes = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, e.cap) });
    else throw new Error("method");
    results.push(bytes.length === e.declared ? { bytes: new Uint8Array(bytes) } : { fail: "size" });
  } catch (error) {
    results.push({ fail: error && error.code === "ERR_BUFFER_TOO_LARGE" ? "size" : "unreadable" });
  }
}
parentPort.postMessage(results, results.flatMap((r) => (r.bytes ? [r.bytes.buffer] : [])));
`;

type Inflated = { bytes: Uint8Array } | { fail: "size" | "unreadable" };

/** Inflates the chosen entries in a worker thread, stopped after `timeLimitMs` ("slow"). */
function inflateInWorker(
  zip: Uint8Array,
  entries: (ZipRecord & { cap: number })[],
  timeLimitMs: number,
): Promise<Inflated[] | "slow" | "failed"> {
  return new Promise((resolve) => {
    const worker = new Worker(INFLATE_WORKER, { eval: true, workerData: { zip, entries } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve("slow");
    }, timeLimitMs);
    worker.once("message", (results: Inflated[]) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(results);
    });
    // The worker itself failed (out of memory, say): the ZIP is refused as unreadable.
    worker.once("error", () => {
      clearTimeout(timer);
      resolve("failed");
    });
  });
}

/**
 * The ZIP's image entries (base names) and what was refused by name or size; an error when it is no
 * ZIP. Entries are chosen by their DECLARED sizes before anything is inflated, then inflated off the
 * request thread (a worker, with a time limit), each stopped at its declared size: a ZIP bomb is
 * refused after at most that much work, and the server answers other requests meanwhile.
 */
export async function readPhotoZip(
  zip: Uint8Array,
  options: { timeLimitMs?: number } = {},
): Promise<{ entries: ZipEntry[]; refused: ZipRefusal[] } | { error: string }> {
  const records = zipRecords(zip);
  if (!records) return { error: ZIP_UNREADABLE };
  const refused: ZipRefusal[] = [];
  const chosen: (ZipRecord & { cap: number; base: string })[] = [];
  let seen = 0;
  let total = 0;
  for (const record of records) {
    const base = record.name.split("/").pop() ?? "";
    // Folders, macOS resource forks and hidden files are no one's photos: skipped silently.
    if (!base || record.name.startsWith("__MACOSX/") || record.name.includes("/__MACOSX/") || base.startsWith(".")) continue;
    seen += 1;
    if (seen > PHOTO_ZIP_MAX_ENTRIES) return { error: ZIP_TOO_MANY };
    if (!IMAGE_NAME.test(base)) refused.push({ fileName: base, reason: REFUSED_TYPE });
    else if (record.declared > PHOTO_MAX_BYTES) refused.push({ fileName: base, reason: REFUSED_SIZE });
    else if (total + record.declared > PHOTO_ZIP_MAX_TOTAL) refused.push({ fileName: base, reason: REFUSED_TOTAL });
    else {
      total += record.declared;
      chosen.push({ ...record, base, cap: Math.min(record.declared, PHOTO_MAX_BYTES) });
    }
  }
  const inflated = chosen.length ? await inflateInWorker(zip, chosen, options.timeLimitMs ?? PHOTO_ZIP_TIME_LIMIT_MS) : [];
  if (inflated === "slow") return { error: ZIP_TOO_SLOW };
  if (inflated === "failed") return { error: ZIP_UNREADABLE };
  const entries: ZipEntry[] = [];
  chosen.forEach((record, i) => {
    const result = inflated[i]!;
    if ("bytes" in result) entries.push({ fileName: record.base, bytes: result.bytes });
    else refused.push({ fileName: record.base, reason: result.fail === "size" ? REFUSED_LYING : REFUSED_UNREADABLE });
  });
  entries.sort((a, b) => a.fileName.localeCompare(b.fileName, "en", { numeric: true }));
  return { entries, refused };
}

/** `ABC.jpg` → ABC, photo 1; `ABC-3.png` → ABC, photo 3 (or the SKU `ABC-3`, photo 1, when that exists). */
export function skuCandidates(fileName: string): { sku: string; photo: number }[] {
  const stem = IMAGE_NAME.exec(fileName)?.[1]?.trim();
  if (!stem) return [];
  const candidates = [{ sku: stem, photo: 1 }];
  const numbered = /^(.+)-(\d{1,3})$/.exec(stem);
  if (numbered && Number(numbered[2]) >= 1) candidates.push({ sku: numbered[1]!, photo: Number(numbered[2]) });
  return candidates;
}

export type PhotoZipItem = {
  fileName: string;
  productId: number;
  sku: string;
  title: string;
  /** 1 = the main photo. */
  photo: number;
  replaces: boolean;
  /** The preview's picture of it (a 64 px WebP data: URL); absent when the plan is applied. */
  thumbnail?: string;
};
export type PhotoZipPlan = { items: PhotoZipItem[]; refused: ZipRefusal[]; products: number };
type Matched = PhotoZipItem & { images: EncodedImage[] };

/**
 * Several pictures chosen at once (no ZIP at hand) as one ZIP, stored uncompressed: they are
 * previewed, kept between preview and 'Terapkan', and applied exactly as an uploaded ZIP.
 */
export function photosAsZip(files: { name: string; bytes: Uint8Array }[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) entries[file.name.split(/[\\/]/).pop() || "foto"] = file.bytes;
  return zipSync(entries, { level: 0 });
}

/** The plan; with `encode`, each accepted photo also in the sizes the store keeps (for 'Terapkan'). */
async function planZip(
  zip: Uint8Array,
  encode: boolean,
): Promise<{ ok: true; plan: PhotoZipPlan; matched: Matched[] } | { ok: false; message: string }> {
  if (zip.byteLength > PHOTO_ZIP_MAX_BYTES) return { ok: false, message: ZIP_TOO_LARGE };
  const read = await readPhotoZip(zip);
  if ("error" in read) return { ok: false, message: read.error };
  const refused = [...read.refused];
  const wanted = [...new Set(read.entries.flatMap((e) => skuCandidates(e.fileName).map((c) => c.sku)))];
  const db = await getDb();
  const found = wanted.length
    ? await db.select({ id: products.id, sku: products.sku, title: products.title }).from(products).where(inArray(products.sku, wanted))
    : [];
  const bySku = new Map(found.map((p) => [p.sku!, p]));
  const counts = found.length
    ? await db
        .select({ productId: productImages.productId, count: sql<number>`count(*)::int` })
        .from(productImages)
        .where(
          inArray(
            productImages.productId,
            found.map((p) => p.id),
          ),
        )
        .groupBy(productImages.productId)
    : [];
  const photoCount = new Map(counts.map((c) => [c.productId, Number(c.count)]));
  const matched: Matched[] = [];
  const taken = new Set<string>();
  for (const entry of read.entries) {
    const candidates = skuCandidates(entry.fileName);
    if (!candidates.length) {
      refused.push({ fileName: entry.fileName, reason: REFUSED_NAME });
      continue;
    }
    const hit = candidates.find((c) => bySku.has(c.sku));
    if (!hit) {
      refused.push({ fileName: entry.fileName, reason: REFUSED_SKU });
      continue;
    }
    const product = bySku.get(hit.sku)!;
    const key = `${product.id}:${hit.photo}`;
    if (taken.has(key)) {
      refused.push({ fileName: entry.fileName, reason: REFUSED_TWICE });
      continue;
    }
    // Decoded now, by the same code as 'Foto Produk': a .jpg that is not a picture is refused here.
    const picture = new File([entry.bytes as Uint8Array<ArrayBuffer>], entry.fileName);
    const decoded: { ok: true; images?: EncodedImage[]; thumbnail?: Uint8Array } | { ok: false; message: string } = encode
      ? await encodePicture(picture, PHOTO_SIZES)
      : await checkPicture(picture);
    if (!decoded.ok) {
      refused.push({ fileName: entry.fileName, reason: decoded.message === PHOTO_TOO_MANY_PIXELS ? decoded.message : REFUSED_UNREADABLE });
      continue;
    }
    taken.add(key);
    matched.push({
      fileName: entry.fileName,
      productId: product.id,
      sku: product.sku!,
      title: product.title ?? "",
      photo: hit.photo,
      replaces: hit.photo <= (photoCount.get(product.id) ?? 0),
      ...(decoded.thumbnail ? { thumbnail: `data:image/webp;base64,${Buffer.from(decoded.thumbnail).toString("base64")}` } : {}),
      images: decoded.images ?? [],
    });
  }
  if (!matched.length && !refused.length) return { ok: false, message: ZIP_EMPTY };
  matched.sort((a, b) => a.sku.localeCompare(b.sku) || a.photo - b.photo);
  refused.sort((a, b) => a.fileName.localeCompare(b.fileName, "en", { numeric: true }));
  const items = matched.map(({ images: _images, ...item }) => item);
  return { ok: true, plan: { items, refused, products: new Set(items.map((i) => i.productId)).size }, matched };
}

/** What 'Terapkan' would do with this ZIP (nothing is written). */
export async function previewPhotoZip(zip: Uint8Array): Promise<{ ok: true; plan: PhotoZipPlan } | { ok: false; message: string }> {
  const planned = await planZip(zip, false);
  return planned.ok ? { ok: true, plan: planned.plan } : planned;
}

/**
 * The preview kept with the staged ZIP at upload (its JSON, thumbnails included): viewing the
 * preview again reads nothing from the ZIP. Null for a file staged without one (before issue 45).
 */
export function keptPhotoZipPlan(preview: string | null): PhotoZipPlan | null {
  if (!preview) return null;
  try {
    const plan = JSON.parse(preview) as PhotoZipPlan;
    return Array.isArray(plan.items) && Array.isArray(plan.refused) ? plan : null;
  } catch {
    return null;
  }
}

export function photoZipSummary(plan: PhotoZipPlan): string {
  const replaced = plan.items.filter((i) => i.replaces).length;
  return `${plan.items.length} foto untuk ${plan.products} produk (${plan.items.length - replaced} baru, ${replaced} diganti), ${plan.refused.length} file ditolak`;
}

/**
 * 'Terapkan': every matched photo in ONE transaction. Photo N replaces the product's N-th photo when
 * it has one, else it is added after the last; each product's 'Riwayat' records what the ZIP did.
 * `claim` runs first in that transaction (the caller marks its staged ZIP applied): false means
 * another 'Terapkan' took it and nothing is written; a failure after it undoes the claim too, so the
 * operator can press 'Terapkan' again without uploading the ZIP again.
 */
export async function applyPhotoZip(
  operatorId: number,
  zip: Uint8Array,
  fileName: string,
  claim: (tx: Executor, plan: PhotoZipPlan) => Promise<boolean>,
): Promise<{ ok: true; applied: boolean; plan: PhotoZipPlan } | { ok: false; message: string }> {
  const planned = await planZip(zip, true);
  if (!planned.ok) return planned;
  const byProduct = new Map<number, Matched[]>();
  for (const m of planned.matched) byProduct.set(m.productId, [...(byProduct.get(m.productId) ?? []), m]);
  const applied = await catalogueWrite(async (tx) => {
    if (!(await claim(tx, planned.plan))) return false;
    for (const [productId, photos] of byProduct) {
      const existing = await tx
        .select({
          id: productImages.id,
          position: productImages.position,
          cardUrl: productImages.cardUrl,
          detailUrl: productImages.detailUrl,
        })
        .from(productImages)
        .where(eq(productImages.productId, productId))
        .orderBy(asc(productImages.position), asc(productImages.id))
        .for("update");
      let next = existing.length ? Math.max(...existing.map((e) => e.position)) + 1 : 0;
      const replacedUrls: string[] = [];
      let added = 0;
      let replaced = 0;
      for (const photo of photos.sort((a, b) => a.photo - b.photo)) {
        const [card, detail] = photo.images as [EncodedImage, EncodedImage];
        await storeImages(tx, [card, detail]);
        const urls = {
          cardUrl: card.url,
          cardWidth: card.width,
          cardHeight: card.height,
          detailUrl: detail.url,
          detailWidth: detail.width,
          detailHeight: detail.height,
        };
        const old = existing[photo.photo - 1];
        if (old) {
          await tx
            .update(productImages)
            .set(urls)
            .where(and(eq(productImages.id, old.id), eq(productImages.productId, productId)));
          replacedUrls.push(old.cardUrl, old.detailUrl);
          replaced += 1;
        } else {
          await tx.insert(productImages).values({ productId, position: next, ...urls });
          next += 1;
          added += 1;
        }
      }
      await dropUnusedImages(tx, replacedUrls);
      const what = [added ? `${added} foto ditambah` : "", replaced ? `${replaced} foto diganti` : ""].filter(Boolean).join(", ");
      await tx
        .insert(catalogueAudit)
        .values({ productId, operatorId, action: "foto-zip", detail: `${what} dari ${fileName.slice(0, 100)}` });
    }
    return true;
  });
  return { ok: true, applied, plan: planned.plan };
}
