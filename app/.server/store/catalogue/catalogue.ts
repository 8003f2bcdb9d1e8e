import { and, asc, eq, gte, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { cachedRead as cached } from "./version";
import { categories, cities, productImages, productPromos, products, promos } from "../../db/schema";

// The catalogue backend (spec §7 "Product and banner"): product pages with filters and sort, the
// product detail, categories, cities and banners. Plain functions over the database; the routes
// render what they return. The categories' and cities' lists are in taxonomy.ts, the banners' in
// banners.ts, each beside its back office's side.

// The read cache lives in cache.ts (the demo seeding invalidates it too); version.ts checks it
// against the database's catalogue version on a shared PostgreSQL.
export { invalidateCatalogueCache } from "./cache";

/** Buyers see published products only ('Tayang'); drafts and archived ones are absent and answer 404. */
export const isPublished = eq(products.status, "tayang");

/** A promo inside its validity window (open ends are unbounded). */
export const promoIsValid = () =>
  and(or(isNull(promos.validFrom), lte(promos.validFrom, sql`now()`)), or(isNull(promos.validUntil), sql`${promos.validUntil} > now()`));

export type PromoSummary = { id: number; title: string; discount: number; discountType: "v" | "%" };

export type ProductListItem = {
  id: number;
  title: string | null;
  imageUrl: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  /** The original price; the card shows it after `discount` (app/lib/pricing.ts). */
  price: number | null;
  discount: number;
  discountType: "v" | "%";
  promo: PromoSummary[];
  ratingPercentage: number | null;
  sellCount: number;
  cityName: string | null;
};

export type ProductQuery = {
  page: number;
  /** Default 10 (spec §9). */
  size?: number;
  keyword?: string;
  categories?: number[];
  /** Bounds on the price after the product's own discount, as the user sees it. */
  pmin?: number;
  pmax?: number;
  /** 0 highest price first, 1 lowest first; absent: catalogue order. */
  sort?: 0 | 1;
  /** City id. */
  location?: number;
};

export type ProductPage = { content: ProductListItem[]; total: number; page: number; isLastPage: boolean };

export const PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 50;
const MAX_KEYWORD_LENGTH = 100;
/**
 * A no-JS reader who keeps following 'Muat lebih banyak' gets at most this many pages per document
 * (the latest; the grid links back to the ones before): /home?page=1000 renders 50 cards, not 10,010.
 */
export const MAX_RENDERED_PAGES = 5;

/** The price after the product's own discount, in SQL: the same rounding as `applyDiscount`. */
const discountedPriceSql = sql`(case
  when ${products.price} is null then null
  when ${products.discountType} = '%' then ${products.price} - round(${products.price}::numeric * least(greatest(${products.discount}, 0), 100) / 100)
  else greatest(${products.price} - greatest(${products.discount}, 0), 0)
end)`;

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
const isAmount = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;

/**
 * The keyword as a full-text query: every word, as the start of a word of the title ('motor'
 * finds 'Motor' and 'Motorku'), all of them. Only letters and digits reach to_tsquery, so
 * nothing a buyer types is query syntax. Null when no word is left.
 */
export function keywordQuery(keyword: string): string | null {
  const words =
    keyword
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 10) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : null;
}

/** Matches the expression of the index products_search_idx, so the search reads the index. */
const titleMatches = (query: string) => sql`to_tsvector('simple', coalesce(${products.title}, '')) @@ to_tsquery('simple', ${query})`;

function filtersOf(query: Omit<ProductQuery, "page">): SQL | undefined {
  const conditions: SQL[] = [isPublished];
  const keyword = query.keyword?.trim().slice(0, MAX_KEYWORD_LENGTH);
  if (keyword) {
    const words = keywordQuery(keyword);
    // A keyword of punctuation only matches nothing (as a title never holds it alone).
    conditions.push(words ? titleMatches(words) : sql`false`);
  }
  const categoryIds = (query.categories ?? []).filter(isId).slice(0, 50);
  if (categoryIds.length) conditions.push(inArray(products.categoryId, categoryIds));
  if (isAmount(query.pmin)) conditions.push(gte(discountedPriceSql, Math.floor(query.pmin)));
  if (isAmount(query.pmax)) conditions.push(lte(discountedPriceSql, Math.ceil(query.pmax)));
  if (isId(query.location)) conditions.push(eq(products.cityId, query.location));
  return and(...conditions);
}

function orderOf(sort: ProductQuery["sort"]): SQL[] {
  // The id breaks ties, so the order is total and pages never repeat or skip a product.
  if (sort === 0) return [sql`${discountedPriceSql} desc nulls last`, asc(products.id)];
  if (sort === 1) return [sql`${discountedPriceSql} asc nulls last`, asc(products.id)];
  return [asc(products.id)];
}

