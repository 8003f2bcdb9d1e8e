import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts";

export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  title: text("title").notNull().unique(),
  position: integer("position").notNull().default(0),
});

export const cities = pgTable("cities", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});

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
    discountType: text("discount_type", { enum: ["v", "%"] }).notNull().default("v"),
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("products_category_idx").on(t.categoryId), index("products_city_idx").on(t.cityId)],
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
  // 1 for the government electric-vehicle purchase incentive (the checkout asks for an identity card).
  // The employee promo ('pln', fixed 1,000,000) and 'icp' (fixed 250,000) are known by their amounts
  // (spec §9); together with this flag they choose the product's badge artwork (incentive-badges.tsx).
  incentive: integer("incentive").notNull().default(0),
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
});

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
