import fs from "node:fs";
import path from "node:path";
import { count, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { DEMO_PRODUCTS, demoProductId, mediaDir, seedDemoCatalogue } from "../../demo/demo-catalogue";
import { banners, categories, cities, productImages, products } from "../../db/schema";
import { applyDiscount } from "~/lib/pricing";
import { loader as mediaLoader } from "~/routes/media";
import {
  getProductDetail,
  invalidateCatalogueCache,
  listProductPages,
  listProducts,
  recordProductView,
  type ProductListItem,
  type ProductQuery,
} from "./catalogue";
import { listBanners } from "./banners";
import { listCategories, listCities } from "./taxonomy";

// Runs on this file's own PGlite, or on a shared PostgreSQL (DATABASE_URL) that may already hold
// other rows: expectations are computed from the database, never from "the table has 45 rows".

beforeAll(async () => {
  await seedDemoCatalogue(await getDb(), { media: false });
});

async function categoryId(title: string) {
  const db = await getDb();
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.title, title));
  return row!.id;
}

/** Every page of a query, in order, following isLastPage as a client does. */
async function allPages(query: Omit<ProductQuery, "page">) {
  const pages = [];
  for (let page = 0; page < 1000; page++) {
    const result = await listProducts({ ...query, page });
    pages.push(result);
    if (result.isLastPage) break;
  }
  return pages;
}

const shownPrice = (item: ProductListItem) => (item.price === null ? null : applyDiscount(item.price, item));

describe("listProducts paging", () => {
  it("pages 10 at a time through every product exactly once, and stops at isLastPage", async () => {
    const pages = await allPages({});
    const total = pages[0]!.total;
    expect(total).toBeGreaterThanOrEqual(DEMO_PRODUCTS.length);
    expect(pages).toHaveLength(Math.ceil(total / 10));
    pages.forEach((page, index) => {
      expect(page.page).toBe(index);
      expect(page.total).toBe(total);
      expect(page.content.length).toBe(page.isLastPage ? total - index * 10 : 10);
    });
    const ids = pages.flatMap((p) => p.content.map((item) => item.id));
    expect(new Set(ids).size).toBe(total);
    const db = await getDb();
    const [{ rows }] = (await db.select({ rows: count() }).from(products)) as [{ rows: number }];
    expect(total).toBe(rows);
  });

  it("answers an empty last page past the end, and page 0 for a negative or broken page", async () => {
    const past = await listProducts({ page: 10_000 });
    expect(past.content).toEqual([]);
    expect(past.isLastPage).toBe(true);
    expect((await listProducts({ page: -3 })).page).toBe(0);
    expect((await listProducts({ page: Number.NaN })).page).toBe(0);
  });

  it("honours another page size, within limits", async () => {
    expect((await listProducts({ page: 0, size: 4 })).content).toHaveLength(4);
    expect((await listProducts({ page: 0, size: 10_000 })).content.length).toBeLessThanOrEqual(50);
  });

  it("lists a product with its card image, city, discount and promos", async () => {
    const id = await demoProductId(await getDb(), "gesits-g1");
    const motorbikes = await allPages({ keyword: "Gesits G1" });
    const item = motorbikes.flatMap((p) => p.content).find((p) => p.id === id)!;
    expect(item).toMatchObject({
      title: "Gesits G1 Motor Listrik Nasional",
      price: 28_500_000,
      discount: 5,
      discountType: "%",
      ratingPercentage: 92,
      sellCount: 134,
      cityName: "Jakarta Selatan",
      imageWidth: 360,
      imageHeight: 360,
    });
    expect(item.imageUrl).toMatch(/^\/media\/p-gesits-g1-1-card-v\d+\.webp$/);
    expect(item.promo.map((p) => p.discount).sort()).toEqual([1_000_000, 250_000, 7_000_000].sort());
    expect(Object.keys(item.promo[0]!).sort()).toEqual(["discount", "discountType", "id", "title"]);
  });

  it("lists a product without pictures with no image", async () => {
    const id = await demoProductId(await getDb(), "kabel-type2");
    const item = (await allPages({ keyword: "Kabel Pengisian" })).flatMap((p) => p.content).find((p) => p.id === id)!;
    expect(item.imageUrl).toBeNull();
    expect(item.imageWidth).toBeNull();
  });
});

