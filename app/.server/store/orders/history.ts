import { and, asc, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import {
  orderDeliveryProofs,
  orderEvents,
  orderProducts,
  orders,
  orderStatuses,
  paymentMethods,
  payments,
  uploads,
  type AppliedPromo,
} from "../../db/schema";
import { startOfDayWib } from "../../dates";
import { uploadUrl } from "./uploads";
import { readMaskedNik } from "../privacy";
import type { TransactionFilters } from "~/lib/transaction-filters";
import { isPaidStatus, ORDER_STATUS, STATUS_DISPLAY_ORDER } from "~/lib/order-status";

// What the buyer reads about their orders (spec §7 order history, detail, status-list): the list
// with its filters and pages, one order in full, and the statuses to filter by. Read only: every
// change goes through store/orders/orders.ts. Every query is scoped to the owner: someone else's order is
// simply not found.

export type OrderHistoryItem = {
  id: number;
  statusId: number;
  statusName: string;
  statusDate: Date;
  createdAt: Date;
  imageUrl: string | null;
  productTitle: string | null;
  quantity: number;
  /** What the goods cost after every discount ('Total Belanja'). */
  amount: number;
  /** What is paid ('Jumlah Transfer' when it differs from amount): amountToPay. */
  totalAmount: number;
  /** The gateway page to continue paying on; set by the payment branch (absent here: null). */
  redirectUrl: string | null;
  paymentMethodId: number | null;
};
export type OrderHistoryPage = { content: OrderHistoryItem[]; total: number; page: number; isLastPage: boolean };

export const ORDER_PAGE_SIZE = 10;
/** A no-JS reader who keeps following 'Muat lebih banyak' gets at most this many pages per document. */
export const MAX_RENDERED_ORDER_PAGES = 20;
const MAX_PAGE = 100_000;

/**
 * What the buyer pays for an order (issue 25): the total of its payment once opened (the VA cash
 * discount, the fee, a manual transfer's unique code), else the goods' total. The one amount every
 * screen, the ops CLI and the finance export show as paid.
 */
export const amountToPay = () => sql<number>`coalesce(${orders.paymentTotal}, ${orders.totalAmount})`;

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;

const STATUS_ORDER: readonly number[] = STATUS_DISPLAY_ORDER;

/** Spec §7 GET /order/status-list: the statuses an order can have, in the order an order meets them. */
export async function listOrderStatuses(): Promise<{ id: number; name: string }[]> {
  const db = await getDb();
  const rows = await db.select({ id: orderStatuses.id, name: orderStatuses.name }).from(orderStatuses).orderBy(asc(orderStatuses.id));
  const rank = (id: number) => (STATUS_ORDER.includes(id) ? STATUS_ORDER.indexOf(id) : STATUS_ORDER.length + id);
  return rows.sort((a, b) => rank(a.id) - rank(b.id));
}

/** The day after a YYYY-MM-DD day (the end of a WIB day is the start of the next one). */
function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

function whereOf(userId: number, filters: TransactionFilters): SQL {
  const conditions: SQL[] = [eq(orders.userId, userId)];
  if (filters.statusId !== undefined) conditions.push(eq(orders.statusId, filters.statusId));
  // The date the card shows (spec §2: the status date), whole WIB days from dateFrom through
  // dateTo: what a buyer filters by is what they see (decision 0036).
  if (filters.dateFrom && filters.dateTo) {
    conditions.push(gte(orders.statusChangedAt, startOfDayWib(filters.dateFrom)));
    conditions.push(lt(orders.statusChangedAt, startOfDayWib(nextDay(filters.dateTo))));
  }
  return and(...conditions)!;
}

/**
 * Spec §7 GET /order/history: the user's orders, newest first, 10 a page. Like the product list
 * (catalogue.listProductPages): pages 0..`through` as a no-JS document shows them (at most
 * MAX_RENDERED_ORDER_PAGES, the latest), or only page `through` for a script appending it; a page
 * past the end is the last page.
 */
export async function listOrderHistoryPages(
  userId: number,
  filters: TransactionFilters,
  through: number,
  options: { only?: boolean } = {},
): Promise<OrderHistoryPage[]> {
  if (!isId(userId)) return [{ content: [], total: 0, page: 0, isLastPage: true }];
  const db = await getDb();
  const where = whereOf(userId, filters);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(orders)
    .where(where);
  const lastPage = Math.max(0, Math.ceil(total / ORDER_PAGE_SIZE) - 1);
  const wanted = Number.isSafeInteger(through) && through > 0 ? Math.min(through, MAX_PAGE) : 0;
  const last = Math.min(wanted, lastPage);
  const first = options.only ? last : Math.max(0, last - MAX_RENDERED_ORDER_PAGES + 1);

  const rows = total
    ? await db
        .select({
          id: orders.id,
          statusId: orders.statusId,
          statusName: orderStatuses.name,
          statusDate: orders.statusChangedAt,
          createdAt: orders.createdAt,
          amount: orders.amount,
          totalAmount: amountToPay(),
          paymentMethodId: orders.paymentMethodId,
        })
        .from(orders)
        .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .offset(first * ORDER_PAGE_SIZE)
        .limit((last - first + 1) * ORDER_PAGE_SIZE)
    : [];

  // One product per order today (spec §9), but the card sums what there is.
  const products = rows.length
    ? await db
        .select({ orderId: orderProducts.orderId, title: orderProducts.title, imageUrl: orderProducts.imageUrl, qty: orderProducts.qty })
        .from(orderProducts)
        .where(
          inArray(
            orderProducts.orderId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(orderProducts.id))
    : [];
  const redirects = await openRedirectUrls(rows.map((r) => r.id));
  const items: OrderHistoryItem[] = rows.map((row) => {
    const own = products.filter((p) => p.orderId === row.id);
    return {
      ...row,
      imageUrl: own[0]?.imageUrl ?? null,
      productTitle: own[0]?.title ?? null,
      quantity: own.reduce((sum, p) => sum + p.qty, 0),
      redirectUrl: redirects.get(row.id) ?? null,
    };
  });

  const pages: OrderHistoryPage[] = [];
  for (let page = first; page <= last; page++) {
    const content = items.slice((page - first) * ORDER_PAGE_SIZE, (page - first + 1) * ORDER_PAGE_SIZE);
    pages.push({ content, total, page, isLastPage: page >= lastPage });
  }
  return pages;
}

/** Whether the user has ever ordered (the list's empty state, whatever the filters). */
export async function hasOrders(userId: number): Promise<boolean> {
  if (!isId(userId)) return false;
  const db = await getDb();
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId)).limit(1);
  return row !== undefined;
}

