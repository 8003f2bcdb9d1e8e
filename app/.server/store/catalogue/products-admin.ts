import { randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import {
  catalogueAudit,
  categories,
  cities,
  productImages,
  productPromos,
  products,
  promos,
  users,
  type ProductStatus,
} from "../../db/schema";
import { readProductFields, PRODUCT_MESSAGES, type FieldErrors, type ProductFieldName, type ProductFields } from "./product-input";
import { catalogueWrite } from "./version";

// The back office's products (issue 26 items 1, 3 and 8): the list operators search and filter, the
// edit form's read and save, and the history of every change. A save names the version it was read
// at (two operators: the second is told, nothing is overwritten) and the stock it showed: the new
// stock is applied as a difference to the stock at save time, so units reserved by orders in the
// meantime stay reserved.

export const PRODUCT_CONFLICT = "Produk ini sudah diubah oleh operator lain. Muat ulang halaman.";
export const CATEGORY_REQUIRED = "Kategori wajib dipilih.";
export const CITY_UNKNOWN = "Kota tidak ditemukan.";
export const PROMO_UNKNOWN = "Promo tidak ditemukan.";
import { parseId } from "~/lib/ids";

export const OPS_PAGE_SIZE = 25;
const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
const idOf = parseId;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type OpsProductRow = {
  id: number;
  sku: string | null;
  title: string | null;
  price: number | null;
  stock: number;
  status: ProductStatus;
  categoryTitle: string | null;
  imageUrl: string | null;
};

/** The products list, newest first: 'Cari' (title or SKU), category and status filters, 25 a page. */
export async function listProductsForOps(query: { q?: string; categoryId?: number | null; status?: string | null; page?: number }) {
  const db = await getDb();
  const conditions: SQL[] = [];
  const q = query.q?.trim().slice(0, 100);
  if (q) conditions.push(or(ilike(products.title, `%${escapeLike(q)}%`), ilike(products.sku, `%${escapeLike(q)}%`))!);
  if (isId(query.categoryId)) conditions.push(eq(products.categoryId, query.categoryId));
  if (query.status === "draf" || query.status === "tayang" || query.status === "arsip") conditions.push(eq(products.status, query.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total }] = (await db.select({ total: count() }).from(products).where(where)) as [{ total: number }];
  const pageCount = Math.max(1, Math.ceil(total / OPS_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1) || 1), pageCount);
  const rows = await db
    .select({
      id: products.id,
      sku: products.sku,
      title: products.title,
      price: products.price,
      stock: products.stock,
      status: products.status,
      categoryTitle: categories.title,
    })
    .from(products)
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .where(where)
    .orderBy(desc(products.id))
    .limit(OPS_PAGE_SIZE)
    .offset((page - 1) * OPS_PAGE_SIZE);
  const images = rows.length
    ? await db
        .select({ productId: productImages.productId, url: productImages.cardUrl })
        .from(productImages)
        .where(
          inArray(
            productImages.productId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(productImages.position), asc(productImages.id))
    : [];
  const first = new Map<number, string>();
  for (const image of images) if (!first.has(image.productId)) first.set(image.productId, image.url);
  return { items: rows.map((r): OpsProductRow => ({ ...r, imageUrl: first.get(r.id) ?? null })), total, page, pageCount };
}

/** A product's own fields, as the form and the CSV import read them (plus its id, SKU and version). */
export const productFieldColumns = {
  id: products.id,
  version: products.version,
  sku: products.sku,
  title: products.title,
  categoryId: products.categoryId,
  cityId: products.cityId,
  price: products.price,
  discount: products.discount,
  discountType: products.discountType,
  stock: products.stock,
  condition: products.condition,
  weightGram: products.weightGram,
  minimumPurchase: products.minimumPurchase,
  description: products.description,
  status: products.status,
};

export type OpsProductPhoto = { id: number; url: string; width: number; height: number };

export type OpsProduct = {
  id: number;
  version: number;
  sku: string | null;
  title: string | null;
  categoryId: number | null;
  cityId: number | null;
  price: number | null;
  discount: number;
  discountType: "v" | "%";
  stock: number;
  condition: string;
  weightGram: number;
  minimumPurchase: number;
  description: string;
  status: ProductStatus;
  promoIds: number[];
  photos: OpsProductPhoto[];
};

/** A product as the edit form shows it (any status); null for an unknown id. */
export async function getProductForOps(id: number): Promise<OpsProduct | null> {
  if (!isId(id)) return null;
  const db = await getDb();
  const [row] = await db.select(productFieldColumns).from(products).where(eq(products.id, id));
  if (!row) return null;
  const [promoRows, photos] = await Promise.all([
    db.select({ id: productPromos.promoId }).from(productPromos).where(eq(productPromos.productId, id)),
    db
      .select({ id: productImages.id, url: productImages.cardUrl, width: productImages.cardWidth, height: productImages.cardHeight })
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(asc(productImages.position), asc(productImages.id)),
  ]);
  return { ...row, promoIds: promoRows.map((p) => p.id).sort((a, b) => a - b), photos };
}

/** What the form's selects offer: categories (hidden ones too: a product may sit in one), cities, promos. */
export async function productFormChoices() {
  const db = await getDb();
  const [categoryRows, cityRows, promoRows] = await Promise.all([
    db
      .select({ id: categories.id, title: categories.title, hidden: categories.hidden })
      .from(categories)
      .orderBy(asc(categories.position), asc(categories.id)),
    db.select({ id: cities.id, name: cities.name }).from(cities).orderBy(asc(cities.position), asc(cities.name)),
    db
      .select({
        id: promos.id,
        title: promos.title,
        discount: promos.discount,
        discountType: promos.discountType,
        incentive: promos.incentive,
      })
      .from(promos)
      .orderBy(asc(promos.id)),
  ]);
  return { categories: categoryRows, cities: cityRows, promos: promoRows };
}

export type ProductFormFields = Partial<Record<ProductFieldName | "categoryId" | "cityId", string>>;
export type ProductFormErrors = FieldErrors<ProductFieldName | "categoryId" | "cityId" | "promoIds">;

export type SaveProductInput = {
  /** Null: 'Tambah Produk'. */
  id: number | null;
  /** The version the form was read at (edits only). */
  version: number | null;
  /** The stock the form showed (edits only): the save moves the stock by the difference. */
  stockRead: number | null;
  fields: ProductFormFields;
  promoIds: string[];
};

export type SaveProductResult = { ok: true; id: number } | { ok: false; errors: ProductFormErrors; conflict?: string };

/** The fields an audit row records, before → after. */
const AUDITED = [
  "title",
  "sku",
  "price",
  "discount",
  "discountType",
  "stock",
  "status",
  "categoryId",
  "cityId",
  "condition",
  "weightGram",
  "minimumPurchase",
] as const;
type Audited = Pick<
  ProductFields,
  "title" | "price" | "discount" | "discountType" | "stock" | "status" | "condition" | "weightGram" | "minimumPurchase"
> & {
  sku: string | null;
  categoryId: number | null;
  cityId: number | null;
  description: string;
};

export function changesBetween(before: Partial<Audited> | null, after: Audited): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of AUDITED) {
    const was = before ? (before[key] ?? null) : null;
    if (was !== after[key]) changes[key] = { before: was, after: after[key] };
  }
  if (before && before.description !== after.description) changes.description = { before: "…", after: "…" };
  return changes;
}