describe("listProducts filters and sort", () => {
  it("filters by category", async () => {
    const motor = await categoryId("Motor Listrik");
    const car = await categoryId("Mobil Listrik");
    const ids = (await allPages({ categories: [motor, car] })).flatMap((p) => p.content.map((i) => i.id));
    const db = await getDb();
    const rows = await db
      .select({ id: products.id, categoryId: products.categoryId })
      .from(products)
      .where(inArray(products.categoryId, [motor, car]));
    expect(ids.sort()).toEqual(rows.map((r) => r.id).sort());
    expect(ids.length).toBeGreaterThanOrEqual(
      DEMO_PRODUCTS.filter((p) => p.category === "Motor Listrik" || p.category === "Mobil Listrik").length,
    );
  });

  it("matches every word of the keyword at the start of a title's word, case-insensitively, and never as query syntax", async () => {
    const items = (await allPages({ keyword: "  kompor INDUKSI " })).flatMap((p) => p.content);
    expect(items.map((i) => i.title)).toEqual(
      expect.arrayContaining([
        "Kompor Induksi Maspion 2 Tungku",
        "Kompor Induksi Philips HD4911 Satu Tungku",
        "Kompor Tanam Induksi Modena 60 cm Tiga Zona",
      ]),
    );
    for (const item of items) expect(item.title!.toLowerCase()).toMatch(/(^|[^\p{L}\p{N}])kompor.*(^|[^\p{L}\p{N}])induksi/u);
    // The start of a word is enough ('induk' → 'Induksi'); the middle of one is not.
    expect((await listProducts({ page: 0, keyword: "induk" })).total).toBe((await listProducts({ page: 0, keyword: "induksi" })).total);
    expect((await listProducts({ page: 0, keyword: "duksi" })).total).toBe(0);
    for (const syntax of ["%", "_", "&", "!", "motor:*", "'", "motor | mobil"]) {
      const { total } = await listProducts({ page: 0, keyword: syntax });
      expect(total, syntax).toBe(
        syntax.startsWith("motor") ? (await listProducts({ page: 0, keyword: syntax.replace(/[^a-z ]/g, " ") })).total : 0,
      );
    }
  });

  it("filters by the price the buyer sees (after the product's own discount)", async () => {
    const items = (await allPages({ pmin: 1_000_000, pmax: 20_000_000 })).flatMap((p) => p.content);
    expect(items.length).toBeGreaterThan(5);
    for (const item of items) {
      expect(shownPrice(item)).toBeGreaterThanOrEqual(1_000_000);
      expect(shownPrice(item)).toBeLessThanOrEqual(20_000_000);
    }
    // Gesits: 28,500,000 before and 27,075,000 after its 5% discount.
    const gesits = await demoProductId(await getDb(), "gesits-g1");
    const around = (await allPages({ pmin: 27_000_000, pmax: 28_000_000 })).flatMap((p) => p.content.map((i) => i.id));
    expect(around).toContain(gesits);
    const before = (await allPages({ pmin: 28_400_000, pmax: 28_600_000 })).flatMap((p) => p.content.map((i) => i.id));
    expect(before).not.toContain(gesits);
  });

  it("sorts by shown price, highest first (0) or lowest first (1), products without a price last", async () => {
    for (const sort of [0, 1] as const) {
      const pages = await allPages({ sort });
      const items = pages.flatMap((p) => p.content);
      expect(new Set(items.map((i) => i.id)).size).toBe(pages[0]!.total);
      const prices = items.map(shownPrice);
      const firstNull = prices.indexOf(null);
      if (firstNull >= 0) expect(prices.slice(firstNull).every((p) => p === null)).toBe(true);
      const known = prices.filter((p): p is number => p !== null);
      const expected = [...known].sort((a, b) => (sort === 0 ? b - a : a - b));
      expect(known).toEqual(expected);
    }
  });

  it("keeps equal prices in id order, so pages never repeat a product", async () => {
    const items = (await allPages({ sort: 1, size: 3 } as Omit<ProductQuery, "page">)).flatMap((p) => p.content);
    for (let i = 1; i < items.length; i++) {
      if (shownPrice(items[i]!) === shownPrice(items[i - 1]!)) expect(items[i]!.id).toBeGreaterThan(items[i - 1]!.id);
    }
  });

  it("filters by city and combines filters", async () => {
    const db = await getDb();
    const [surabaya] = await db.select({ id: cities.id }).from(cities).where(eq(cities.name, "Surabaya"));
    const items = (await allPages({ location: surabaya!.id })).flatMap((p) => p.content);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.cityName === "Surabaya")).toBe(true);
    const stoves = await listProducts({
      page: 0,
      location: surabaya!.id,
      categories: [await categoryId("Peralatan Rumah")],
      keyword: "kompor",
    });
    expect(stoves.content.map((i) => i.title)).toContain("Kompor Induksi Maspion 2 Tungku");
  });

  it("ignores malformed filter values instead of failing", async () => {
    const all = await listProducts({ page: 0 });
    const odd = await listProducts({ page: 0, categories: [-1, 0, 1.5, Number.NaN], location: -4, pmin: Number.NaN, pmax: -1 });
    expect(odd.total).toBe(all.total);
    expect((await listProducts({ page: 0, keyword: "x".repeat(100_000) })).total).toBe(0);
  });
});