const pageSizeOf = (size: number | undefined) =>
  size && Number.isSafeInteger(size) ? Math.min(MAX_PAGE_SIZE, Math.max(1, size)) : PAGE_SIZE;
const pageNumberOf = (page: number) => (Number.isSafeInteger(page) && page > 0 ? page : 0);

async function countProducts(where: SQL | undefined) {
  const db = await getDb();
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(products)
    .where(where);
  return row?.total ?? 0;
}

/** The product columns of a list item (spec §3), also the start of the detail. */
const listItemColumns = {
  id: products.id,
  title: products.title,
  price: products.price,
  discount: products.discount,
  discountType: products.discountType,
  ratingPercentage: products.ratingPercentage,
  sellCount: products.sellCount,
};

/** The list items of `limit` products from `offset`, with their first image, city and promos. */
async function selectListItems(
  where: SQL | undefined,
  sort: ProductQuery["sort"],
  offset: number,
  limit: number,
): Promise<ProductListItem[]> {
  const db = await getDb();
  const rows = await db
    .select({ ...listItemColumns, cityName: cities.name })
    .from(products)
    .leftJoin(cities, eq(cities.id, products.cityId))
    .where(where)
    .orderBy(...orderOf(sort))
    .offset(offset)
    .limit(limit);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [images, promoRows] = await Promise.all([
    db
      .select({
        productId: productImages.productId,
        url: productImages.cardUrl,
        width: productImages.cardWidth,
        height: productImages.cardHeight,
      })
      .from(productImages)
      .where(inArray(productImages.productId, ids))
      .orderBy(asc(productImages.productId), asc(productImages.position), asc(productImages.id)),
    selectPromos(ids),
  ]);
  const firstImage = new Map<number, (typeof images)[number]>();
  for (const image of images) if (!firstImage.has(image.productId)) firstImage.set(image.productId, image);
  return rows.map((row) => {
    const image = firstImage.get(row.id);
    return {
      ...row,
      imageUrl: image?.url ?? null,
      imageWidth: image?.width ?? null,
      imageHeight: image?.height ?? null,
      promo: (promoRows.get(row.id) ?? []).map(({ id, title, discount, discountType }) => ({ id, title, discount, discountType })),
    };
  });
}

type PromoRow = PromoSummary & { description: string; incentive: boolean };

async function selectPromos(productIds: number[]): Promise<Map<number, PromoRow[]>> {
  const db = await getDb();
  const rows = await db
    .select({
      productId: productPromos.productId,
      id: promos.id,
      title: promos.title,
      discount: promos.discount,
      discountType: promos.discountType,
      description: promos.description,
      incentive: promos.incentive,
    })
    .from(productPromos)
    .innerJoin(promos, eq(promos.id, productPromos.promoId))
    .where(and(inArray(productPromos.productId, productIds), promoIsValid()))
    .orderBy(asc(productPromos.productId), asc(promos.id));
  const byProduct = new Map<number, PromoRow[]>();
  for (const { productId, ...promo } of rows) {
    const list = byProduct.get(productId) ?? [];
    list.push({ ...promo, incentive: promo.incentive === 1 });
    byProduct.set(productId, list);
  }
  return byProduct;
}

/** Spec §7 GET /api/v1/product/page: one page (from 0) of products matching the filters. */
export function listProducts(query: ProductQuery): Promise<ProductPage> {
  return cached(`products:${JSON.stringify(normalisedQuery(query))}:${query.page}`, () => readProducts(query));
}

/** The cache key's view of a query: only what filtersOf, orderOf and the page size read. */
function normalisedQuery(query: Omit<ProductQuery, "page">) {
  const { size, keyword, categories, pmin, pmax, sort, location } = query;
  return [size, keyword?.trim().slice(0, MAX_KEYWORD_LENGTH), categories, pmin, pmax, sort, location];
}

async function readProducts(query: ProductQuery): Promise<ProductPage> {
  const size = pageSizeOf(query.size);
  const page = pageNumberOf(query.page);
  const where = filtersOf(query);
  const total = await countProducts(where);
  const content = page * size < total ? await selectListItems(where, query.sort, page * size, size) : [];
  return { content, total, page, isLastPage: (page + 1) * size >= total };
}

/**
 * Pages 0..`through` as a no-JS document shows them (the reader followed 'Muat lebih banyak'), at
 * most MAX_RENDERED_PAGES of them (the latest). `only` returns just page `through` (the page a
 * script appends). A page past the end is clamped to the last page.
 */
export function listProductPages(
  query: Omit<ProductQuery, "page">,
  through: number,
  options: { only?: boolean } = {},
): Promise<ProductPage[]> {
  return cached(`pages:${JSON.stringify(normalisedQuery(query))}:${through}:${options.only === true}`, () =>
    readProductPages(query, through, options),
  );
}

