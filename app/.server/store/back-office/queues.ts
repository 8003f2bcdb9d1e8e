import { and, asc, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { balanceEntries, orderProducts, orders, orderStatuses, users } from "../../db/schema";
import { ORDER_STATUS } from "~/lib/order-status";
import { startOfDayWib } from "../../dates";
import { amountToPay } from "../orders";
import { nikHashOf, type Opener, recordNikSearch } from "../privacy";

// What the back office reads (issue 17): the queues with their counts and oldest item, one queue's
// page, the search (one order for its decision: order-detail.ts). Reads only: every change goes
// through order-ops.ts (orders) and balance.ts (withdrawals).

export const QUEUES = {
  insentif: { statusId: ORDER_STATUS.INCENTIVE_REVIEW, title: "Verifikasi Insentif" },
  cicilan: { statusId: ORDER_STATUS.INSTALLMENT_REVIEW, title: "Persetujuan Cicilan" },
  transfer: { statusId: ORDER_STATUS.TRANSFER_REVIEW, title: "Bukti Transfer" },
  kirim: { statusId: ORDER_STATUS.PAYMENT_RECEIVED, title: "Siap Dikirim" },
} as const;
export type OrderQueue = keyof typeof QUEUES;
export const WITHDRAWAL_QUEUE_TITLE = "Penarikan Saldo";
export const OPS_PAGE_SIZE = 20;

export const isOrderQueue = (name: string): name is OrderQueue => Object.hasOwn(QUEUES, name);

export type QueueSummary = { key: OrderQueue | "penarikan"; title: string; count: number; oldest: Date | null };

/** Every queue with how many wait and since when the oldest waits (status entered, or requested). */
export async function queueSummaries(): Promise<QueueSummary[]> {
  const db = await getDb();
  const statusIds = Object.values(QUEUES).map((q) => q.statusId);
  const rows = await db
    .select({ statusId: orders.statusId, count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${orders.statusChangedAt})` })
    .from(orders)
    .where(inArray(orders.statusId, statusIds))
    .groupBy(orders.statusId);
  const [withdrawals] = await db
    .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${balanceEntries.createdAt})` })
    .from(balanceEntries)
    .where(and(eq(balanceEntries.kind, "withdrawal"), eq(balanceEntries.status, "Dalam Proses")));
  const asDate = (v: string | Date | null | undefined) => (v ? new Date(v) : null);
  const summaries: QueueSummary[] = (Object.entries(QUEUES) as [OrderQueue, (typeof QUEUES)[OrderQueue]][]).map(([key, q]) => {
    const row = rows.find((r) => r.statusId === q.statusId);
    return { key, title: q.title, count: Number(row?.count ?? 0), oldest: asDate(row?.oldest) };
  });
  summaries.push({
    key: "penarikan",
    title: WITHDRAWAL_QUEUE_TITLE,
    count: Number(withdrawals?.count ?? 0),
    oldest: asDate(withdrawals?.oldest),
  });
  return summaries;
}

export type QueueItem = {
  id: number;
  invoiceId: string;
  buyerName: string;
  buyerEmail: string;
  productTitle: string;
  totalAmount: number;
  waitingSince: Date;
  createdAt: Date;
};
export type Paged<T> = { items: T[]; page: number; pageCount: number; total: number };

const pageOf = (page: number) => (Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1);

/** One queue, oldest first (by when the order entered the status), OPS_PAGE_SIZE per page. */
export async function listQueue(queue: OrderQueue, page: number): Promise<Paged<QueueItem>> {
  return listOrders([eq(orders.statusId, QUEUES[queue].statusId)], pageOf(page), "oldest-in-status");
}

/**
 * `countInPass`: the count comes from the page's own pass (a window count) — for a search by part of
 * an invoice or e-mail, which no index serves: the table is scanned once, not twice. Otherwise it is
 * its own query, which an index answers alone while the page stops after its rows.
 */
