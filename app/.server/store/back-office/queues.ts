import { and, asc, desc, eq, gte, ilike, inArray, lt, ne, sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import {
  balanceEntries,
  companies,
  orderEvents,
  orderProducts,
  orders,
  orderStatuses,
  paymentMethods,
  payments,
  uploads,
  users,
} from "../../db/schema";
import { ORDER_STATUS } from "~/lib/order-status";
import { startOfDayWib } from "../../dates";
import { amountToPay, costLines, type CostLine } from "../orders";
import { type KtpPhoto, nikHashOf, orderKtpState, readMaskedNik, readNik } from "../privacy";

// What the back office reads (issue 17): the queues with their counts and oldest item, one queue's
// page, one order with everything an operator decides on, the search. Reads only: every change goes
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

/** Orders matching every given criterion, newest first. */
export async function searchOrders(search: OrderSearch, page: number): Promise<Paged<SearchItem>> {
  const scans = !!(search.invoice || search.email);
  return listOrders(await searchConditions(search), pageOf(page), "newest", scans) as Promise<Paged<SearchItem>>;
}

export type TimelineEntry = {
  at: Date;
  fromStatus: number | null;
  toStatus: number;
  toStatusName: string;
  actor: string;
  who: string;
  note: string | null;
};

export type OpsOrderDetail = {
  id: number;
  invoiceId: string;
  statusId: number;
  statusName: string;
  createdAt: Date;
  statusChangedAt: Date;
  buyer: {
    name: string;
    email: string;
    phone: string;
    /** Masked ('3171********0001'); the full NIK opens only on record (store/privacy openOrderNik). */
    nik: string;
    nip: string | null;
    dadName: string | null;
    accountEmail: string;
    accountName: string;
    accountNip: string;
    company: string;
  };
  products: { title: string; qty: number; price: number; priceOri: number }[];
  priceOri: number;
  amount: number;
  totalAmount: number;
  insentif: boolean;
  insentifValue: number;
  promoPegawai: boolean;
  promoPegawaiValue: number;
  costLines: CostLine[];
  note: string;
  address: { full: string; kelurahan: string; kecamatan: string; kota: string; provinsi: string; kodePos: string };
  paymentMethodName: string | null;
  tenor: number | null;
  payment: {
    type: string;
    vaNumber: string | null;
    amount: number;
    discount: number;
    fee: number;
    uniqueCode: number | null;
    total: number;
    expiresAt: Date | null;
    markedPaidAt: Date | null;
    paidAt: Date | null;
  } | null;
  /** The KTP photo's state; its bytes open only through openOrderKtp (on record). */
  ktp: KtpPhoto;
  transferProofUploadId: string | null;
  deliveryPhotoUploadIds: string[];
  courier: string | null;
  trackingNumber: string | null;
  sameNik: { id: number; invoiceId: string; statusId: number; statusName: string; buyerEmail: string; createdAt: Date }[];
  timeline: TimelineEntry[];
};

/** 'buyer:12' → the buyer, 'operator:5' → that operator's e-mail, 'ops' → the CLI, gateway, system. */
function describeActor(actor: string, emails: Map<number, string>): string {
  const [kind, id] = actor.split(":");
  const email = id ? emails.get(Number(id)) : undefined;
  if (kind === "buyer") return `Pembeli${email ? ` (${email})` : ""}`;
  if (kind === "operator") return `Operator ${email ?? `#${id}`}`;
  if (actor === "ops") return "Operator (CLI)";
  if (actor === "gateway") return "Gateway pembayaran";
  if (actor === "system") return "Sistem";
  return actor;
}

/** Everything about one order for the operator; null when there is no such order. */
export async function getOrderForOps(orderId: number): Promise<OpsOrderDetail | null> {
  if (!Number.isSafeInteger(orderId) || orderId < 1 || orderId > 2_147_483_647) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      order: orders,
      statusName: orderStatuses.name,
      paymentMethodName: paymentMethods.name,
      account: { email: users.email, fullname: users.fullname, nip: users.nip },
      company: companies.name,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, orders.paymentMethodId))
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const o = row.order;
  const products = await db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId)).orderBy(asc(orderProducts.id));
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  const events = await db
    .select({
      at: orderEvents.createdAt,
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      toStatusName: orderStatuses.name,
      actor: orderEvents.actor,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orderEvents.toStatus))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));
  const actorIds = [...new Set(events.map((e) => Number(e.actor.split(":")[1])).filter((n) => Number.isSafeInteger(n) && n > 0))];
  const people = actorIds.length
    ? await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, actorIds))
    : [];
  const emails = new Map(people.map((p) => [p.id, p.email]));
  const sameNik = await db
    .select({
      id: orders.id,
      invoiceId: orders.invoiceId,
      statusId: orders.statusId,
      statusName: orderStatuses.name,
      buyerEmail: orders.buyerEmail,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(and(eq(orders.buyerNikHash, o.buyerNikHash ?? (await nikHashOf(db, readNik(o.buyerNik)))), ne(orders.id, orderId)))
    .orderBy(desc(orders.createdAt))
    .limit(50);
  // Delivery photos are named in the notes of the buyer's confirmation ('bukti:<upload id>').
  const proofIds = events.flatMap((e) => (e.note?.startsWith("bukti:") ? [e.note.slice("bukti:".length)] : []));
  const deliveryPhotos = proofIds.length
    ? (
        await db
          .select({ id: uploads.id })
          .from(uploads)
          .where(and(inArray(uploads.id, proofIds), eq(uploads.purpose, "delivery-proof")))
      ).map((u) => u.id)
    : [];
  const detailProducts = products.map((p) => ({
    id: p.id,
    productId: p.productId,
    qty: p.qty,
    title: p.title,
    imageUrl: p.imageUrl,
    price: p.price,
    priceOri: p.priceOri,
    totalDiscount: p.totalDiscount,
    promo: p.promo,
  }));
  return {
    id: o.id,
    invoiceId: o.invoiceId,
    statusId: o.statusId,
    statusName: row.statusName,
    createdAt: o.createdAt,
    statusChangedAt: o.statusChangedAt,
    buyer: {
      name: o.buyerName,
      email: o.buyerEmail,
      phone: o.buyerPhoneNumber,
      nik: readMaskedNik(o.buyerNik),
      nip: o.buyerNip,
      dadName: o.buyerDadName,
      accountEmail: row.account.email,
      accountName: row.account.fullname,
      accountNip: row.account.nip,
      company: row.company,
    },
    products: products.map((p) => ({ title: p.title, qty: p.qty, price: p.price, priceOri: p.priceOri })),
    priceOri: o.priceOri,
    amount: o.amount,
    totalAmount: o.paymentTotal ?? o.totalAmount,
    insentif: o.insentif,
    insentifValue: o.insentifValue,
    promoPegawai: o.promoPegawai,
    promoPegawaiValue: o.promoPegawaiValue,
    costLines: costLines({
      priceOri: o.priceOri,
      amount: o.amount,
      insentifValue: o.insentifValue,
      promoPegawaiValue: o.promoPegawaiValue,
      orderProducts: detailProducts,
    }),
    note: o.note,
    address: {
      full: o.fullAddress,
      kelurahan: o.kelurahan,
      kecamatan: o.kecamatan,
      kota: o.kota,
      provinsi: o.provinsi,
      kodePos: o.kodePos,
    },
    paymentMethodName: row.paymentMethodName,
    tenor: o.tenor,
    payment: payment
      ? {
          type: payment.type,
          vaNumber: payment.vaNumber,
          amount: payment.amount,
          discount: payment.discount,
          fee: payment.fee,
          uniqueCode: payment.uniqueCode,
          total: payment.total,
          expiresAt: payment.expiresAt,
          markedPaidAt: payment.markedPaidAt,
          paidAt: payment.paidAt,
        }
      : null,
    ktp: await orderKtpState(o.id),
    transferProofUploadId: payment?.proofUploadId ?? null,
    deliveryPhotoUploadIds: deliveryPhotos,
    courier: o.courier,
    trackingNumber: o.trackingNumber,
    sameNik,
    timeline: events.map((e) => ({ ...e, who: describeActor(e.actor, emails) })),
  };
}