describe("listProductPages (what a document renders)", () => {
  it("renders pages 0..N, each the same as its single page", async () => {
    const pages = await listProductPages({}, 2);
    expect(pages.map((p) => p.page)).toEqual([0, 1, 2]);
    for (const page of pages) expect(page).toEqual(await listProducts({ page: page.page }));
  });

  it("returns only page N for a script, and clamps a page past the end to the last one", async () => {
    const [only] = await listProductPages({}, 1, { only: true });
    expect(only).toEqual(await listProducts({ page: 1 }));
    const clamped = await listProductPages({}, 100_000);
    expect(clamped.at(-1)!.isLastPage).toBe(true);
    expect(clamped.at(-1)!.content.length).toBeGreaterThan(0);
    expect(clamped.length).toBeLessThanOrEqual(20);
  });

  it("answers one empty page when nothing matches", async () => {
    expect(await listProductPages({ keyword: "tidak-ada-produk-seperti-ini" }, 3)).toEqual([
      { content: [], total: 0, page: 0, isLastPage: true },
    ]);
  });
});

describe("getProductDetail", () => {
  it("has the detail fields of spec §3", async () => {
    const db = await getDb();
    const id = await demoProductId(db, "roda-tiga-kargo");
    const detail = (await getProductDetail(id))!;
    expect(detail).toMatchObject({
      id,
      title: "Motor Roda Tiga Listrik Kargo 500 kg",
      price: 42_000_000,
      discount: 2_000_000,
      discountType: "v",
      categoryTitle: "Kendaraan Listrik",
      condition: "Baru",
      weightGram: 320_000,
      addInfo: { minimum_purchase: 1 },
      orderable: true,
    });
    expect(detail.images).toHaveLength(2);
    expect(detail.images[0]).toMatchObject({ width: 780, height: 585 });
    expect(detail.promo.find((p) => p.incentive)).toMatchObject({ discount: 7_000_000 });
    expect(detail.promo.every((p) => typeof p.description === "string")).toBe(true);
  });

  it("has a stock: 25 for every orderable demo product, 0 for the one out of stock and the one without a price", async () => {
    const db = await getDb();
    for (const product of DEMO_PRODUCTS) {
      const detail = (await getProductDetail(await demoProductId(db, product.sku)))!;
      expect(detail.stock, product.sku).toBe(product.orderable === false || product.price === null ? 0 : 25);
    }
    // A demo database seeded before products had a stock gets it at the next start.
    const id = await demoProductId(db, "helm-sni");
    await db.update(products).set({ stock: 0 }).where(eq(products.id, id));
    await seedDemoCatalogue(db, { media: false });
    expect((await getProductDetail(id))!.stock).toBe(25);
  });

  it("counts views", async () => {
    const id = await demoProductId(await getDb(), "helm-sni");
    const before = (await getProductDetail(id))!.viewCount;
    await recordProductView(id);
    await recordProductView(id);
    expect((await getProductDetail(id))!.viewCount).toBe(before + 2);
  });

  it("is null for an unknown or impossible id", async () => {
    expect(await getProductDetail(2_000_000_000)).toBeNull();
    expect(await getProductDetail(0)).toBeNull();
    expect(await getProductDetail(-1)).toBeNull();
    expect(await getProductDetail(1.5)).toBeNull();
    expect(await getProductDetail(Number.MAX_SAFE_INTEGER)).toBeNull();
  });
});

