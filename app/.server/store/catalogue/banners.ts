import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { banners, catalogueAudit, categories, products, type BannerTarget } from "../../db/schema";
import { CSV_FORMULA, looksLikeFormula } from "../../csv";
import { BANNER_SIZES, dropUnusedImages, encodePicture, PHOTO_REQUIRED, storeImages } from "./photos";
import { wibDateTime } from "./promos";
import { type FieldErrors } from "./product-input";
import { isPublished } from "./catalogue";
import { cachedRead as cached, catalogueWrite } from "./version";
import { resultsHref } from "~/lib/search-params";

// The home carousel's banners (issue 26 item 5): a picture in the slot's size (70 % × 150 px, spec
// §9; stored as 640 × 300), where it leads (a product by SKU, or a search keyword with an optional
// category), its place in the order and an optional active window (WIB).

export type BannerField = "title" | "image" | "sku" | "keyword" | "category" | "activeFrom" | "activeUntil";

export type OpsBanner = {
  id: number;
  title: string;
  imageUrl: string;
  target: BannerTarget | null;
  position: number;
  activeFrom: Date | null;
  activeUntil: Date | null;
};

export async function listBannersForOps(): Promise<OpsBanner[]> {
  const db = await getDb();
  return db
    .select({
      id: banners.id,
      title: banners.title,
      imageUrl: banners.imageUrl,
      target: banners.target,
      position: banners.position,
      activeFrom: banners.activeFrom,
      activeUntil: banners.activeUntil,
    })
    .from(banners)
    .orderBy(asc(banners.position), asc(banners.id));
}

/** A new banner, last in the order. */
export async function addBanner(
  operatorId: number,
  fields: Partial<Record<Exclude<BannerField, "image">, string>>,
  image: File | null,
): Promise<{ ok: true; id: number } | { ok: false; errors: FieldErrors<BannerField> }> {
  const errors: FieldErrors<BannerField> = {};
  const title = (fields.title ?? "").trim();
  if (!title) errors.title = "Judul Banner tidak boleh kosong.";
  else if (title.length > 120) errors.title = "Judul Banner maksimal 120 karakter.";
  else if (looksLikeFormula(title)) errors.title = CSV_FORMULA;
  const sku = (fields.sku ?? "").trim();
  const keyword = (fields.keyword ?? "").trim().slice(0, 100);
  const category = (fields.category ?? "").trim();
  if (sku && keyword) errors.sku = "Pilih salah satu tujuan: Produk (SKU) atau Kata Kunci.";
  const db = await getDb();
  if (sku && !errors.sku) {
    const [product] = await db.select({ id: products.id }).from(products).where(eq(products.sku, sku));
    if (!product) errors.sku = "SKU tidak ditemukan.";
  }
  if (category) {
    const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.title, category));
    if (!row) errors.category = "Kategori tidak ditemukan.";
    if (!keyword) errors.keyword = "Kata Kunci wajib diisi bila memilih Kategori.";
  }
  const activeFrom = wibDateTime(fields.activeFrom ?? "");
  const activeUntil = wibDateTime(fields.activeUntil ?? "");
  if (activeFrom === undefined) errors.activeFrom = "Tanggal dan jam tidak valid.";
  if (activeUntil === undefined) errors.activeUntil = "Tanggal dan jam tidak valid.";
  if (activeFrom && activeUntil && activeUntil <= activeFrom) errors.activeUntil = "Aktif Sampai harus setelah Aktif Dari.";
  if (!image || image.size === 0) errors.image = PHOTO_REQUIRED;
  if (Object.keys(errors).length) return { ok: false, errors };
  const encoded = await encodePicture(image!, BANNER_SIZES);
  if (!encoded.ok) return { ok: false, errors: { image: encoded.message } };
  const [picture] = encoded.images as [(typeof encoded.images)[number]];
  const target: BannerTarget | null = sku ? { sku } : keyword ? (category ? { keyword, category } : { keyword }) : null;
  return catalogueWrite(async (tx) => {
    await storeImages(tx, [picture]);
    const [{ next }] = (await tx.select({ next: sql<number>`coalesce(max(${banners.position}) + 1, 0)::int` }).from(banners)) as [
      { next: number },
    ];
    const [row] = (await tx
      .insert(banners)
      .values({
        title,
        imageUrl: picture.url,
        width: picture.width,
        height: picture.height,
        target,
        position: next,
        activeFrom: activeFrom ?? null,
        activeUntil: activeUntil ?? null,
      })
      .returning({ id: banners.id })) as [{ id: number }];
    await tx.insert(catalogueAudit).values({ operatorId, action: "banner-dibuat", detail: title });
    return { ok: true as const, id: row.id };
  });
}

