import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { PAID_STATUSES } from "~/lib/order-status";
import { OWED_STATES } from "~/lib/refunds";

// Where every rupiah is (issue 36 item 5, /ops/finance): per WIB day and payment method, the money
// received, refunded and the net; the refunds still open; and the orders whose money does not add
// up (received ≠ kept + refunds), which the refund guard and the creating moves should make impossible.

/**
 * Where the money received stands (issue 45 item 7): every rupiah received is kept (the payment of
 * an order that is paid), given back, or owed back (an open refund); `difference` is what none of
 * them accounts for, 0 unless a row is wrong. 'Bersih' is the store's own money: received less what
 * was given back and what is still owed back.
 */
export type MoneyPicture = { received: number; kept: number; refunded: number; open: number; difference: number; net: number };

/** Owed and not yet given back. A refund awaiting finance's confirmation of its money, or closed because none came, owes nothing (issue 45 item 2). */
const OPEN_OWED_STATES = OWED_STATES.filter((state) => state !== "refunded");

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
    sql`select count(*)::int as count, coalesce(sum(amount), 0)::bigint as amount from refunds where state in ${[...OPEN_OWED_STATES]}`,
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
  const [allTime, period] = await Promise.all([moneyPicture(db, null), moneyPicture(db, { from, to })]);
  // Sums of rupiah pass int4's 2.1 billion (a day's receipts, the open refunds): bigint in SQL, which
  // the drivers hand as a string or a BigInt; a number here (exact far beyond any store's totals).
  return {
    days: days.map((d) => ({ ...d, received: Number(d.received), refunded: Number(d.refunded), net: Number(d.net) })),
    open: open ? { count: open.count, amount: Number(open.amount) } : { count: 0, amount: 0 },
    unbalanced: unbalanced.map((u) => ({ ...u, received: Number(u.received), kept: Number(u.kept), refunds: Number(u.refunds) })),
    allTime,
    period,
  };
}

/**
 * The picture of all the money (`period` null) or of a period's: the orders whose money first
 * arrived in it (their first receipt on one of its WIB days), with everything that happened to
 * their money since. Attributed by order, so that the picture of a period adds up as the whole does:
 * a refund given back later still belongs to the money it gives back.
 */
async function moneyPicture(db: Awaited<ReturnType<typeof getDb>>, period: { from: string; to: string } | null): Promise<MoneyPicture> {
  const cohort = period
    ? sql`with bounds as (
            select (${period.from}::date::timestamp at time zone 'Asia/Jakarta') as first,
                   ((${period.to}::date + 1)::timestamp at time zone 'Asia/Jakarta') as after),
          cohort as (
            select distinct r.order_id from order_receipts r, bounds b
             where r.created_at >= b.first and r.created_at < b.after
               and not exists (select 1 from order_receipts e where e.order_id = r.order_id and e.created_at < b.first)) `
    : sql``;
  const inScope = (column: string) => (period ? sql`${sql.raw(column)} in (select order_id from cohort)` : sql`true`);
  const [row] = await queryRows<Record<"received" | "kept" | "refunded" | "open", string | number>>(
    db,
    // Each sum on its own, not per order: a refund or a payment with no receipt behind it (a wrong
    // row) shows as a difference instead of vanishing from a join.
    sql`${cohort}select
          (select coalesce(sum(amount), 0) from order_receipts where ${inScope("order_id")})::bigint as received,
          (select coalesce(sum(r.amount), 0) from order_receipts r join orders o on o.id = r.order_id
            where r.source = 'payment' and o.status_id in ${[...PAID_STATUSES]} and ${inScope("r.order_id")})::bigint as kept,
          (select coalesce(sum(amount), 0) from refunds where state = 'refunded' and ${inScope("order_id")})::bigint as refunded,
          (select coalesce(sum(amount), 0) from refunds
            where state in ${[...OPEN_OWED_STATES]} and ${inScope("order_id")})::bigint as open`,
  );
  const sum = (column: "received" | "kept" | "refunded" | "open") => Number(row?.[column] ?? 0);
  const [received, kept, refunded, open] = [sum("received"), sum("kept"), sum("refunded"), sum("open")];
  return { received, kept, refunded, open, difference: received - kept - refunded - open, net: received - refunded - open };
}

/** The pictures as CSV lines (the ops CLI's finance:report prints them under the days). */
export function moneyPictureCsv(pictures: { scope: string; picture: MoneyPicture }[]): string {
  const lines = [
    "Cakupan,Diterima,Disimpan,Dikembalikan,Pengembalian Terbuka,Selisih,Bersih",
    ...pictures.map(({ scope, picture: p }) => [scope, p.received, p.kept, p.refunded, p.open, p.difference, p.net].join(",")),
  ];
  return `${lines.join("\n")}\n`;
}

/** The same figures as CSV (the ops CLI's finance:report). */
export function financeCsv(days: FinanceDay[]): string {
  const lines = [
    "Tanggal,Metode,Diterima,Dikembalikan,Bersih",
    ...days.map((d) => [d.day, d.method, d.received, d.refunded, d.net].join(",")),
  ];
  return `${lines.join("\n")}\n`;
}
