import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { PAID_STATUSES } from "~/lib/order-status";

// Where every rupiah is (issue 36 item 5, /ops/finance): per WIB day and payment method, the money
// received, refunded and the net; the refunds still open; and the orders whose money does not add
// up (received ≠ kept + refunds), which the refund guard and the creating moves should make impossible.

export type FinanceDay = { day: string; method: string; received: number; refunded: number; net: number };
export type UnbalancedOrder = { orderId: number; invoiceId: string; statusId: number; received: number; kept: number; refunds: number };

/** `from` and `to` are WIB days (YYYY-MM-DD), both included. */
export async function financeReport(from: string, to: string) {
  const db = await getDb();
  const days = await queryRows<FinanceDay>(
    db,
    // The WIB days as a range of instants, so the receipts' and refunds' time indexes pick the rows.
    sql`with bounds as (
          select (${from}::date::timestamp at time zone 'Asia/Jakarta') as first, ((${to}::date + 1)::timestamp at time zone 'Asia/Jakarta') as after),
        money as (
          select to_char(r.created_at at time zone 'Asia/Jakarta', 'YYYY-MM-DD') as day, coalesce(r.method_type, '-') as method,
                 r.amount as received, 0 as refunded
            from order_receipts r, bounds b where r.created_at >= b.first and r.created_at < b.after
          union all
          select to_char(f.refunded_at at time zone 'Asia/Jakarta', 'YYYY-MM-DD'), coalesce(p.type, '-'), 0, f.amount
            from refunds f left join payments p on p.order_id = f.order_id, bounds b
           where f.refunded_at >= b.first and f.refunded_at < b.after)
        select day, method, sum(received)::bigint as received, sum(refunded)::bigint as refunded, (sum(received) - sum(refunded))::bigint as net
          from money group by day, method order by day, method`,
  );
  const [open] = await queryRows<{ count: number; amount: number }>(
    db,
    // Open: owed and not yet given back. A refund awaiting finance's confirmation of its money, or
    // closed because none came, owes nothing (issue 45 item 2).
    sql`select count(*)::int as count, coalesce(sum(amount), 0)::bigint as amount from refunds
         where state in ('awaiting-account', 'processing', 'failed')`,
  );
  // The check covers the orders whose money moved in the period (a receipt or a refund made in it):
  // reading every order's receipts at each visit grows with the whole history, past the page's
  // 300 ms at 100,000 orders (bench:dashboard); a wider period checks further back.
  const unbalanced = await queryRows<UnbalancedOrder>(
    db,
    sql`with bounds as (
          select (${from}::date::timestamp at time zone 'Asia/Jakarta') as first, ((${to}::date + 1)::timestamp at time zone 'Asia/Jakarta') as after),
        moved as (
          select r.order_id from order_receipts r, bounds b where r.created_at >= b.first and r.created_at < b.after
          union
          select f.order_id from refunds f, bounds b where f.created_at >= b.first and f.created_at < b.after)
        select o.id as "orderId", o.invoice_id as "invoiceId", o.status_id as "statusId", r.received::bigint as received,
               (case when o.status_id in ${[...PAID_STATUSES]} then r.payment else 0 end)::bigint as kept, coalesce(f.total, 0)::bigint as refunds
          from (select order_id, sum(amount) as received, coalesce(sum(amount) filter (where source = 'payment'), 0) as payment
                  from order_receipts where order_id in (select order_id from moved) group by order_id) r
          -- One look-up by id per order that moved (OFFSET 0 keeps it one): joined as a set, the planner
          -- misjudges how few they are and walks every order backwards by id (bench:dashboard, issue 37).
          cross join lateral (select id, invoice_id, status_id from orders where orders.id = r.order_id offset 0) o
          left join (select order_id, sum(amount) as total from refunds
                      where order_id in (select order_id from moved) and state not in ('awaiting-funds', 'not-received') group by order_id) f
            on f.order_id = r.order_id
         where r.received <> (case when o.status_id in ${[...PAID_STATUSES]} then r.payment else 0 end) + coalesce(f.total, 0)
         order by o.id desc limit 200`,
  );
  // Sums of rupiah pass int4's 2.1 billion (a day's receipts, the open refunds): bigint in SQL, which
  // the drivers hand as a string or a BigInt; a number here (exact far beyond any store's totals).
  return {
    days: days.map((d) => ({ ...d, received: Number(d.received), refunded: Number(d.refunded), net: Number(d.net) })),
    open: open ? { count: open.count, amount: Number(open.amount) } : { count: 0, amount: 0 },
    unbalanced: unbalanced.map((u) => ({ ...u, received: Number(u.received), kept: Number(u.kept), refunds: Number(u.refunds) })),
  };
}

/** The same figures as CSV (the ops CLI's finance:report). */
export function financeCsv(days: FinanceDay[]): string {
  const lines = [
    "Tanggal,Metode,Diterima,Dikembalikan,Bersih",
    ...days.map((d) => [d.day, d.method, d.received, d.refunded, d.net].join(",")),
  ];
  return `${lines.join("\n")}\n`;
}
