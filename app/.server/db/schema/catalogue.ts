import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { bytea } from "./columns";
// A relative path: drizzle-kit reads the schema without the app's "~" alias.
import { PRODUCT_STATUSES } from "../../../lib/product-status";

export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  title: text("title").notNull().unique(),
  position: integer("position").notNull().default(0),
  // A hidden category leaves the buyers' filters and lists (a category in use cannot be deleted).
  hidden: boolean("hidden").notNull().default(false),
});

export const cities = pgTable("cities", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  position: integer("position").notNull().default(0),
});

export { PRODUCT_STATUSES, type ProductStatus } from "../../../lib/product-status";

/** The words a buyer's search matches (PostgreSQL full-text, 'simple': no stemming, any language). */
export const productSearchVector = sql`to_tsvector('simple', coalesce("title", ''))`;

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    // A stable external key (demo seed, imports): lets seeding run at every start without duplicates.
    sku: text("sku").unique(),
    title: text("title"),
    description: text("description").notNull().default(""),
    price: integer("price"),
    discount: integer("discount").notNull().default(0),
    discountType: text("discount_type", { enum: ["v", "%"] })
      .notNull()
      .default("v"),
    ratingPercentage: integer("rating_percentage"),
    sellCount: integer("sell_count").notNull().default(0),
    viewCount: integer("view_count").notNull().default(0),
    cityId: integer("city_id").references(() => cities.id),
    categoryId: integer("category_id").references(() => categories.id),
    condition: text("condition").notNull().default("Baru"),
    weightGram: integer("weight_gram").notNull().default(0),
    minimumPurchase: integer("minimum_purchase").notNull().default(1),
    orderable: integer("orderable").notNull().default(1),
    // Units that can still be ordered; an order reserves one with a conditional update (never < 0).
    stock: integer("stock").notNull().default(0),
    status: text("status", { enum: PRODUCT_STATUSES }).notNull().default("draf"),
    // Optimistic locking of the back office's edit form: a save names the version it was read at.
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("products_category_idx").on(t.categoryId),
    index("products_city_idx").on(t.cityId),
    index("products_status_idx").on(t.status, t.id),
    index("products_search_idx").using("gin", productSearchVector),
  ],
);

/** Images come in two sizes: a card thumbnail and a detail image, both with their dimensions. */
export const productImages = pgTable(
  "product_images",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    cardUrl: text("card_url").notNull(),
    cardWidth: integer("card_width").notNull(),
    cardHeight: integer("card_height").notNull(),
    detailUrl: text("detail_url").notNull(),
    detailWidth: integer("detail_width").notNull(),
    detailHeight: integer("detail_height").notNull(),
  },
  (t) => [index("product_images_product_idx").on(t.productId, t.position)],
);

export const promos = pgTable("promos", {
  id: serial("id").primaryKey(),
  code: text("code").unique(),
  title: text("title").notNull(),
  discountType: text("discount_type", { enum: ["v", "%"] }).notNull(),
  discount: integer("discount").notNull(),
  description: text("description").notNull().default(""),
  // 1 for the government electric-vehicle purchase incentive ('Insentif Pemerintah': the checkout asks
  // for an identity card). The employee promo ('pln', fixed 1,000,000) and 'icp' (fixed 250,000) are
  // known by their amounts (spec §6, §9); together with this flag they choose the product's badge
  // artwork (incentive-badges.tsx). All of it is data an operator edits in /ops/catalogue/promos.
  incentive: integer("incentive").notNull().default(0),
  // Optional validity window; outside it the promo is neither shown nor applied.
  validFrom: timestamp("valid_from", { withTimezone: true }),
  validUntil: timestamp("valid_until", { withTimezone: true }),
});

export const productPromos = pgTable(
  "product_promos",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    promoId: integer("promo_id")
      .notNull()
      .references(() => promos.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.productId, t.promoId] }), index("product_promos_promo_idx").on(t.promoId)],
);

/** What a banner advertises: a search (optionally within one category, by title) or one product (by SKU). */
export type BannerTarget = { keyword: string; category?: string } | { sku: string };

export const banners = pgTable("banners", {
  id: serial("id").primaryKey(),
  code: text("code").unique(),
  // Where the banner leads (store/catalogue/catalogue.ts turns it into an address); null: a plain picture.
  target: jsonb("target").$type<BannerTarget>(),
  title: text("title").notNull().default(""),
  imageUrl: text("image_url").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  position: integer("position").notNull().default(0),
  // Optional active window; the home carousel shows a banner only inside it.
  activeFrom: timestamp("active_from", { withTimezone: true }),
  activeUntil: timestamp("active_until", { withTimezone: true }),
});

/**
 * The pictures operators upload (product photos, banners), in the sizes the storefront shows,
 * re-encoded as WebP: stored in the database like uploads (every instance serves them, backups hold
 * them), addressed by a hash of their bytes, so their URL never changes meaning (cached a year).
 */
export const catalogueImages = pgTable("catalogue_images", {
  hash: text("hash").primaryKey(),
  contentType: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  size: integer("size").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row: bumped in the transaction of every catalogue write. Each instance compares it with the
 * version its in-process cache was filled at (store/catalogue/version.ts).
 */
export const catalogueVersion = pgTable("catalogue_version", {
  id: integer("id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/** Who changed what in the catalogue ('Riwayat'): before → after of the fields that matter. */
export const catalogueAudit = pgTable(
  "catalogue_audit",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    operatorId: integer("operator_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    changes: jsonb("changes").$type<Record<string, { before: unknown; after: unknown }>>().notNull().default({}),
    detail: text("detail").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("catalogue_audit_product_idx").on(t.productId, t.id)],
);

/** Search history of signed-in users (guests keep theirs in a cookie). */
export const searchHistory = pgTable(
  "search_history",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    keyword: text("keyword").notNull(),
    searchedAt: timestamp("searched_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("search_history_user_keyword_key").on(t.userId, sql`lower(${t.keyword})`)],
);
