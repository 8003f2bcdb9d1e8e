import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { aliasedTable, and, desc, eq, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { orders, personalDataAccess, uploads, users } from "../../db/schema";
import { csvSafeCell } from "../../csv";
import { readNik } from "./nik";
import { openUpload } from "./uploads";

// Who opened which buyer's full NIK or KTP photo (issue 35, UU No. 27/2022): the only two ways to
// them in the back office write one row here per opening, in the same call that opens them, so there
// is no opening without its row. Admins read the log at /ops/privacy.

export type AccessItem = "nik" | "ktp" | "nik-search";
export type Opener = { operatorId: number; clientAddress: string };

async function record(opener: Opener, order: { id: number; userId: number }, item: AccessItem) {
  const db = await getDb();
  await db.insert(personalDataAccess).values({
    operatorId: opener.operatorId,
    orderId: order.id,
    buyerId: order.userId,
    item,
    clientAddress: opener.clientAddress.slice(0, 64),
  });
}

const isOrderId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/**
 * The order's NIK in clear for an operator who decides incentives (the route checks the role), on
 * record. Null when there is no such order.
 */
export async function openOrderNik(opener: Opener, orderId: number): Promise<string | null> {
  if (!isOrderId(orderId)) return null;
  const db = await getDb();
  const [order] = await db
    .select({ id: orders.id, userId: orders.userId, buyerNik: orders.buyerNik })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return null;
  await record(opener, order, "nik");
  return readNik(order.buyerNik, { orderId: order.id });
}

/**
 * A search by a full NIK (/ops/search?nik=, issue 45 item 13) tells the operator whose orders carry
 * that NIK: one row per order it showed, written by the search itself (back-office searchOrders).
 */
export async function recordNikSearch(opener: Opener, orderIds: number[]): Promise<void> {
  const ids = orderIds.filter(isOrderId);
  if (!ids.length) return;
  const db = await getDb();
  const found = await db.select({ id: orders.id, userId: orders.userId }).from(orders).where(inArray(orders.id, ids));
  if (!found.length) return;
  await db.insert(personalDataAccess).values(
    found.map((order) => ({
      operatorId: opener.operatorId,
      orderId: order.id,
      buyerId: order.userId,
      item: "nik-search" as const,
      clientAddress: opener.clientAddress.slice(0, 64),
    })),
  );
}

export type KtpPhoto = { state: "none" } | { state: "deleted"; deletedAt: Date } | { state: "present"; uploadId: string };

/** Whether the order has a KTP photo, and whether retention has deleted it (reads no bytes, records nothing). */
export async function orderKtpState(orderId: number): Promise<KtpPhoto> {
  if (!isOrderId(orderId)) return { state: "none" };
  const db = await getDb();
  const [row] = await db
    .select({ id: uploads.id, deletedAt: uploads.deletedAt })
    .from(orders)
    .innerJoin(uploads, eq(uploads.id, orders.ktpUploadId))
    .where(eq(orders.id, orderId));
  if (!row) return { state: "none" };
  return row.deletedAt ? { state: "deleted", deletedAt: row.deletedAt } : { state: "present", uploadId: row.id };
}

/** The order's KTP photo for an operator who decides incentives, on record; null when there is none (or it was deleted). */
export async function openOrderKtp(opener: Opener, orderId: number): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  if (!isOrderId(orderId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      orderId: orders.id,
      userId: orders.userId,
      id: uploads.id,
      contentType: uploads.contentType,
      bytes: uploads.bytes,
      keyId: uploads.keyId,
      deletedAt: uploads.deletedAt,
    })
    .from(orders)
    .innerJoin(uploads, eq(uploads.id, orders.ktpUploadId))
    .where(eq(orders.id, orderId));
  if (!row || row.deletedAt) return null;
  await record(opener, { id: row.orderId, userId: row.userId }, "ktp");
  return { contentType: row.contentType, bytes: openUpload(row) };
}

export type AccessFilter = { operator?: string; buyer?: string };
export type AccessEntry = {
  id: number;
  at: Date;
  operatorEmail: string;
  buyerEmail: string;
  buyerName: string;
  orderId: number;
  invoiceId: string;
  item: AccessItem;
  clientAddress: string;
};

