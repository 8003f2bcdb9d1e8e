import { sql } from "drizzle-orm";
import { Gauge, type Registry } from "prom-client";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { AWAITING_OPERATOR_STATUSES } from "~/lib/order-status";

// What GET /metrics reports about the store's state, read from the database at scrape time, so every
// instance reports the same truth (issue 20). One cheap query each: orders_status_idx serves both.

/** Operator queues whose oldest entry the metrics report: the order statuses waiting for someone. */
export const WAITING_ORDER_QUEUES = AWAITING_OPERATOR_STATUSES;
/** The withdrawal queue's name in the metrics (its status in balance_entries). */
export const WITHDRAWAL_QUEUE = "withdrawals";

/**
 * Orders per status id, every status of the reference table included (0 when it has none): a series
 * exists from the first scrape, as Prometheus asks for known label values (issue 25).
 */
export async function orderCountsByStatus(): Promise<{ statusId: number; count: number }[]> {
  return queryRows(
    await getDb(),
    sql`select s.id as "statusId", coalesce(c.count, 0)::int as count
        from order_statuses s left join (select status_id, count(*) as count from orders group by status_id) c on c.status_id = s.id
        order by s.id`,
  );
}

/**
 * Per queue, how long its oldest entry has waited (seconds; 0 when nothing waits, so every queue has
 * its series from the first scrape): the order statuses of WAITING_ORDER_QUEUES (since the order
 * entered the status) and the withdrawals 'Dalam Proses' (since they were asked for).
 */
export async function oldestWaitingSeconds(): Promise<{ queue: string; seconds: number }[]> {
  // One min() per queue: each an index lookup (orders_status_changed_idx), whatever the order count.
  const oldestOrder = (statusId: number) =>
    sql`select ${String(statusId)} as queue, (select min(status_changed_at) from orders where status_id = ${statusId}) as since`;
  return queryRows(
    await getDb(),
    sql`select queue, coalesce(extract(epoch from now() - since), 0)::float8 as seconds from (
          ${sql.join(WAITING_ORDER_QUEUES.map(oldestOrder), sql` union all `)}
          union all
          select ${WITHDRAWAL_QUEUE}, (select min(created_at) from balance_entries where kind = 'withdrawal' and status = 'Dalam Proses')
        ) waiting`,
  );
}

const registered = new WeakSet<Registry>();

/** Adds the store's gauges (orders per status, the queues' oldest waits) to `registry`, once. */
export function registerStoreMetrics(registry: Registry): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  new Gauge({
    name: "store_orders",
    help: "Orders per status id, 0 for a status without orders (read from the database at scrape time).",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { statusId, count } of await orderCountsByStatus()) this.set({ status: String(statusId) }, count);
    },
  });

  new Gauge({
    name: "store_oldest_waiting_seconds",
    help: "Age of the oldest entry of each operator queue (0 when empty): order statuses 100, 301, 302, 300 and withdrawals 'Dalam Proses'.",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { queue, seconds } of await oldestWaitingSeconds()) this.set({ queue }, Math.round(seconds));
    },
  });
}