export type OrderDetailProduct = {
  id: number;
  productId: number;
  qty: number;
  title: string;
  imageUrl: string | null;
  price: number;
  priceOri: number;
  totalDiscount: number;
  promo: AppliedPromo[];
};

/** An order's lines as its detail shows them (the buyer's and the back office's), in the order they were added. */
export async function orderLines(db: Executor, orderId: number): Promise<OrderDetailProduct[]> {
  return db
    .select({
      id: orderProducts.id,
      productId: orderProducts.productId,
      qty: orderProducts.qty,
      title: orderProducts.title,
      imageUrl: orderProducts.imageUrl,
      price: orderProducts.price,
      priceOri: orderProducts.priceOri,
      totalDiscount: orderProducts.totalDiscount,
      promo: orderProducts.promo,
    })
    .from(orderProducts)
    .where(eq(orderProducts.orderId, orderId))
    .orderBy(asc(orderProducts.id));
}

export type OrderDetail = {
  id: number;
  invoiceId: string;
  createdAt: Date;
  statusId: number;
  statusName: string;
  paymentMethodId: number | null;
  paymentMethodName: string | null;
  tenor: number | null;
  /** What the goods cost after every discount ('Total Belanja'). */
  amount: number;
  /** What is paid ('Jumlah Transfer' when it differs from amount): the payment's total once opened (amountToPay). */
  totalAmount: number;
  /** How the payment's total differs from amount (the invoice's lines); null before a payment is opened. */
  payment: { discount: number; discountPercent: number | null; fee: number; uniqueCode: number | null } | null;
  priceOri: number;
  insentif: boolean;
  insentifValue: number;
  promoPegawaiValue: number;
  redirectUrl: string | null;
  buyerName: string;
  /** Masked ('3171********0001'): the full NIK is shown only in the incentive review (issue 35). */
  buyerNik: string;
  buyerPhoneNumber: string;
  buyerEmail: string;
  fullAddress: string;
  kelurahan: string;
  kecamatan: string;
  kota: string;
  provinsi: string;
  kodePos: string;
  note: string;
  /** Null without a KTP photo, or once retention deleted it (then ktpDeleted). */
  ktpUrl: string | null;
  ktpDeleted: boolean;
  /** The photos or PDFs the buyer sent with 'Konfirmasi Barang Sampai' (up to 5, in their order). */
  deliveryProofUrls: string[];
  /** When the payment was received (the first move to 300); null while unpaid. */
  paidAt: Date | null;
  orderProducts: OrderDetailProduct[];
};