export const ACCESS_ITEM_LABELS: Record<AccessItem, string> = {
  nik: "NIK lengkap",
  ktp: "Foto KTP",
  "nik-search": "Pencarian NIK lengkap",
};
export const ACCESS_PAGE_SIZE = 50;

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const operator = aliasedTable(users, "operator");
const buyer = aliasedTable(users, "buyer");

function filterConditions(filter: AccessFilter): SQL[] {
  const conditions: SQL[] = [];
  const op = filter.operator?.trim();
  const who = filter.buyer?.trim();
  if (op) conditions.push(ilike(operator.email, `%${likeEscape(op)}%`));
  if (who) conditions.push(or(ilike(buyer.email, `%${likeEscape(who)}%`), ilike(buyer.fullname, `%${likeEscape(who)}%`))!);
  return conditions;
}

async function selectEntries(conditions: SQL[], limit: number): Promise<AccessEntry[]> {
  const db = await getDb();
  return db
    .select({
      id: personalDataAccess.id,
      at: personalDataAccess.createdAt,
      operatorEmail: operator.email,
      buyerEmail: buyer.email,
      buyerName: buyer.fullname,
      orderId: personalDataAccess.orderId,
      invoiceId: orders.invoiceId,
      item: personalDataAccess.item,
      clientAddress: personalDataAccess.clientAddress,
    })
    .from(personalDataAccess)
    .innerJoin(operator, eq(operator.id, personalDataAccess.operatorId))
    .innerJoin(buyer, eq(buyer.id, personalDataAccess.buyerId))
    .innerJoin(orders, eq(orders.id, personalDataAccess.orderId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(personalDataAccess.id))
    .limit(limit);
}

/** One page of the log, newest first; `before` is the last id of the previous page ('Muat lebih banyak'). */
export async function listPersonalDataAccess(
  filter: AccessFilter,
  before?: number,
): Promise<{ entries: AccessEntry[]; nextBefore: number | null }> {
  const conditions = filterConditions(filter);
  if (before !== undefined && isOrderId(before)) conditions.push(lt(personalDataAccess.id, before));
  const rows = await selectEntries(conditions, ACCESS_PAGE_SIZE + 1);
  const entries = rows.slice(0, ACCESS_PAGE_SIZE);
  return { entries, nextBefore: rows.length > ACCESS_PAGE_SIZE ? entries.at(-1)!.id : null };
}

export const ACCESS_EXPORT_HEADER = ["Waktu", "Operator", "Pembeli", "E-mail Pembeli", "Invoice", "Data", "Alamat IP"];
const EXPORT_BATCH = 500;

const wib = new Intl.DateTimeFormat("sv-SE", {
  timeZone: "Asia/Jakarta",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

async function* exportRows(filter: AccessFilter): AsyncGenerator<string[]> {
  let before: number | null = null;
  for (;;) {
    const conditions = filterConditions(filter);
    if (before !== null) conditions.push(lt(personalDataAccess.id, before));
    const batch = await selectEntries(conditions, EXPORT_BATCH);
    for (const e of batch)
      yield [
        `${wib.format(e.at)} WIB`,
        e.operatorEmail,
        e.buyerName,
        e.buyerEmail,
        e.invoiceId,
        ACCESS_ITEM_LABELS[e.item],
        e.clientAddress,
      ];
    if (batch.length < EXPORT_BATCH) return;
    before = batch.at(-1)!.id;
  }
}

/** The log (with the page's filters) as CSV, newest first, streamed as it is read. */
export function exportPersonalDataAccessCsv(filter: AccessFilter): Readable {
  const csv = stringify({ header: true, columns: ACCESS_EXPORT_HEADER, cast: { string: csvSafeCell } });
  return Readable.from(exportRows(filter)).pipe(csv);
}

/** How many openings the log holds for an order (the tests; the order page could show it). */
export async function countOrderAccess(orderId: number): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(personalDataAccess)
    .where(eq(personalDataAccess.orderId, orderId));
  return row?.n ?? 0;
}
