// The store side of `npm run bench:messages` (scripts/bench-messages.mjs), run with tsx on the
// bench's database (DATA_DIR or DATABASE_URL), while no server holds it (PGlite) or beside the
// server (PostgreSQL):
//   seed N     N orders in 'Pembayaran Diterima' (300); the seeding's own messages are removed, so
//              the bench counts only the e-mails of its transitions. Prints the order ids (JSON).
//   ship IDS   300 → 400 for each order (PostgreSQL: the server's workers deliver the e-mails).
//   check IDS  what the database says: orders in 400, their 300 → 400 events, their notifications.
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../app/.server/db/client";
import { queryRows } from "../app/.server/db/query-rows";
import { transitionOrder } from "../app/.server/store/orders";
import { createOrderInStatus } from "../app/.server/testing/order-fixtures";

const [mode, ...args] = process.argv.slice(2);
const db = await getDb();
try {
  if (mode === "seed") {
    const ids: number[] = [];
    for (let i = 0; i < Number(args[0]); i++) ids.push((await createOrderInStatus(db, 300)).orderId);
    await db.execute(sql`delete from pgboss.job where name in ('mail', 'mail-dead')`);
    await db.execute(sql`delete from notifications`);
    console.log(JSON.stringify(ids));
  } else if (mode === "ship") {
    const ids: number[] = JSON.parse(args[0]!);
    for (const id of ids) {
      const moved = await transitionOrder(id, 300, 400, "ops", "bench");
      if (!moved.ok) throw new Error(`order ${id}: ${moved.message}`);
    }
  } else if (mode === "check") {
    const ids: number[] = JSON.parse(args[0]!);
    const list = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    const [row] = await queryRows<{ shipped: number; events: number; notified: number; jobs: number }>(
      db,
      sql`select (select count(*)::int from orders where id in (${list}) and status_id = 400) as shipped,
                 (select count(*)::int from order_events where order_id in (${list}) and from_status = 300 and to_status = 400) as events,
                 (select count(*)::int from notifications where order_id in (${list})) as notified,
                 (select count(*)::int from pgboss.job where name = 'mail') as jobs`,
    );
    console.log(JSON.stringify(row));
  } else throw new Error(`unknown mode ${mode}`);
} finally {
  await closeDb();
}
