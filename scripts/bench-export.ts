// npm run bench:export [-- --orders 100000] — the back office's CSV export of many orders.
//
// On a fresh PGlite database in a temporary directory (the build's prepared database when there is
// one, else a new one), one order is made the way a buyer makes it, then copied in SQL to N orders
// (default 100,000) with their product lines. The export (the same exportOrdersCsv that
// /ops/export streams) is then read to the end into a sink that only counts, while the process's
// resident memory is sampled every 20 ms. It prints a readable report and, as its LAST line, one
// JSON object: {"orders", "ms", "rssGrowthMb"} — the rows written, the time of the export, and the
// peak resident memory during the export minus the resident memory before it. Exit code 1 when a
// row is missing or the growth reaches 50 MB (issue 17's limit: a year of orders never builds in
// memory). It runs with the production server's Node flags and MALLOC_ARENA_MAX (package.json), as
// the export runs inside the server: with Node's defaults V8 alone sizes its young generation up
// by about 40 MB under this allocation rate (measured: +57 MB, of which the JS heap in use +4 MB).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT_MB = 50;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

const total = option("orders", 100_000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-export-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
process.env.PAYMENT_GATEWAY = "sandbox";
delete process.env.DATABASE_URL;
delete process.env.SMTP_URL;
const template = path.join(root, process.env.BUILD_DIR ?? "build", "server", "assets", "db-template");
if (!process.env.DB_TEMPLATE_DIR && fs.existsSync(path.join(template, "PG_VERSION.gz"))) process.env.DB_TEMPLATE_DIR = template;

const { getDb, closeDb } = await import("~/.server/db/client");
const { createOrderInStatus } = await import("~/.server/testing/order-fixtures");
const { exportOrdersCsv } = await import("~/.server/store/back-office");
const { sql } = await import("drizzle-orm");

try {
  const setupStarted = Date.now();
  const db = await getDb();
  const { orderId } = await createOrderInStatus(db, 300);
  // Copies of the one real order, each its own invoice, key, NIK and day (spread over a year).
  const copies = total - 1;
  for (let done = 0; done < copies; done += 20_000) {
    const n = Math.min(20_000, copies - done);
    await db.execute(sql`
      insert into orders (invoice_id, user_id, idempotency_key, product_id, status_id, status_changed_at, buyer_name, buyer_phone_number,
        buyer_email, buyer_nik, buyer_nip, buyer_dad_name, note, full_address, provinsi_id, provinsi, kota_id, kota, kecamatan_id, kecamatan,
        kelurahan_id, kelurahan, kode_pos, insentif, insentif_value, promo_pegawai, promo_pegawai_value, price_ori, amount, total_amount,
        payment_method_id, tenor, courier, tracking_number, created_at, updated_at)
      select 'BENCH/' || g, o.user_id, 'bench-' || g, o.product_id, (array[100, 200, 300, 400, 500])[1 + g % 5], o.status_changed_at, o.buyer_name,
        o.buyer_phone_number, 'pembeli' || g || '@example.test', lpad((3273000000000000 + g)::text, 16, '0'), o.buyer_nip, o.buyer_dad_name,
        o.note, o.full_address, o.provinsi_id, o.provinsi, o.kota_id, o.kota, o.kecamatan_id, o.kecamatan, o.kelurahan_id, o.kelurahan,
        o.kode_pos, false, 0, false, 0, o.price_ori, o.amount, o.total_amount, o.payment_method_id, o.tenor, 'JNE', 'JNE' || g,
        o.created_at - (g % 365) * interval '1 day', o.updated_at
      from orders o, generate_series(${done + 1}::int, ${done + n}::int) g where o.id = ${orderId}::int`);
  }
  await db.execute(sql`
    insert into order_products (order_id, product_id, qty, title, image_url, price, price_ori, total_discount, promo)
    select o.id, p.product_id, p.qty, p.title, p.image_url, p.price, p.price_ori, p.total_discount, p.promo
    from orders o, order_products p where p.order_id = ${orderId} and o.id <> ${orderId}`);
  await db.execute(sql`analyze`);
  const setupMs = Date.now() - setupStarted;

  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  let bytes = 0;
  let lines = 0;
  const started = performance.now();
  await pipeline(
    exportOrdersCsv({}),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        peak = Math.max(peak, process.memoryUsage().rss);
        callback();
      },
    }),
  );
  const ms = Math.round(performance.now() - started);
  clearInterval(sampler);
  const orders = lines - 1; // the header
  const rssGrowthMb = Math.round(((peak - rssBefore) / 1024 / 1024) * 10) / 10;
  console.log(`setup: ${total} orders in ${(setupMs / 1000).toFixed(1)} s`);
  console.log(`export: ${orders} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB of CSV in ${(ms / 1000).toFixed(1)} s`);
  console.log(`resident memory: ${(rssBefore / 1024 / 1024).toFixed(0)} MB before, peak ${(peak / 1024 / 1024).toFixed(0)} MB (+${rssGrowthMb} MB; limit ${LIMIT_MB} MB)`);
  console.log(JSON.stringify({ orders, ms, rssGrowthMb }));
  process.exitCode = orders === total && rssGrowthMb < LIMIT_MB ? 0 : 1;
} finally {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
