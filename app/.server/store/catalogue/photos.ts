import { createHash } from "node:crypto";
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { banners, catalogueAudit, catalogueImages, productImages, products } from "../../db/schema";
import { MAX_INPUT_PIXELS } from "../../images";
import { loadSharp } from "../../sharp";
import { catalogueWrite } from "./version";

// Operators' pictures (issue 26 items 2 and 5): product photos and banners. Recognised by their
// bytes (JPEG, PNG or WebP; never by the name), decoded by sharp under the pixel limit, re-encoded
// as WebP from the pixels alone (EXIF, GPS, ICC never kept) in the sizes the storefront shows, and
// stored in the database under a hash of the bytes: /catalogue-images/{hash}.webp never changes
// meaning, so browsers and proxies keep it for a year.

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** One upload of 'Foto Produk': the request's body limit (request-guards.ts) allows this many at 5 MB. */
export const PHOTOS_PER_UPLOAD = 5;
export const PHOTO_TYPE = "Foto harus berupa JPG, PNG atau WebP.";
export const PHOTO_TOO_LARGE = "Ukuran foto maksimal 5 MB.";
export const PHOTO_TOO_MANY_PIXELS = "Resolusi foto terlalu besar (maksimal 40 megapiksel).";
export const PHOTO_REQUIRED = "Pilih minimal satu foto.";
export const PHOTOS_TOO_MANY = `Unggah maksimal ${PHOTOS_PER_UPLOAD} foto sekaligus.`;

export const IMAGE_PATH = "/catalogue-images/";
const imageUrl = (hash: string) => `${IMAGE_PATH}${hash}.webp`;
const hashOfUrl = (url: string) => (url.startsWith(IMAGE_PATH) ? url.slice(IMAGE_PATH.length).replace(/\.webp$/, "") : null);

type Size = { width: number; height: number };
export type EncodedImage = { hash: string; url: string; width: number; height: number; bytes: Uint8Array };

function sniffType(head: Uint8Array): "jpeg" | "png" | "webp" | null {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

type Decoder = () => import("sharp").Sharp;

/** Recognises an uploaded picture by its bytes and reads its header under the pixel limit. */
async function openPicture(file: File): Promise<{ ok: true; decoder: Decoder } | { ok: false; message: string }> {
  if (file.size === 0) return { ok: false, message: PHOTO_TYPE };
  if (file.size > PHOTO_MAX_BYTES) return { ok: false, message: PHOTO_TOO_LARGE };
  const input = new Uint8Array(await file.arrayBuffer());
  const type = sniffType(input.subarray(0, 12));
  if (!type) return { ok: false, message: PHOTO_TYPE };
  const sharp = await loadSharp();
  const decoder = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "warning" });
  const meta = await decoder().metadata();
  if (meta.format !== type || !meta.width || !meta.height) return { ok: false, message: PHOTO_TYPE };
  if (meta.width * meta.height > MAX_INPUT_PIXELS) return { ok: false, message: PHOTO_TOO_MANY_PIXELS };
  return { ok: true, decoder };
}

const decodeFailure = (error: unknown) => ({
  ok: false as const,
  message: /pixel limit/i.test(error instanceof Error ? error.message : "") ? PHOTO_TOO_MANY_PIXELS : PHOTO_TYPE,
});

/**
 * Decodes one uploaded picture and encodes it once per size: `cover` crops to exactly that size
 * (cards, banners: the layout's slot), `inside` keeps the proportions within it (the detail).
 * Never throws on bad input.
 */
export async function encodePicture(
  file: File,
  sizes: { size: Size; fit: "cover" | "inside"; quality: number }[],
): Promise<{ ok: true; images: EncodedImage[] } | { ok: false; message: string }> {
  try {
    const opened = await openPicture(file);
    if (!opened.ok) return opened;
    const images: EncodedImage[] = [];
    for (const { size, fit, quality } of sizes) {
      const { data, info } = await opened
        .decoder()
        .rotate()
        .resize({ ...size, fit, withoutEnlargement: fit === "inside" })
        .flatten({ background: "#ffffff" })
        .webp({ quality })
        .toBuffer({ resolveWithObject: true });
      const hash = createHash("sha256").update(data).digest("base64url").slice(0, 32);
      images.push({ hash, url: imageUrl(hash), width: info.width, height: info.height, bytes: new Uint8Array(data) });
    }
    return { ok: true, images };
  } catch (error) {
    return decodeFailure(error);
  }
}

/**
 * Whether encodePicture would take this picture, without encoding it: the whole picture is decoded
 * (a truncated file fails here as it would there) but only to a thumbnail, which JPEG decodes at a
 * fraction of its size. A preview of 200 photos costs seconds, not the minute their encoding takes.
 * The thumbnail (at most 64 px, WebP, about a kilobyte) is what a preview shows of the picture.
 */
export async function checkPicture(file: File): Promise<{ ok: true; thumbnail: Uint8Array } | { ok: false; message: string }> {
  try {
    const opened = await openPicture(file);
    if (!opened.ok) return opened;
    const thumbnail = await opened.decoder().resize({ width: 64, height: 64, fit: "inside" }).webp({ quality: 50 }).toBuffer();
    return { ok: true, thumbnail: new Uint8Array(thumbnail) };
  } catch (error) {
    return decodeFailure(error);
  }
}

/** Stores encoded images (a picture already stored under its hash is kept as it is). */
export async function storeImages(tx: Executor, images: EncodedImage[]): Promise<void> {
  for (const image of images) {
    await tx
      .insert(catalogueImages)
      .values({
        hash: image.hash,
        contentType: "image/webp",
        width: image.width,
        height: image.height,
        size: image.bytes.byteLength,
        bytes: image.bytes,
      })
      .onConflictDoNothing();
  }
}

