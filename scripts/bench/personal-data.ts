export {}; // a module: top-level await
// Personal data for bench:load's key rotation run (BENCH_ROTATE_ORDERS, issue 35). Run by
// bench-load.mjs with DATA_DIR set, the server stopped:
//   `node --import tsx scripts/bench/personal-data.ts seed <orders>` (DATA_ENCRYPTION_KEY: the old key)
//     <orders> incentive orders, each with its own NIK and its own KTP photo (a real JPEG of about
//     100 KB), sealed under the old key the way a store that existed before the rotation has them;
//   `node --import tsx scripts/bench/personal-data.ts verify` (DATA_ENCRYPTION_KEY: the new key ONLY)
//     opens every NIK and every KTP photo with the new key alone; prints one JSON line
//     {"orders", "uploads", "unreadable", "leftUnderOtherKey"}.
import { randomBytes } from "node:crypto";

const [mode, count] = process.argv.slice(2);
const { getDb, closeDb } = await import("~/.server/db/client");
const { sql, asc, gt, isNull, and } = await import("drizzle-orm");
const { orders, uploads } = await import("~/.server/db/schema");
const { openUpload, readNik, rowsNotUnderCurrentKey, sealPersonalData } = await import("~/.server/store/privacy");

async function seed(total: number) {
  const db = await getDb();
  const { createOrderInStatus } = await import("~/.server/testing/order-fixtures");
  const sharp = await (await import("~/.server/sharp")).loadSharp();
  // One incentive order made as a buyer makes it (NIK, KTP), then copies of it in clear, each with
  // its own NIK and photo row, sealed below as the start-up sealing does for rows stored in clear.
  const { orderId } = await createOrderInStatus(db, 100);
  const [order] = await db
    .select({ ktpUploadId: orders.ktpUploadId })
    .from(orders)
    .where(sql`${orders.id} = ${orderId}`);
  // Noise does not compress: a JPEG the size of a phone's KTP photo after the store's resizing.
  const side = 360;
  const photo = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const copies = total - 1;
  for (let done = 0; done < copies; done += 500) {
    const n = Math.min(500, copies - done);
    await db.execute(sql`
      insert into uploads (id, owner_id, purpose, content_type, size, bytes, key_id)
      select 'bench-ktp-' || g, u.owner_id, 'ktp', 'image/jpeg', ${photo.length}, ${photo}, null
      from uploads u, generate_series(${done + 1}::int, ${done + n}::int) g where u.id = ${order!.ktpUploadId}`);
    await db.execute(sql`
      insert into orders (invoice_id, user_id, idempotency_key, product_id, status_id, status_changed_at, buyer_name, buyer_phone_number,
        buyer_email, buyer_nik, buyer_nik_hash, buyer_nip, buyer_dad_name, note, full_address, provinsi_id, provinsi, kota_id, kota,
        kecamatan_id, kecamatan, kelurahan_id, kelurahan, kode_pos, insentif, insentif_value, promo_pegawai, promo_pegawai_value, price_ori,
        amount, total_amount, payment_method_id, tenor, courier, tracking_number, ktp_upload_id, created_at, updated_at)
      select 'ROTATE/' || g, o.user_id, 'rotate-' || g, o.product_id, o.status_id, o.status_changed_at, o.buyer_name, o.buyer_phone_number,
        o.buyer_email, lpad((3273000000000000 + g)::text, 16, '0'), null, o.buyer_nip, o.buyer_dad_name, o.note, o.full_address,
        o.provinsi_id, o.provinsi, o.kota_id, o.kota, o.kecamatan_id, o.kecamatan, o.kelurahan_id, o.kelurahan, o.kode_pos, true,
        o.insentif_value, false, 0, o.price_ori, o.amount, o.total_amount, o.payment_method_id, o.tenor, o.courier, o.tracking_number,
        'bench-ktp-' || g, o.created_at, o.updated_at
      from orders o, generate_series(${done + 1}::int, ${done + n}::int) g where o.id = ${orderId}::int`);
  }
  const sealed = await sealPersonalData(db, "clear");
  await db.execute(sql`analyze`);
  console.log(`personal data: ${total} incentive orders with a ${Math.round(photo.length / 1024)} KB KTP photo each, sealed`, sealed);
}

/** Every NIK and KTP photo opened with the keys this process has (the new one only). */
async function verify() {
  const db = await getDb();
  let unreadable = 0;
  let orderCount = 0;
  for (let after = 0; ;) {
    const batch = await db
      .select({ id: orders.id, buyerNik: orders.buyerNik })
      .from(orders)
      .where(gt(orders.id, after))
      .orderBy(asc(orders.id))
      .limit(1000);
    if (!batch.length) break;
    for (const row of batch) {
      try {
        if (row.buyerNik) readNik(row.buyerNik, { orderId: row.id });
      } catch {
        unreadable++;
      }
    }
    orderCount += batch.length;
    after = batch.at(-1)!.id;
  }
  let uploadCount = 0;
  for (let after = ""; ;) {
    const batch = await db
      .select({ id: uploads.id, bytes: uploads.bytes, keyId: uploads.keyId })
      .from(uploads)
      .where(and(gt(uploads.id, after), isNull(uploads.deletedAt)))
      .orderBy(asc(uploads.id))
      .limit(50);
    if (!batch.length) break;
    for (const row of batch) {
      try {
        openUpload(row);
      } catch {
        unreadable++;
      }
    }
    uploadCount += batch.length;
    after = batch.at(-1)!.id;
  }
  console.log(
    JSON.stringify({ orders: orderCount, uploads: uploadCount, unreadable, leftUnderOtherKey: await rowsNotUnderCurrentKey(db) }),
  );
}

try {
  if (mode === "seed" && Number(count) >= 1) await seed(Number(count));
  else if (mode === "verify") await verify();
  else throw new Error("usage: personal-data.ts seed <orders> | verify");
} finally {
  await closeDb();
}
