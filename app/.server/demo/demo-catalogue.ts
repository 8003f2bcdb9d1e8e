import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, inArray, isNull, like, not, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/types";
import { env } from "../env";
import { BANNER_SIZE, CARD_SIZE, DETAIL_SIZE, bannerSvg, productSvg, webpOf } from "./demo-artwork";
import {
  COLOURS,
  DEMO_BANNERS,
  DEMO_CATEGORIES,
  DEMO_CITIES,
  DEMO_PROMOS,
  DEMO_BANNER_LINKS,
  type DemoProduct,
  demoStockOf,
} from "./demo-catalogue-data";
import { DEMO_HOME_AND_ACCESSORIES } from "./demo-products-home";
import { DEMO_MOTORCYCLES } from "./demo-products-motor";
import { DEMO_CARS_AND_BIKES } from "./demo-products-vehicles";
import { banners, categories, cities, orders, productImages, productPromos, products, promos } from "../db/schema";
// Demo data lies above the store (db/client.ts runs it through registerDemoSeeder): the catalogue's index.
import { invalidateCatalogueCache } from "../store/catalogue";

// The demo catalogue (DEMO_DATA=1, DESIGN §6): categories, cities, promos, ~45 products and 5
// banners, with images in DATA_DIR/media served by /media/:file: copied from the ones the build
// drew (preparedMediaFolder), or drawn at seed time where there are none (dev server, tests).
// Idempotent: every row has a stable key (title, name, code or sku) and is inserted only when
// absent, so seeding runs at every start and against a shared database that already has rows.
// The data is in demo-catalogue-data.ts and demo-products-*.ts.

/** Bump when the artwork changes: the file names change with it (they are cached for a year). */
const ARTWORK_VERSION = 2;

/** Every demo product, in the catalogue's order (their ids follow it on a new store). */
export const DEMO_PRODUCTS: DemoProduct[] = [...DEMO_MOTORCYCLES, ...DEMO_CARS_AND_BIKES, ...DEMO_HOME_AND_ACCESSORIES];

const cardFile = (sku: string, i: number) => `p-${sku}-${i + 1}-card-v${ARTWORK_VERSION}.webp`;
const detailFile = (sku: string, i: number) => `p-${sku}-${i + 1}-detail-v${ARTWORK_VERSION}.webp`;
const bannerFile = (code: string) => `b-${code}-v${ARTWORK_VERSION}.webp`;

/** Where media files live: DATA_DIR/media (served by routes/media.ts). */
export function mediaDir(): string {
  return path.join(env().dataDir, "media");
}

/**
 * Seeds the demo catalogue. `media: false` skips drawing the image files (unit tests need only the
 * rows); the rows always name the files.
 */
export async function seedDemoCatalogue(db: Db, options: { media?: boolean } = {}) {
  if (options.media !== false) await drawDemoMedia(mediaDir());
  await db.transaction(async (tx) => {
    await tx
      .insert(categories)
      .values(DEMO_CATEGORIES.map((title, position) => ({ title, position })))
      .onConflictDoNothing();
    await tx
      .insert(cities)
      .values(DEMO_CITIES.map((name) => ({ name })))
      .onConflictDoNothing();
    await tx
      .insert(promos)
      .values(Object.entries(DEMO_PROMOS).map(([code, promo]) => ({ code, ...promo })))
      .onConflictDoNothing();
    await tx
      .insert(banners)
      .values(
        DEMO_BANNERS.map((b, position) => ({
          code: b.code,
          title: b.title,
          imageUrl: `/media/${bannerFile(b.code)}`,
          ...BANNER_SIZE,
          position,
          target: DEMO_BANNER_LINKS[b.code] ?? null,
        })),
      )
      .onConflictDoNothing();
    // Banners seeded before they carried their target get it once (an operator's later change stays).
    for (const [code, target] of Object.entries(DEMO_BANNER_LINKS)) {
      await tx
        .update(banners)
        .set({ target })
        .where(and(eq(banners.code, code), isNull(banners.target)));
    }

    // Rows seeded by an earlier artwork version point at its files: move them to this version's.
    const versioned = (column: AnyPgColumn) => sql`regexp_replace(${column}, '-v[0-9]+\.webp$', ${`-v${ARTWORK_VERSION}.webp`})`;
    await tx
      .update(productImages)
      .set({ cardUrl: versioned(productImages.cardUrl), detailUrl: versioned(productImages.detailUrl) })
      .where(and(like(productImages.cardUrl, "/media/p-%"), not(like(productImages.cardUrl, `%-v${ARTWORK_VERSION}.webp`))));
    await tx
      .update(banners)
      .set({ imageUrl: versioned(banners.imageUrl) })
      .where(and(like(banners.imageUrl, "/media/b-%"), not(like(banners.imageUrl, `%-v${ARTWORK_VERSION}.webp`))));

    const categoryIds = new Map(
      (
        await tx
          .select()
          .from(categories)
          .where(inArray(categories.title, [...DEMO_CATEGORIES]))
      ).map((c) => [c.title, c.id]),
    );
    const cityIds = new Map(
      (
        await tx
          .select()
          .from(cities)
          .where(inArray(cities.name, [...DEMO_CITIES]))
      ).map((c) => [c.name, c.id]),
    );
    const promoIds = new Map(
      (
        await tx
          .select({ id: promos.id, code: promos.code })
          .from(promos)
          .where(inArray(promos.code, Object.keys(DEMO_PROMOS)))
      ).map((p) => [p.code, p.id]),
    );

    for (const product of DEMO_PRODUCTS) {
      const [inserted] = await tx
        .insert(products)
        .values({
          sku: product.sku,
          title: product.title,
          description: product.description,
          price: product.price,
          discount: product.discount ?? 0,
          discountType: product.discountType ?? "v",
          ratingPercentage: product.rating ?? null,
          sellCount: product.sold ?? 0,
          viewCount: product.views ?? 0,
          cityId: cityIds.get(product.city)!,
          categoryId: categoryIds.get(product.category)!,
          condition: "Baru",
          weightGram: product.weightGram,
          minimumPurchase: product.minimumPurchase ?? 1,
          orderable: product.orderable === false ? 0 : 1,
          stock: demoStockOf(product),
          status: "tayang",
        })
        .onConflictDoNothing()
        .returning({ id: products.id });
      if (!inserted) {
        // Seeded before products had a stock: give it its demo stock once. A product that sold out
        // through real orders keeps its 0.
        if (demoStockOf(product) > 0) {
          await tx
            .update(products)
            .set({ stock: demoStockOf(product) })
            .where(
              and(
                eq(products.sku, product.sku),
                eq(products.stock, 0),
                sql`not exists (select 1 from ${orders} where ${orders.productId} = ${products.id})`,
              ),
            );
        }
        continue;
      }
      if (product.images) {
        await tx.insert(productImages).values(
          Array.from({ length: product.images }, (_, i) => ({
            productId: inserted.id,
            position: i,
            cardUrl: `/media/${cardFile(product.sku, i)}`,
            cardWidth: CARD_SIZE.width,
            cardHeight: CARD_SIZE.height,
            detailUrl: `/media/${detailFile(product.sku, i)}`,
            detailWidth: DETAIL_SIZE.width,
            detailHeight: DETAIL_SIZE.height,
          })),
        );
      }
      if (product.promos?.length) {
        await tx
          .insert(productPromos)
          .values(product.promos.map((code) => ({ productId: inserted.id, promoId: promoIds.get(code)! })))
          .onConflictDoNothing();
      }
    }
  });
  invalidateCatalogueCache();
}

