// The orders the back-office benchmarks read (bench:export, bench:dashboard): one order made the way
// a buyer makes it, then copied in SQL to `total` orders with their product lines, each its own
// invoice, key, NIK and day (spread over the last year, so a 30-day window holds about 8 %), the
// statuses cycling through 100, 200, 300, 400, 500. Run in a benchmark's own temporary database.
import { sql } from "drizzle-orm";
import { getDb } from "~/.server/db/client";
import { createOrderInStatus } from "~/.server/testing/order-fixtures";

export async function seedBenchOrders(total: number): Promise<void> {
  const db = await getDb();
  const { orderId } = await createOrderInStatus(db, 300);
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
}