async function readProductPages(query: Omit<ProductQuery, "page">, through: number, options: { only?: boolean }): Promise<ProductPage[]> {
  const size = pageSizeOf(query.size);
  const where = filtersOf(query);
  const total = await countProducts(where);
  const lastPage = Math.max(0, Math.ceil(total / size) - 1);
  const last = Math.min(pageNumberOf(through), lastPage);
  const first = options.only ? last : Math.max(0, last - MAX_RENDERED_PAGES + 1);
  const items = total ? await selectListItems(where, query.sort, first * size, (last - first + 1) * size) : [];
  const pages: ProductPage[] = [];
  for (let page = first; page <= last; page++) {
    const content = items.slice((page - first) * size, (page - first + 1) * size);
    pages.push({ content, total, page, isLastPage: page >= lastPage });
  }
  return pages;
}

export type ProductImage = { url: string; width: number; height: number };
export type PromoDetail = PromoRow;

export type ProductDetail = Omit<ProductListItem, "promo"> & {
  promo: PromoDetail[];
  images: ProductImage[];
  viewCount: number;
  categoryId: number | null;
  categoryTitle: string | null;
  condition: string;
  weightGram: number;
  /** Spec §3 addInfo.minimum_purchase. */
  addInfo: { minimum_purchase: number };
  description: string;
  /** False when the product cannot be ordered now (withdrawn, out of stock). */
  orderable: boolean;
  /** Units that can still be ordered (0: 'Stok produk habis.'). */
  stock: number;
};

/**
 * Spec §7 GET /api/v1/product/detail; null for an unknown id. `countView` counts this read as a
 * view of the product page (one statement that also returns the count shown).
 */
export async function getProductDetail(id: number, options: { countView?: boolean } = {}): Promise<ProductDetail | null> {
  if (!isId(id)) return null;
  // The view count and the stock change with every view and order: read fresh, in one statement,
  // beside the cached rest of the detail.
  const live = options.countView ? await countProductView(id) : await readLiveCounts(id);
  if (!live) return null;
  const detail = await cached(`detail:${id}`, () => readProductDetail(id));
  return detail && { ...detail, ...live };
}

type LiveCounts = { viewCount: number; stock: number };

async function readLiveCounts(id: number): Promise<LiveCounts | null> {
  const db = await getDb();
  const [row] = await db
    .select({ viewCount: products.viewCount, stock: products.stock })
    .from(products)
    .where(and(eq(products.id, id), isPublished));
  return row ?? null;
}

/** Adds one view and returns the new count (and the stock); null for an unknown product. */
async function countProductView(id: number): Promise<LiveCounts | null> {
  const db = await getDb();
  const [row] = await db
    .update(products)
    .set({ viewCount: sql`${products.viewCount} + 1` })
    .where(and(eq(products.id, id), isPublished))
    .returning({ viewCount: products.viewCount, stock: products.stock });
  return row ?? null;
}

async function readProductDetail(id: number): Promise<Omit<ProductDetail, "viewCount"> | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      ...listItemColumns,
      cityName: cities.name,
      categoryId: products.categoryId,
      categoryTitle: categories.title,
      condition: products.condition,
      weightGram: products.weightGram,
      minimumPurchase: products.minimumPurchase,
      description: products.description,
      orderable: products.orderable,
      stock: products.stock,
    })
    .from(products)
    .leftJoin(cities, eq(cities.id, products.cityId))
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .where(and(eq(products.id, id), isPublished));
  if (!row) return null;
  const [images, promoRows] = await Promise.all([
    db
      .select({
        url: productImages.detailUrl,
        width: productImages.detailWidth,
        height: productImages.detailHeight,
        cardUrl: productImages.cardUrl,
        cardWidth: productImages.cardWidth,
        cardHeight: productImages.cardHeight,
      })
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(asc(productImages.position), asc(productImages.id)),
    selectPromos([id]),
  ]);
  const { minimumPurchase, orderable, ...fields } = row;
  return {
    ...fields,
    imageUrl: images[0]?.cardUrl ?? null,
    imageWidth: images[0]?.cardWidth ?? null,
    imageHeight: images[0]?.cardHeight ?? null,
    images: images.map(({ url, width, height }) => ({ url, width, height })),
    promo: promoRows.get(id) ?? [],
    addInfo: { minimum_purchase: minimumPurchase },
    orderable: orderable === 1,
  };
}

/** Counts one view of the product page (spec: the detail shows a view count). */
export async function recordProductView(id: number): Promise<void> {
  if (!isId(id)) return;
  await countProductView(id);
}