/** 'Naik', 'Turun' or 'Hapus' on a banner; false for an unknown one. */
export async function changeBanner(operatorId: number, id: number, move: "up" | "down" | "delete"): Promise<boolean> {
  return catalogueWrite(async (tx) => {
    const rows = await tx
      .select({ id: banners.id, imageUrl: banners.imageUrl, title: banners.title })
      .from(banners)
      .orderBy(asc(banners.position), asc(banners.id))
      .for("update");
    const index = rows.findIndex((b) => b.id === id);
    if (index < 0) return false;
    const [banner] = rows.splice(index, 1) as [(typeof rows)[number]];
    if (move === "delete") {
      await tx.delete(banners).where(eq(banners.id, id));
      await dropUnusedImages(tx, [banner.imageUrl]);
    } else rows.splice(move === "up" ? Math.max(0, index - 1) : Math.min(rows.length, index + 1), 0, banner);
    for (const [position, b] of rows.entries()) await tx.update(banners).set({ position }).where(eq(banners.id, b.id));
    await tx
      .insert(catalogueAudit)
      .values({ operatorId, action: move === "delete" ? "banner-dihapus" : "banner-diurutkan", detail: banner.title });
    return true;
  });
}

// ————————————————————————————————————————————— the buyers' carousel (read through the cache)

/** `href`: what the banner advertises (a search, a category or a product); null: a plain picture. */
export type Banner = { id: number; title: string; imageUrl: string; width: number; height: number; href: string | null };

/** Spec §7 GET /api/v1/banner/list. */
export function listBanners(): Promise<Banner[]> {
  return cached("banners", async () => {
    const db = await getDb();
    const rows = await db
      .select({
        id: banners.id,
        title: banners.title,
        imageUrl: banners.imageUrl,
        width: banners.width,
        height: banners.height,
        target: banners.target,
      })
      .from(banners)
      .where(
        and(
          or(isNull(banners.activeFrom), lte(banners.activeFrom, sql`now()`)),
          or(isNull(banners.activeUntil), sql`${banners.activeUntil} > now()`),
        ),
      )
      .orderBy(asc(banners.position), asc(banners.id));
    const hrefs = await bannerHrefs(rows);
    return rows.map(({ target: _target, ...banner }) => ({ ...banner, href: hrefs.get(banner.id) ?? null }));
  });
}

/** The address each banner (by id) leads to; a target whose category or product is gone has none. */
async function bannerHrefs(rows: { id: number; target: BannerTarget | null }[]): Promise<Map<number, string>> {
  const targets = rows.flatMap((row) => (row.target ? [[row.id, row.target] as const] : []));
  const skus = targets.flatMap(([, t]) => ("sku" in t ? [t.sku] : []));
  const categoryTitles = targets.flatMap(([, t]) => ("category" in t && t.category ? [t.category] : []));
  const db = await getDb();
  const [productRows, categoryRows] = await Promise.all([
    skus.length
      ? db
          .select({ id: products.id, sku: products.sku })
          .from(products)
          .where(and(inArray(products.sku, skus), isPublished))
      : [],
    categoryTitles.length
      ? db.select({ id: categories.id, title: categories.title }).from(categories).where(inArray(categories.title, categoryTitles))
      : [],
  ]);
  const productIds = new Map(productRows.map((p) => [p.sku, p.id]));
  const categoryIds = new Map(categoryRows.map((c) => [c.title, c.id]));
  const hrefs = new Map<number, string>();
  for (const [bannerId, target] of targets) {
    if ("sku" in target) {
      const productId = productIds.get(target.sku);
      if (productId) hrefs.set(bannerId, `/detail/${productId}`);
      continue;
    }
    const categoryId = target.category ? categoryIds.get(target.category) : undefined;
    if (target.category && !categoryId) continue;
    hrefs.set(bannerId, resultsHref({ keyword: target.keyword, categories: categoryId ? [categoryId] : [] }));
  }
  return hrefs;
}