async function listOrders(
  conditions: SQL[],
  page: number,
  order: "oldest-in-status" | "newest",
  countInPass = false,
): Promise<Paged<QueueItem>> {
  const db = await getDb();
  const where = conditions.length ? and(...conditions) : undefined;
  const ordering = () => (order === "newest" ? [desc(orders.createdAt), desc(orders.id)] : [asc(orders.statusChangedAt), asc(orders.id)]);
  // The page's ids first, read in order from an index (orders_status_changed_idx, orders_created_idx),
  // then only those 20 orders with their product: the 500th page of a queue of 20,000 otherwise
  // sorts the whole queue and looks up the product of every order it skips (bench:dashboard, issue 37).
  const pageIds = db
    .select({ id: orders.id, total: (countInPass ? sql<number>`count(*) over ()` : sql<number>`null::bigint`).as("total") })
    .from(orders)
    .where(where)
    .orderBy(...ordering())
    .limit(OPS_PAGE_SIZE)
    .offset((page - 1) * OPS_PAGE_SIZE)
    .as("page_ids");
  const items = await db
    .select({
      id: orders.id,
      invoiceId: orders.invoiceId,
      buyerName: orders.buyerName,
      buyerEmail: orders.buyerEmail,
      statusId: orders.statusId,
      statusName: orderStatuses.name,
      productTitle: sql<string>`coalesce((select ${orderProducts.title} from ${orderProducts} where ${orderProducts.orderId} = ${orders.id} order by ${orderProducts.id} limit 1), '-')`,
      totalAmount: amountToPay(),
      waitingSince: orders.statusChangedAt,
      createdAt: orders.createdAt,
      total: pageIds.total,
    })
    .from(pageIds)
    .innerJoin(orders, eq(orders.id, pageIds.id))
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .orderBy(...ordering());
  // Past the last page no row carries the window's count: counted on its own.
  const count =
    countInPass && items.length
      ? Number(items[0]!.total)
      : countInPass && page === 1
        ? 0
        : Number(
            (
              (await db
                .select({ total: sql<number>`count(*)::int` })
                .from(orders)
                .where(where)) as [{ total: number }]
            )[0].total,
          );
  return {
    items: items.map(({ total: _, ...item }) => item),
    page,
    total: count,
    pageCount: Math.max(1, Math.ceil(count / OPS_PAGE_SIZE)),
  };
}

export type WithdrawalItem = { id: number; email: string; fullname: string; amount: number; createdAt: Date };

/** Withdrawals 'Dalam Proses', oldest first. */
export async function listWithdrawalsInProcess(page: number): Promise<Paged<WithdrawalItem>> {
  const db = await getDb();
  const p = pageOf(page);
  const where = and(eq(balanceEntries.kind, "withdrawal"), eq(balanceEntries.status, "Dalam Proses"));
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(balanceEntries)
    .where(where)) as [{ total: number }];
  const items = await db
    .select({
      id: balanceEntries.id,
      email: users.email,
      fullname: users.fullname,
      amount: balanceEntries.amount,
      createdAt: balanceEntries.createdAt,
    })
    .from(balanceEntries)
    .innerJoin(users, eq(users.id, balanceEntries.userId))
    .where(where)
    .orderBy(asc(balanceEntries.createdAt), asc(balanceEntries.id))
    .limit(OPS_PAGE_SIZE)
    .offset((p - 1) * OPS_PAGE_SIZE);
  const count = Number(total);
  return { items, page: p, total: count, pageCount: Math.max(1, Math.ceil(count / OPS_PAGE_SIZE)) };
}

export type OrderSearch = { invoice?: string; email?: string; nik?: string; statusId?: number; dateFrom?: string; dateTo?: string };

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The conditions of a search (also the export's): parts of the invoice or e-mail, NIK, status, WIB days. */
export async function searchConditions(search: OrderSearch): Promise<SQL[]> {
  const conditions: SQL[] = [];
  if (search.invoice) conditions.push(ilike(orders.invoiceId, `%${likeEscape(search.invoice)}%`));
  if (search.email) conditions.push(ilike(orders.buyerEmail, `%${likeEscape(search.email)}%`));
  // The NIK is sealed: the search compares its keyed hash (issue 35).
  if (search.nik) conditions.push(eq(orders.buyerNikHash, await nikHashOf(await getDb(), search.nik)));
  if (search.statusId !== undefined) conditions.push(eq(orders.statusId, search.statusId));
  if (search.dateFrom) conditions.push(gte(orders.createdAt, startOfDayWib(search.dateFrom)));
  if (search.dateTo) conditions.push(lt(orders.createdAt, startOfDayWib(nextDay(search.dateTo))));
  return conditions;
}

export type SearchItem = QueueItem & { statusId: number; statusName: string };

/**
 * Orders matching every given criterion, newest first. A search by NIK names whose orders carry that
 * NIK: the orders it shows go into the personal-data access log under `opener` (issue 45 item 13),
 * so such a search needs one.
 */
export async function searchOrders(search: OrderSearch, page: number, opener?: Opener): Promise<Paged<SearchItem>> {
  if (search.nik && !opener) throw new Error("searchOrders: a search by NIK is recorded, and needs the operator");
  const scans = !!(search.invoice || search.email);
  const found = (await listOrders(await searchConditions(search), pageOf(page), "newest", scans)) as Paged<SearchItem>;
  if (search.nik && opener)
    await recordNikSearch(
      opener,
      found.items.map((o) => o.id),
    );
  return found;
}