/** Forgets stored images no product photo and no banner names any more. */
export async function dropUnusedImages(tx: Executor, urls: string[]): Promise<void> {
  const hashes = urls.map(hashOfUrl).filter((h): h is string => !!h);
  if (!hashes.length) return;
  const stillUsed = await tx
    .select({ card: productImages.cardUrl, detail: productImages.detailUrl })
    .from(productImages)
    .where(or(inArray(productImages.cardUrl, urls), inArray(productImages.detailUrl, urls)));
  const bannerUse = await tx.select({ url: banners.imageUrl }).from(banners).where(inArray(banners.imageUrl, urls));
  const used = new Set([...stillUsed.flatMap((r) => [r.card, r.detail]), ...bannerUse.map((b) => b.url)]);
  const unused = hashes.filter((h) => !used.has(imageUrl(h)));
  if (unused.length) await tx.delete(catalogueImages).where(inArray(catalogueImages.hash, unused));
}

/** A stored picture by its hash (the route serves it); null when unknown. */
export async function getCatalogueImage(hash: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(hash)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ bytes: catalogueImages.bytes, contentType: catalogueImages.contentType })
    .from(catalogueImages)
    .where(eq(catalogueImages.hash, hash));
  return row ?? null;
}

/** Sizes (spec: images sized for 360-412 px phones; 2× for the detail slider and banners). */
export const CARD_SIZE = { width: 360, height: 360 } as const;
export const DETAIL_SIZE = { width: 780, height: 585 } as const;
// Banners are shown 150 px high on slides 300 px (phone) to 70% of 570 px wide (2:1 to 2.5:1) and
// cropped to fit (object-fit: cover): the artwork keeps its text inside a central safe area.
export const BANNER_SIZE = { width: 640, height: 300 } as const;

export const PHOTO_SIZES = [
  { size: CARD_SIZE, fit: "cover" as const, quality: 72 },
  { size: DETAIL_SIZE, fit: "inside" as const, quality: 78 },
];
export const BANNER_SIZES = [{ size: BANNER_SIZE, fit: "cover" as const, quality: 80 }];

export type PhotoResult = { ok: true; added: number } | { ok: false; message: string };

/** 'Foto Produk': several pictures at once; all of them or none (the first bad file is named). */
export async function addProductPhotos(operatorId: number, productId: number, files: File[]): Promise<PhotoResult> {
  const chosen = files.filter((f) => f.size > 0);
  if (!chosen.length) return { ok: false, message: PHOTO_REQUIRED };
  if (chosen.length > PHOTOS_PER_UPLOAD) return { ok: false, message: PHOTOS_TOO_MANY };
  const encoded: EncodedImage[][] = [];
  for (const file of chosen) {
    const result = await encodePicture(file, PHOTO_SIZES);
    if (!result.ok) return { ok: false, message: chosen.length > 1 ? `${file.name.slice(0, 80)}: ${result.message}` : result.message };
    encoded.push(result.images);
  }
  return catalogueWrite(async (tx) => {
    const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for("update");
    if (!product) return { ok: false as const, message: "Produk tidak ditemukan." };
    const [{ next }] = (await tx
      .select({ next: sql<number>`coalesce(max(${productImages.position}) + 1, 0)::int` })
      .from(productImages)
      .where(eq(productImages.productId, productId))) as [{ next: number }];
    for (const [i, [card, detail]] of encoded.entries()) {
      await storeImages(tx, [card!, detail!]);
      await tx.insert(productImages).values({
        productId,
        position: next + i,
        cardUrl: card!.url,
        cardWidth: card!.width,
        cardHeight: card!.height,
        detailUrl: detail!.url,
        detailWidth: detail!.width,
        detailHeight: detail!.height,
      });
    }
    await tx.insert(catalogueAudit).values({ productId, operatorId, action: "foto-ditambah", detail: `${encoded.length} foto` });
    return { ok: true as const, added: encoded.length };
  });
}

export type PhotoMove = "first" | "up" | "down" | "delete";

/** 'Jadikan Utama', 'Naik', 'Turun', 'Hapus' on one photo of a product; false when it is not that product's. */
export async function changeProductPhoto(operatorId: number, productId: number, photoId: number, move: PhotoMove): Promise<boolean> {
  return catalogueWrite(async (tx) => {
    const photos = await tx
      .select({ id: productImages.id, cardUrl: productImages.cardUrl, detailUrl: productImages.detailUrl })
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position), asc(productImages.id))
      .for("update");
    const index = photos.findIndex((p) => p.id === photoId);
    if (index < 0) return false;
    const [photo] = photos.splice(index, 1) as [(typeof photos)[number]];
    if (move === "delete") {
      await tx.delete(productImages).where(and(eq(productImages.id, photoId), eq(productImages.productId, productId)));
      await dropUnusedImages(tx, [photo.cardUrl, photo.detailUrl]);
    } else {
      const to = move === "first" ? 0 : move === "up" ? Math.max(0, index - 1) : Math.min(photos.length, index + 1);
      photos.splice(to, 0, photo);
    }
    for (const [position, p] of photos.entries()) await tx.update(productImages).set({ position }).where(eq(productImages.id, p.id));
    await tx
      .insert(catalogueAudit)
      .values({ productId, operatorId, action: move === "delete" ? "foto-dihapus" : "foto-diurutkan", detail: move });
    return true;
  });
}
