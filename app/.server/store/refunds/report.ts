import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";

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
    sql`with money as (
          select to_char(r.created_at at time zone 'Asia/Jakarta', 'YYYY-MM-DD') as day, coalesce(r.method_type, '-') as method,
                 r.amount as received, 0 as refunded
            from order_receipts r
          union all
          select to_char(f.refunded_at at time zone 'Asia/Jakarta', 'YYYY-MM-DD'), coalesce(p.type, '-'), 0, f.amount
            from refunds f left join payments p on p.order_id = f.order_id
           where f.refunded_at is not null)
        select day, method, sum(received)::int as received, sum(refunded)::int as refunded, (sum(received) - sum(refunded))::int as net
          from money where day between ${from} and ${to}
         group by day, method order by day, method`,
  );
  const [open] = await queryRows<{ count: number; amount: number }>(
    db,
    sql`select count(*)::int as count, coalesce(sum(amount), 0)::int as amount from refunds where state <> 'refunded'`,
  );
  const unbalanced = await queryRows<UnbalancedOrder>(
    db,
    sql`select o.id as "orderId", o.invoice_id as "invoiceId", o.status_id as "statusId", r.received::int as received,
               (case when o.status_id in (300, 400, 500) then r.payment else 0 end)::int as kept, coalesce(f.total, 0)::int as refunds
          from (select order_id, sum(amount) as received, coalesce(sum(amount) filter (where source = 'payment'), 0) as payment
                  from order_receipts group by order_id) r
          join orders o on o.id = r.order_id
          left join (select order_id, sum(amount) as total from refunds group by order_id) f on f.order_id = r.order_id
         where r.received <> (case when o.status_id in (300, 400, 500) then r.payment else 0 end) + coalesce(f.total, 0)
         order by o.id desc limit 200`,
  );
  return { days, open: open ?? { count: 0, amount: 0 }, unbalanced };
}

/** The same figures as CSV (the ops CLI's finance:report). */
export function financeCsv(days: FinanceDay[]): string {
  const lines = [
    "Tanggal,Metode,Diterima,Dikembalikan,Bersih",
    ...days.map((d) => [d.day, d.method, d.received, d.refunded, d.net].join(",")),
  ];
  return `${lines.join("\n")}\n`;
}
