import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { ORDER_STATUS as S, PAID_STATUSES, RELEASED_STATUSES } from "~/lib/order-status";

// The back-office home's figures (issue 27, DESIGN §6 "Back office"): the last 30 days in WIB. Each
// is ONE query over an index: orders by their creation time (orders_created_idx), the incentive
// decisions through order_events_order_idx, stock over the products. Paid revenue is the total of
// the day's orders that are paid (300 Pembayaran Diterima, 400 Dalam Pengiriman, 500 Selesai).

export const DASHBOARD_DAYS = 30;
export const LOW_STOCK_LIMIT = 5;

export type DayFigures = { day: string; orders: number; paidRevenue: number };
export type StatusCount = { statusId: number; name: string; count: number };
export type IncentiveCounts = { approved: number; rejected: number; waiting: number };
export type TopProduct = { productId: number; title: string; orders: number; revenue: number };
export type LowStock = { productId: number; title: string; stock: number };

/** The window: from 00:00 WIB 29 days ago to now, as the query's bounds. */
// The status sets go in as bound lists: `in ($1, $2, $3)`.
const PAID = [...PAID_STATUSES];
const RELEASED = [...RELEASED_STATUSES];
const since = sql`(date_trunc('day', now() at time zone 'Asia/Jakarta') - interval '${sql.raw(String(DASHBOARD_DAYS - 1))} days') at time zone 'Asia/Jakarta'`;

/** Orders and paid revenue per WIB day, every day of the window (0 where none). Paid = what the payment asked (issue 25: one amount, as the export's 'Jumlah Bayar'). */
export async function ordersPerDay(): Promise<DayFigures[]> {
  const rows = await queryRows<{ day: string; orders: number; paid_revenue: string }>(
    await getDb(),
    sql`select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(o.orders, 0)::int as orders, coalesce(o.paid_revenue, 0)::bigint as paid_revenue
        from generate_series(date_trunc('day', now() at time zone 'Asia/Jakarta') - interval '${sql.raw(String(DASHBOARD_DAYS - 1))} days',
                             date_trunc('day', now() at time zone 'Asia/Jakarta'), interval '1 day') d(day)
        left join (
          select date_trunc('day', created_at at time zone 'Asia/Jakarta') as day, count(*) as orders,
                 sum(coalesce(payment_total, total_amount)) filter (where status_id in ${PAID}) as paid_revenue
          from orders where created_at >= ${since} group by 1
        ) o on o.day = d.day
        order by d.day`,
  );
  return rows.map((r) => ({ day: r.day, orders: Number(r.orders), paidRevenue: Number(r.paid_revenue) }));
}

/** The window's orders by their status now. */
export async function ordersByStatus(): Promise<StatusCount[]> {
  const rows = await queryRows<{ status_id: number; name: string; count: number }>(
    await getDb(),
    sql`select s.id as status_id, s.name, count(*)::int as count
        from orders o join order_statuses s on s.id = o.status_id
        where o.created_at >= ${since} group by s.id, s.name order by s.id`,
  );
  return rows.map((r) => ({ statusId: Number(r.status_id), name: r.name, count: Number(r.count) }));
}

/** The window's incentive applications: approved (100 → 200), rejected (100 → 2), still waiting (100). */
export async function incentiveDecisions(): Promise<IncentiveCounts> {
  const [row] = await queryRows<{ approved: number; rejected: number; waiting: number }>(
    await getDb(),
    sql`select count(*) filter (where d.to_status = ${S.AWAITING_PAYMENT})::int as approved,
               count(*) filter (where d.to_status = ${S.EXPIRED_OR_REJECTED})::int as rejected,
               count(*) filter (where o.status_id = ${S.INCENTIVE_REVIEW})::int as waiting
        from orders o
        left join lateral (select e.to_status from order_events e where e.order_id = o.id and e.from_status = ${S.INCENTIVE_REVIEW} order by e.id limit 1) d on true
        where o.created_at >= ${since} and o.insentif`,
  );
  return { approved: Number(row?.approved ?? 0), rejected: Number(row?.rejected ?? 0), waiting: Number(row?.waiting ?? 0) };
}

/** The window's 10 products with the most orders (cancelled and expired ones not counted), with their paid revenue. */
export async function topProducts(): Promise<TopProduct[]> {
  const rows = await queryRows<{ product_id: number; title: string; orders: number; revenue: string }>(
    await getDb(),
    sql`select o.product_id, coalesce(p.title, '-') as title, count(*)::int as orders,
               coalesce(sum(coalesce(o.payment_total, o.total_amount)) filter (where o.status_id in ${PAID}), 0)::bigint as revenue
        from orders o join products p on p.id = o.product_id
        where o.created_at >= ${since} and o.status_id not in ${RELEASED}
        group by o.product_id, p.title order by orders desc, o.product_id limit 10`,
  );
  return rows.map((r) => ({ productId: Number(r.product_id), title: r.title, orders: Number(r.orders), revenue: Number(r.revenue) }));
}

/** Orderable products with at most LOW_STOCK_LIMIT units left, fewest first (at most 20). */
export async function lowStock(): Promise<LowStock[]> {
  const rows = await queryRows<{ id: number; title: string; stock: number }>(
    await getDb(),
    sql`select id, coalesce(title, '-') as title, stock from products where orderable = 1 and stock <= ${LOW_STOCK_LIMIT} order by stock, id limit 20`,
  );
  return rows.map((r) => ({ productId: Number(r.id), title: r.title, stock: Number(r.stock) }));
}
