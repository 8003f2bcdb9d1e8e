export {}; // a module: top-level await
// Seeds a large published catalogue into a data directory before bench:load starts its server on it
// (BENCH_PRODUCTS, issue 26 item 10): the demo catalogue, then products up to the number asked for,
// one in five a "Motor Listrik", each with the first demo product's picture. Run by bench-load.mjs
// as `node --import tsx scripts/bench/seed-catalogue.ts <total>` with DATA_DIR set.
const total = Number(process.argv[2]);
if (!Number.isSafeInteger(total) || total < 1) throw new Error("usage: seed-catalogue.ts <total products>");
process.env.DEMO_DATA = "1";
const { getDb, closeDb } = await import("~/.server/db/client");
const { sql } = await import("drizzle-orm");
try {
  const db = await getDb();
  const [{ n }] = (await db.execute(sql`select count(*)::int as n from products`)).rows as [{ n: number }];
  const extra = Math.max(0, total - n);
  await db.execute(sql`
    insert into products (sku, title, description, price, rating_percentage, sell_count, city_id, category_id, weight_gram, stock, status)
    select 'BULK-' || g,
      (array['Motor Listrik', 'Kompor Induksi', 'Sepeda Listrik', 'Panel Surya', 'Pengisi Daya'])[1 + g % 5] || ' Seri ' || g,
      'Produk katalog besar untuk pengukuran.', 1000000 + (g * 7919) % 50000000, 50 + g % 50, g % 300,
      (select id from cities order by id offset g % 10 limit 1), (select id from categories order by id offset g % 6 limit 1), 1000, 10, 'tayang'
    from generate_series(1, ${extra}::int) g`);
  await db.execute(sql`
    insert into product_images (product_id, position, card_url, card_width, card_height, detail_url, detail_width, detail_height)
    select p.id, 0, i.card_url, i.card_width, i.card_height, i.detail_url, i.detail_width, i.detail_height
    from products p, (select * from product_images order by id limit 1) i where p.sku like 'BULK-%'`);
  await db.execute(sql`analyze`);
  console.log(`catalogue: ${n + extra} products (${extra} added)`);
} finally {
  await closeDb();
}