/** 'P-7K2M9Q4X': for a product saved without a SKU. */
export const generatedSku = () => `P-${randomBytes(5).readUIntBE(0, 5).toString(36).toUpperCase().padStart(8, "0")}`;

export async function skuTaken(db: Executor, sku: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(exceptId ? and(eq(products.sku, sku), ne(products.id, exceptId)) : eq(products.sku, sku))
    .limit(1);
  return !!row;
}

/**
 * 'Simpan' on the product form: validates every field (Indonesian messages by field), then in one
 * transaction checks the version, writes the product, its promos and an audit row. A version other
 * than the stored one is PRODUCT_CONFLICT and writes nothing.
 */
export async function saveProduct(operatorId: number, input: SaveProductInput): Promise<SaveProductResult> {
  const read = readProductFields(input.fields);
  const errors: ProductFormErrors = read.ok ? {} : { ...read.errors };
  const categoryId = idOf(input.fields.categoryId);
  const cityId = idOf(input.fields.cityId);
  if (!categoryId) errors.categoryId = CATEGORY_REQUIRED;
  if (input.fields.cityId?.trim() && !cityId) errors.cityId = CITY_UNKNOWN;
  const promoIds = [...new Set(input.promoIds.map(idOf))];
  if (promoIds.some((id) => id === null)) errors.promoIds = PROMO_UNKNOWN;
  if (input.id !== null && (!isId(input.id) || input.version === null || input.stockRead === null))
    return { ok: false, errors, conflict: PRODUCT_CONFLICT };

  const db = await getDb();
  // The references exist (checked before the write, again by the foreign keys inside it).
  const [categoryRow] = categoryId ? await db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)) : [];
  if (categoryId && !categoryRow) errors.categoryId = CATEGORY_REQUIRED;
  const [cityRow] = cityId ? await db.select({ id: cities.id }).from(cities).where(eq(cities.id, cityId)) : [];
  if (cityId && !cityRow) errors.cityId = CITY_UNKNOWN;
  const validPromos = promoIds.length
    ? await db
        .select({ id: promos.id })
        .from(promos)
        .where(inArray(promos.id, promoIds as number[]))
    : [];
  if (validPromos.length !== promoIds.length) errors.promoIds = PROMO_UNKNOWN;
  if (!read.ok || Object.keys(errors).length) return { ok: false, errors };
  const fields = read.value;

  return catalogueWrite(async (tx): Promise<SaveProductResult> => {
    const values = { ...fields, sku: fields.sku ?? generatedSku(), categoryId: categoryId!, cityId: cityId ?? null };
    let id: number;
    let before: (Audited & { version: number }) | null = null;
    if (input.id === null) {
      if (await skuTaken(tx, values.sku, null)) return { ok: false, errors: { sku: PRODUCT_MESSAGES.skuTaken } };
      const [row] = (await tx
        .insert(products)
        .values({ ...values, orderable: 1 })
        .returning({ id: products.id })) as [{ id: number }];
      id = row.id;
    } else {
      const [current] = await tx.select(productFieldColumns).from(products).where(eq(products.id, input.id)).for("update");
      if (!current || current.version !== input.version) return { ok: false, errors: {}, conflict: PRODUCT_CONFLICT };
      before = current as Audited & { version: number };
      // An emptied SKU keeps the product's own.
      values.sku = fields.sku ?? current.sku ?? values.sku;
      if (await skuTaken(tx, values.sku, input.id)) return { ok: false, errors: { sku: PRODUCT_MESSAGES.skuTaken } };
      // Orders reserved units since the form was read: the operator's change applies on top of them.
      values.stock = Math.max(0, current.stock + (fields.stock - input.stockRead!));
      await tx
        .update(products)
        .set({ ...values, version: sql`${products.version} + 1`, updatedAt: new Date() })
        .where(and(eq(products.id, input.id), eq(products.version, input.version!)));
      id = input.id;
    }
    await tx.delete(productPromos).where(eq(productPromos.productId, id));
    if (promoIds.length) await tx.insert(productPromos).values(promoIds.map((promoId) => ({ productId: id, promoId: promoId! })));
    const changes = changesBetween(before, values as Audited);
    await tx.insert(catalogueAudit).values({ productId: id, operatorId, action: before ? "produk-diubah" : "produk-dibuat", changes });
    return { ok: true, id };
  });
}

export type HistoryEntry = {
  id: number;
  at: Date;
  operator: string | null;
  action: string;
  detail: string;
  changes: Record<string, { before: unknown; after: unknown }>;
};

/** 'Riwayat': the product's audit rows, newest first (at most 100). */
export async function listProductHistory(productId: number): Promise<HistoryEntry[]> {
  if (!isId(productId)) return [];
  const db = await getDb();
  return db
    .select({
      id: catalogueAudit.id,
      at: catalogueAudit.createdAt,
      operator: users.email,
      action: catalogueAudit.action,
      detail: catalogueAudit.detail,
      changes: catalogueAudit.changes,
    })
    .from(catalogueAudit)
    .leftJoin(users, eq(users.id, catalogueAudit.operatorId))
    .where(eq(catalogueAudit.productId, productId))
    .orderBy(desc(catalogueAudit.id))
    .limit(100);
}