/** The id of a demo product by its sku (tests and scripts). */
export async function demoProductId(db: Db, sku: string): Promise<number> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.sku, sku));
  if (!row) throw new Error(`demo product ${sku} is not seeded`);
  return row.id;
}

const PICTURE_CAPTIONS = ["", "Tampak samping", "Detail"];

/**
 * The demo images drawn by the build beside the server bundle, like the prepared database (decision
 * 0012). A first start copies them: drawing them itself (librsvg, fontconfig and libvips) would
 * keep about 30 MB of the server's memory for as long as it runs.
 */
const preparedMediaFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "demo-media");

/** Draws the prepared demo images (the build: react-router.config.ts). */
export async function writePreparedDemoMedia() {
  await drawDemoMedia(preparedMediaFolder, { prepared: null });
}

/**
 * Puts every demo image that is not on disk yet into `dir`: a copy of the prepared one when the
 * build drew it, else drawn here (two at a time: the machine has two cores).
 */
export async function drawDemoMedia(dir: string, { prepared = preparedMediaFolder }: { prepared?: string | null } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  // Pictures of an older artwork version are no longer named by any row.
  for (const file of fs.readdirSync(dir)) {
    const version = /^[pb]-[a-z0-9-]+-v(\d+)\.webp$/.exec(file)?.[1];
    if (version && Number(version) !== ARTWORK_VERSION) fs.rmSync(path.join(dir, file), { force: true });
  }
  // Seeding runs at every start: a picture already there is kept. A new one is written through a
  // temporary name, so a crash never leaves half a file behind.
  const copyOrDraw = async (file: string, svg: () => string, quality: number) => {
    const target = path.join(dir, file);
    if (fs.existsSync(target)) return;
    const source = prepared && path.join(prepared, file);
    const bytes = source && fs.existsSync(source) ? fs.readFileSync(source) : await webpOf(svg(), quality);
    const temporary = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, bytes);
    fs.renameSync(temporary, target);
  };
  const jobs: (() => Promise<void>)[] = [];
  for (const product of DEMO_PRODUCTS) {
    const { colour, accent } = COLOURS[product.category];
    for (let i = 0; i < product.images; i++) {
      // Later pictures of a product use a shifted colour, so the slider visibly changes.
      const art = {
        kind: product.kind,
        colour: i === 0 ? colour : shade(colour, i),
        accent,
        title: product.title ?? "",
        caption: PICTURE_CAPTIONS[i],
      };
      jobs.push(() => copyOrDraw(cardFile(product.sku, i), () => productSvg(art, CARD_SIZE), 72));
      jobs.push(() => copyOrDraw(detailFile(product.sku, i), () => productSvg(art, DETAIL_SIZE), 78));
    }
  }
  for (const banner of DEMO_BANNERS) jobs.push(() => copyOrDraw(bannerFile(banner.code), () => bannerSvg(banner), 80));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all([worker(), worker()]);
}

/** A darker variant of a #rrggbb colour. */
function shade(hex: string, step: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const f = 1 - 0.18 * step;
  const channel = (shift: number) => Math.round(((n >> shift) & 255) * f);
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, "0")).join("")}`;
}