/** Spec §7 GET /order/detail: one order of its owner; null for anyone else's or an unknown id. */
export async function getOwnedOrderDetail(orderId: number, userId: number): Promise<OrderDetail | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [order] = await db
    .select({
      order: orders,
      statusName: orderStatuses.name,
      paymentMethodName: paymentMethods.name,
      payment: {
        discount: payments.discount,
        discountPercent: payments.discountPercent,
        fee: payments.fee,
        uniqueCode: payments.uniqueCode,
      },
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, orders.paymentMethodId))
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return null;
  const products = await orderLines(db, orderId);
  const proofs = await db
    .select({ uploadId: orderDeliveryProofs.uploadId })
    .from(orderDeliveryProofs)
    .where(eq(orderDeliveryProofs.orderId, orderId))
    .orderBy(asc(orderDeliveryProofs.position));
  let proofIds = proofs.map((p) => p.uploadId);
  if (!proofIds.length) {
    // Orders finished before order_delivery_proofs: the one proof is named in the note of the event that finished the order.
    const [done] = await db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, ORDER_STATUS.DONE)))
      .orderBy(desc(orderEvents.id))
      .limit(1);
    proofIds = done?.note?.startsWith("bukti:") ? done.note.slice("bukti:".length).split(",").filter(Boolean) : [];
  }
  // Every way to paid passes through 300 (gateway, verified transfer, approved instalment).
  const [paid] = await db
    .select({ at: orderEvents.createdAt })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, ORDER_STATUS.PAYMENT_RECEIVED)))
    .orderBy(asc(orderEvents.id))
    .limit(1);
  const o = order.order;
  const [ktp] = o.ktpUploadId ? await db.select({ deletedAt: uploads.deletedAt }).from(uploads).where(eq(uploads.id, o.ktpUploadId)) : [];
  return {
    id: o.id,
    invoiceId: o.invoiceId,
    createdAt: o.createdAt,
    statusId: o.statusId,
    statusName: order.statusName,
    paymentMethodId: o.paymentMethodId,
    paymentMethodName: order.paymentMethodName,
    tenor: o.tenor,
    amount: o.amount,
    totalAmount: o.paymentTotal ?? o.totalAmount,
    payment: order.payment,
    priceOri: o.priceOri,
    insentif: o.insentif,
    insentifValue: o.insentifValue,
    promoPegawaiValue: o.promoPegawaiValue,
    redirectUrl: (await openRedirectUrls([o.id])).get(o.id) ?? null,
    buyerName: o.buyerName,
    buyerNik: readMaskedNik(o.buyerNik, { orderId: o.id }),
    buyerPhoneNumber: o.buyerPhoneNumber,
    buyerEmail: o.buyerEmail,
    fullAddress: o.fullAddress,
    kelurahan: o.kelurahan,
    kecamatan: o.kecamatan,
    kota: o.kota,
    provinsi: o.provinsi,
    kodePos: o.kodePos,
    note: o.note,
    ktpUrl: o.ktpUploadId && ktp && !ktp.deletedAt ? uploadUrl(o.ktpUploadId) : null,
    ktpDeleted: !!ktp?.deletedAt,
    deliveryProofUrls: proofIds.map(uploadUrl),
    paidAt: isPaidStatus(o.statusId) ? (paid?.at ?? o.statusChangedAt) : null,
    orderProducts: products,
  };
}

export type CostLine = { label: string; amount: number };

/**
 * The cost breakdown of an order, shared by the detail and the invoice: the list price, what the
 * product's own discount took, each ordinary promo, the government incentive and the employee
 * promo (each a negative amount), so that they add up to `amount`.
 */
export function costLines(
  order: Pick<OrderDetail, "priceOri" | "amount" | "insentifValue" | "promoPegawaiValue" | "orderProducts">,
): CostLine[] {
  const promos = order.orderProducts.flatMap((p) => p.promo);
  const known = promos.every((p) => p.kind !== undefined && p.amount !== undefined);
  const ordinary = known
    ? promos.filter((p) => p.kind === "ordinary" && (p.amount ?? 0) > 0).map((p) => ({ label: p.title, amount: -(p.amount ?? 0) }))
    : [];
  const discounts = -order.insentifValue - order.promoPegawaiValue + ordinary.reduce((sum, l) => sum + l.amount, 0);
  // Whatever the lines above do not explain is the product's own discount (older orders: all of it).
  const productDiscount = order.amount - order.priceOri - discounts;
  const lines: CostLine[] = [];
  if (productDiscount < 0) lines.push({ label: "Diskon Produk", amount: productDiscount });
  lines.push(...ordinary);
  return lines;
}

/**
 * The gateway page (Midtrans Snap) of each order's payment while that payment is open: the list and
 * the detail then offer 'Lanjutkan Pembayaran' to it (spec §2). Closed payments have none.
 */
async function openRedirectUrls(orderIds: number[]): Promise<Map<number, string>> {
  if (!orderIds.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ orderId: payments.orderId, redirectUrl: payments.redirectUrl })
    .from(payments)
    .where(and(inArray(payments.orderId, orderIds), isNull(payments.closedAt)));
  return new Map(rows.filter((r) => r.redirectUrl).map((r) => [r.orderId, r.redirectUrl!]));
}
