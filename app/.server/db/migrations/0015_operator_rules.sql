ALTER TABLE "orders" ADD COLUMN "reward_percent" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reward_cap" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_percent" double precision;--> statement-breakpoint
-- Orders and payments made before the rules became settings used the built-in ones (decision 0030: 1%, at most Rp500.000; the spec's 3%).
UPDATE "orders" SET "reward_percent" = 1, "reward_cap" = 500000;--> statement-breakpoint
UPDATE "payments" SET "discount_percent" = 3 WHERE "discount" > 0;--> statement-breakpoint
-- A new store starts with categories (issue 38), so 'Tambah Produk' can be saved before anyone visits
-- 'Kategori & Kota'; the admin renames, hides or deletes them there. The spec names no list: these are
-- the store's range (electric vehicles, home appliances), the same titles and order as the demo's
-- (demo/demo-catalogue.ts DEMO_CATEGORIES), so a demo store is unchanged. Only into a store without any.
INSERT INTO "categories" ("title", "position")
SELECT "title", "position" FROM (VALUES
  ('Kendaraan Listrik', 0),
  ('Motor Listrik', 1),
  ('Mobil Listrik', 2),
  ('Sepeda Listrik', 3),
  ('Peralatan Rumah', 4),
  ('Aksesori', 5)
) AS "starting" ("title", "position")
WHERE NOT EXISTS (SELECT 1 FROM "categories");
