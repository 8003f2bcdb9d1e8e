import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";

// What GET /metrics reports about the store's state, read from the database at scrape time, so every
// instance reports the same truth (issue 20). One cheap query each: orders_status_idx serves both.

/** Operator queues whose oldest entry the metrics report: the order statuses waiting for someone. */
export const WAITING_ORDER_QUEUES = [100, 301, 302, 300] as const;
/** The withdrawal queue's name in the metrics (its status in balance_entries). */
export const WITHDRAWAL_QUEUE = "withdrawals";

/** Orders per status id. */
export async function orderCountsByStatus(): Promise<{ statusId: number; count: number }[]> {
  return queryRows(await getDb(), sql`select status_id as "statusId", count(*)::int as count from orders group by status_id`);
}

/**
 * Per queue, how long its oldest entry has waited (seconds; queues with nothing waiting are absent):
 * the order statuses of WAITING_ORDER_QUEUES (since the order entered the status) and the withdrawals
 * 'Dalam Proses' (since they were asked for).
 */
export async function oldestWaitingSeconds(): Promise<{ queue: string; seconds: number }[]> {
  // One min() per queue: each an index lookup (orders_status_changed_idx), whatever the order count.
  const oldestOrder = (statusId: number) => sql`select ${String(statusId)} as queue, (select min(status_changed_at) from orders where status_id = ${statusId}) as since`;
  return queryRows(
    await getDb(),
    sql`select queue, extract(epoch from now() - since)::float8 as seconds from (
          ${sql.join(WAITING_ORDER_QUEUES.map(oldestOrder), sql` union all `)}
          union all
          select ${WITHDRAWAL_QUEUE}, (select min(created_at) from balance_entries where kind = 'withdrawal' and status = 'Dalam Proses')
        ) waiting where since is not null`,
  );
}