describe("categories, cities, banners and seeding", () => {
  it("lists the demo categories in order, the cities and five banners with their sizes", async () => {
    const titles = (await listCategories()).map((c) => c.title);
    expect(titles).toEqual(
      expect.arrayContaining(["Kendaraan Listrik", "Motor Listrik", "Mobil Listrik", "Sepeda Listrik", "Peralatan Rumah", "Aksesori"]),
    );
    expect(titles.indexOf("Motor Listrik")).toBeLessThan(titles.indexOf("Aksesori"));
    expect((await listCities()).map((c) => c.name)).toEqual(expect.arrayContaining(["Surabaya", "Jakarta Selatan"]));
    const banners = await listBanners();
    expect(banners.length).toBeGreaterThanOrEqual(5);
    for (const banner of banners.slice(0, 5))
      expect(banner).toMatchObject({
        width: expect.any(Number),
        height: expect.any(Number),
        imageUrl: expect.stringMatching(/^\/media\//),
      });
  });

  it("links every demo banner to what it advertises: a search, a category or a product", async () => {
    const banners = await listBanners();
    const byTitle = new Map(banners.map((b) => [b.title, b.href]));
    const categoryId = (title: string) => listCategories().then((all) => all.find((c) => c.title === title)!.id);
    expect(byTitle.get("Promo Pegawai PLN: potongan Rp1.000.000")).toBe("/res-search?keyword=listrik");
    expect(byTitle.get("Insentif pemerintah untuk motor listrik")).toBe(
      `/res-search?keyword=motor&categories=${await categoryId("Motor Listrik")}`,
    );
    expect(byTitle.get("PLTS atap untuk rumah pegawai")).toBe(`/detail/${await demoProductId(await getDb(), "paket-plts-atap")}`);
    for (const banner of banners.slice(0, 5)) {
      expect(banner.href).toMatch(/^\/(res-search\?keyword=|detail\/\d+$)/);
      // Each link shows something: a search with results, or a product that exists.
      const url = new URL(banner.href!, "http://x");
      if (url.pathname === "/res-search") {
        const found = await listProducts({
          page: 0,
          keyword: url.searchParams.get("keyword")!,
          categories: url.searchParams.getAll("categories").map(Number),
        });
        expect(found.total, banner.title).toBeGreaterThan(0);
      } else expect(await getProductDetail(Number(url.pathname.split("/")[2]))).not.toBeNull();
    }
  });

  it("seeds again without duplicating anything", async () => {
    // The demo products by title: on PostgreSQL other test files add products of their own meanwhile.
    const demoProducts = async () =>
      (
        await (
          await getDb()
        )
          .select({ n: count() })
          .from(products)
          .where(
            inArray(
              products.title,
              DEMO_PRODUCTS.flatMap((p) => (p.title === null ? [] : [p.title])),
            ),
          )
      )[0]!.n;
    const before = await demoProducts();
    const bannersBefore = (await listBanners()).length;
    await seedDemoCatalogue(await getDb(), { media: false });
    expect(await demoProducts()).toBe(before);
    expect((await listBanners()).length).toBe(bannersBefore);
  });
});

describe("catalogue cache", () => {
  it("answers repeated reads from memory until invalidated, and shows writes after invalidation", async () => {
    const db = await getDb();
    const id = await demoProductId(db, "helm-sni");
    const title = (await getProductDetail(id))!.title;
    const firstPage = await listProductPages({}, 0);
    await db.update(products).set({ title: "Helm Uji Cache" }).where(eq(products.id, id));
    // Not invalidated: the cached detail and pages still show the old title.
    expect((await getProductDetail(id))!.title).toBe(title);
    expect(await listProductPages({}, 0)).toBe(firstPage);
    invalidateCatalogueCache();
    expect((await getProductDetail(id))!.title).toBe("Helm Uji Cache");
    expect((await listProducts({ keyword: "Helm Uji Cache", page: 0 })).total).toBe(1);
    await db.update(products).set({ title }).where(eq(products.id, id));
    invalidateCatalogueCache();
  });

  it("never caches the view count", async () => {
    const id = await demoProductId(await getDb(), "helm-sni");
    const before = (await getProductDetail(id))!.viewCount;
    expect((await getProductDetail(id, { countView: true }))!.viewCount).toBe(before + 1);
    expect((await getProductDetail(id, { countView: true }))!.viewCount).toBe(before + 2);
    expect((await getProductDetail(id))!.viewCount).toBe(before + 2);
    expect(await getProductDetail(2_000_000_000, { countView: true })).toBeNull();
  });

  it("is cleared by seeding the demo catalogue", async () => {
    const before = await listBanners();
    const db = await getDb();
    await db.update(banners).set({ title: "Banner Lama" }).where(eq(banners.id, before[0]!.id));
    expect((await listBanners())[0]!.title).toBe(before[0]!.title);
    await seedDemoCatalogue(db, { media: false });
    // After seeding, the list is read again: it shows what the database now holds.
    const [stored] = await db.select({ title: banners.title }).from(banners).where(eq(banners.id, before[0]!.id));
    expect((await listBanners())[0]!.title).toBe(stored!.title);
    expect(await listBanners()).not.toBe(before);
    await db.update(banners).set({ title: before[0]!.title }).where(eq(banners.id, before[0]!.id));
    invalidateCatalogueCache();
  });
});

describe("artwork versions", () => {
  it("points rows seeded with older artwork at the current files", async () => {
    const db = await getDb();
    const id = await demoProductId(db, "alva-one");
    const current = (await getProductDetail(id))!.images[0]!.url;
    await db
      .update(productImages)
      .set({
        cardUrl: sql`replace(${productImages.cardUrl}, '-v', '-v0')`,
        detailUrl: sql`replace(${productImages.detailUrl}, '-v', '-v0')`,
      })
      .where(eq(productImages.productId, id));
    invalidateCatalogueCache();
    expect((await getProductDetail(id))!.images[0]!.url).not.toBe(current);
    await seedDemoCatalogue(db, { media: false });
    expect((await getProductDetail(id))!.images[0]!.url).toBe(current);
  });
});

describe("/media/:file", () => {
  const get = (file: string) => mediaLoader({ params: { file } } as never) as Promise<Response>;

  it("serves a media file with a year of caching", async () => {
    fs.mkdirSync(mediaDir(), { recursive: true });
    fs.writeFileSync(path.join(mediaDir(), "test-image-v1.webp"), "RIFF....WEBP");
    const response = await get("test-image-v1.webp");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toContain("max-age=31536000");
    expect(await response.text()).toBe("RIFF....WEBP");
  });

  it.each([
    "../session-secret",
    "..%2Fsession-secret",
    "a/b.webp",
    ".hidden.webp",
    "x.svg",
    "missing-v1.webp",
    "TEST-IMAGE-V1.webp",
    "test-image-v1.webp\0.png",
    "",
  ])("answers 404 for %j", async (file) => {
    expect((await get(file)).status).toBe(404);
  });
});
