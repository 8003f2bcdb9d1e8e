import crypto from "node:crypto";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import {
  type AddressInput,
  balanceEntries,
  checkoutDrafts,
  companies,
  dataExports,
  districts,
  notifications,
  orderEvents,
  orderProducts,
  orders,
  orderStatuses,
  paymentMethods,
  payments,
  provinces,
  refunds,
  regencies,
  savedAddresses,
  uploads,
  users,
  villages,
} from "../../db/schema";
import { DataDecryptionError, decryptBytes, encryptBytes } from "../../data-crypto";
import { log } from "../../log";
import { env } from "../../env";
import { zipStored, type ZipEntry } from "../../zip";
import { DATA_EXPORT_HOURS } from "~/lib/data-export-link";
import { defineMail, enqueueMessage, renderEmail } from "../messages";
import { REFUND_STATE_NAMES } from "~/lib/refunds";
import { type NamedAddress, renderSummary, SUMMARY_FILE } from "./data-summary";
import { readNik } from "./nik";
import { openUpload } from "./uploads";

// 'Unduh Data Saya' (issue 35 item 4, decision 0059): the employee's copy of what the store holds on
// them. A request is a row and a job of the mail queue; the job builds the ZIP (a readable summary,
// JSON, their own photos), seals it like an upload and e-mails the link, so building it never holds up a page and a
// crash retries it. The link opens to its owner only, for 24 hours; then the row is deleted.

// How long a link lives: in ~/lib, as the profile names it too.
export { DATA_EXPORT_HOURS };
/** A new request within this time of the last one gives that one back (no second job). */
const REQUEST_AGAIN_AFTER_MS = 60 * 60 * 1000;

export const dataExportPath = (id: string) => `/profile/data-saya/${id}`;
const exportContext = (id: string) => `data-export:${id}`;
const EXPORT_ID = /^[A-Za-z0-9_-]{43}$/;

export type DataExportState = { id: string; requestedAt: Date; expiresAt: Date; ready: boolean; link: string | null };

/** The newest request of `userId` not yet expired (null: none). */
export function latestDataExport(userId: number): Promise<DataExportState | null> {
  return findDataExport(userId);
}

/**
 * Request `id` of `userId` while it is valid (null: unknown, another's or expired): the one the
 * e-mailed link names, which the profile offers after the login that link asked for.
 */
export function dataExportOf(userId: number, id: string): Promise<DataExportState | null> {
  if (typeof id !== "string" || !EXPORT_ID.test(id)) return Promise.resolve(null);
  return findDataExport(userId, id);
}

async function findDataExport(userId: number, id?: string): Promise<DataExportState | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: dataExports.id, requestedAt: dataExports.requestedAt, expiresAt: dataExports.expiresAt, readyAt: dataExports.readyAt })
    .from(dataExports)
    .where(
      and(eq(dataExports.userId, userId), gt(dataExports.expiresAt, new Date()), id === undefined ? undefined : eq(dataExports.id, id)),
    )
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  if (!row) return null;
  const ready = row.readyAt !== null;
  return { id: row.id, requestedAt: row.requestedAt, expiresAt: row.expiresAt, ready, link: ready ? dataExportPath(row.id) : null };
}

/**
 * Asks for a copy of the account's data: a row and its job, in one transaction. Within an hour of
 * the last request that one is given back instead (a double click, a reload: no second ZIP).
 */
export async function requestDataExport(userId: number): Promise<DataExportState> {
  const latest = await latestDataExport(userId);
  if (latest && Date.now() - latest.requestedAt.getTime() < REQUEST_AGAIN_AFTER_MS) return latest;
  const db = await getDb();
  const id = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  const expiresAt = new Date(now.getTime() + DATA_EXPORT_HOURS * 3600_000);
  await db.transaction(async (tx) => {
    await tx.insert(dataExports).values({ id, userId, requestedAt: now, expiresAt });
    await enqueueMessage(tx, "mail", { kind: "data-export", exportId: id }, { key: `data-export:${id}` });
  });
  return { id, requestedAt: now, expiresAt, ready: false, link: null };
}

/** What openDataExport answers for an archive sealed under a key no longer in DATA_ENCRYPTION_KEY (issue 45 item 13). */
export const DATA_EXPORT_UNAVAILABLE = "unavailable";
/** What the link then says (a 404): the file is gone for good; a new one is asked for on the profile. */
export const DATA_EXPORT_GONE = "Berkas data ini sudah tidak tersedia. Minta unduhan baru dengan tombol Unduh Data Saya di halaman Profil.";

/**
 * The ZIP of export `id` for its owner `userId` while it is valid (null: unknown, another's, expired
 * or not built yet). DATA_EXPORT_UNAVAILABLE: it exists but no key in force opens it any more (the
 * key it was sealed under was dropped after a rotation, which does not re-seal archives): the owner
 * is told the file is no longer available and asks again, instead of a 500.
 */
export async function openDataExport(id: string, userId: number): Promise<Uint8Array | typeof DATA_EXPORT_UNAVAILABLE | null> {
  if (typeof id !== "string" || !EXPORT_ID.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ bytes: dataExports.bytes, keyId: dataExports.keyId })
    .from(dataExports)
    .where(
      and(eq(dataExports.id, id), eq(dataExports.userId, userId), gt(dataExports.expiresAt, new Date()), isNotNull(dataExports.readyAt)),
    )
    .limit(1);
  if (!row?.bytes) return null;
  const stored = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
  try {
    return decryptBytes(stored, row.keyId, exportContext(id));
  } catch (error) {
    if (!(error instanceof DataDecryptionError)) throw error;
    // The key id only: the export's id is the link's secret.
    log.warn({ keyId: row.keyId }, "data export sealed under a key no longer in DATA_ENCRYPTION_KEY");
    return DATA_EXPORT_UNAVAILABLE;
  }
}

/** Deletes the requests past their 24 hours (the scheduled job, once a minute across instances). */
export async function deleteExpiredDataExports(): Promise<number> {
  const db = await getDb();
  const gone = await db.delete(dataExports).where(lte(dataExports.expiresAt, new Date())).returning({ id: dataExports.id });
  return gone.length;
}

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "application/pdf": "pdf" };

/** An address with its regions' names beside their codes (issue 43 item 6: "kotaId":"32.73" alone says nothing). */
async function namedAddress(db: Executor, address: AddressInput | null | undefined): Promise<NamedAddress | null> {
  if (!address) return null;
  const nameOf = async (table: typeof provinces | typeof regencies | typeof districts | typeof villages, code: string) => {
    if (!code) return null;
    const [found] = await db.select({ name: table.name }).from(table).where(eq(table.code, code));
    return found?.name ?? null;
  };
  return {
    fullAddress: address.fullAddress,
    provinsiId: address.provinsiId,
    provinsi: await nameOf(provinces, address.provinsiId),
    kotaId: address.kotaId,
    kota: await nameOf(regencies, address.kotaId),
    kecamatanId: address.kecamatanId,
    kecamatan: await nameOf(districts, address.kecamatanId),
    kelurahanId: address.kelurahanId,
    kelurahan: await nameOf(villages, address.kelurahanId),
    kodePos: address.kodePos,
  };
}

/**
 * The archive's files: first the readable summary in Indonesian (data-summary.ts), then the same
 * data as JSON for programs (the account, addresses, orders with their payments, status history and
 * refunds, notifications, balance), and the user's own photos in clear.
 */
export async function collectAccountData(db: Executor, userId: number): Promise<ZipEntry[]> {
  const [account] = await db
    .select({
      namaLengkap: users.fullname,
      email: users.email,
      nomorHp: users.phoneNo,
      nip: users.nip,
      perusahaan: companies.name,
      terdaftar: users.createdAt,
      terverifikasi: users.verifiedAt,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  const [saved] = await db.select({ address: savedAddresses.address }).from(savedAddresses).where(eq(savedAddresses.userId, userId));
  const [draft] = await db.select({ address: checkoutDrafts.address }).from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
  // Every status by the name the store's one status table gives it (order_statuses).
  const statusNames = new Map((await db.select().from(orderStatuses)).map((s) => [s.id, s.name]));
  const statusName = (id: number) => statusNames.get(id) ?? `Status ${id}`;
  const methodNames = new Map(
    (await db.select({ id: paymentMethods.id, name: paymentMethods.name }).from(paymentMethods)).map((m) => [m.id, m.name]),
  );
  const orderRows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.id));
  const orderIds = orderRows.map((o) => o.id);
  const products = orderIds.length ? await db.select().from(orderProducts).where(inArray(orderProducts.orderId, orderIds)) : [];
  const paymentRows = orderIds.length ? await db.select().from(payments).where(inArray(payments.orderId, orderIds)) : [];
  const refundRows = orderIds.length
    ? await db.select().from(refunds).where(inArray(refunds.orderId, orderIds)).orderBy(asc(refunds.id))
    : [];
  const events = orderIds.length
    ? await db
        .select({ orderId: orderEvents.orderId, dari: orderEvents.fromStatus, ke: orderEvents.toStatus, waktu: orderEvents.createdAt })
        .from(orderEvents)
        .where(inArray(orderEvents.orderId, orderIds))
        .orderBy(asc(orderEvents.id))
    : [];
  const ordersOut = orderRows.map(({ buyerNik, buyerNikHash: _hash, idempotencyKey: _key, ...order }) => ({
    ...order,
    status: statusName(order.statusId),
    metodePembayaran: order.paymentMethodId === null ? null : (methodNames.get(order.paymentMethodId) ?? null),
    // The person's own NIK, in clear: it is theirs (an erased or retention-emptied value stays empty).
    buyerNik: buyerNik ? readNik(buyerNik, { orderId: order.id }) : null,
    produk: products.filter((p) => p.orderId === order.id).map(({ orderId: _id, ...p }) => p),
    pembayaran: paymentRows.find((p) => p.orderId === order.id) ?? null,
    riwayatStatus: events
      .filter((e) => e.orderId === order.id)
      .map((e) => ({
        dari: e.dari,
        dariStatus: e.dari === null ? null : statusName(e.dari),
        ke: e.ke,
        keStatus: statusName(e.ke),
        waktu: e.waktu,
      })),
    // The bank account the buyer gave for a refund is theirs too (issue 43 item 6).
    pengembalianDana: refundRows
      .filter((r) => r.orderId === order.id)
      .map(({ orderId: _id, ...r }) => ({ ...r, statusNama: REFUND_STATE_NAMES[r.state] })),
  }));
  const notes = await db
    .select({
      judul: notifications.title,
      isi: notifications.body,
      tautan: notifications.link,
      waktu: notifications.createdAt,
      dibaca: notifications.readAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.id));
  const ledger = await db
    .select({
      jenis: balanceEntries.kind,
      judul: balanceEntries.title,
      keterangan: balanceEntries.description,
      jumlah: balanceEntries.amount,
      status: balanceEntries.status,
      waktu: balanceEntries.createdAt,
    })
    .from(balanceEntries)
    .where(eq(balanceEntries.userId, userId))
    .orderBy(asc(balanceEntries.id));
  const balance = ledger.reduce((sum, e) => (e.jenis === "credit" ? sum + e.jumlah : e.status === "Dibatalkan" ? sum : sum - e.jumlah), 0);
  const files = await db
    .select({
      id: uploads.id,
      purpose: uploads.purpose,
      contentType: uploads.contentType,
      bytes: uploads.bytes,
      keyId: uploads.keyId,
      createdAt: uploads.createdAt,
    })
    .from(uploads)
    .where(and(eq(uploads.ownerId, userId), isNull(uploads.deletedAt)))
    .orderBy(asc(uploads.createdAt));
  const photos = files.map((file) => ({
    name: `foto/${file.purpose}-${file.id}.${EXTENSIONS[file.contentType] ?? "bin"}`,
    file,
  }));
  const alamatTersimpan = await namedAddress(db, saved?.address);
  const alamatCheckout = await namedAddress(db, draft?.address);
  const summary = renderSummary({
    madeAt: new Date(),
    account: account ?? null,
    alamatTersimpan,
    alamatCheckout,
    orders: ordersOut,
    saldo: balance,
    riwayatSaldo: ledger,
    notifikasi: notes,
    foto: photos.map(({ name, file }) => ({ name, purpose: file.purpose, createdAt: file.createdAt })),
  });
  return [
    { name: SUMMARY_FILE, data: new TextEncoder().encode(summary) },
    { name: "akun.json", data: json(account ?? null) },
    { name: "alamat.json", data: json({ alamatTersimpan, alamatCheckout }) },
    { name: "pesanan.json", data: json(ordersOut) },
    { name: "notifikasi.json", data: json(notes) },
    { name: "saldo.json", data: json({ saldo: balance, riwayat: ledger }) },
    ...photos.map(({ name, file }) => ({ name, data: openUpload(file), modified: file.createdAt })),
  ];
}

/**
 * Builds export `id` once (a retry after a crash finds it built): the ZIP sealed in its row. Null
 * when the row is gone (expired, or the account was erased meanwhile).
 */
export async function buildDataExport(id: string): Promise<{ userId: number; expiresAt: Date } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ userId: dataExports.userId, expiresAt: dataExports.expiresAt, readyAt: dataExports.readyAt })
    .from(dataExports)
    .where(eq(dataExports.id, id));
  if (!row) return null;
  if (row.readyAt) return row;
  const zip = zipStored(await collectAccountData(db, row.userId));
  const sealed = encryptBytes(zip, exportContext(id));
  await db
    .update(dataExports)
    .set({ bytes: sealed.bytes, keyId: sealed.keyId, size: zip.length, readyAt: new Date() })
    .where(and(eq(dataExports.id, id), isNull(dataExports.readyAt)));
  return row;
}

defineMail("data-export", async (data) => {
  const id = String(data.exportId);
  const built = await buildDataExport(id);
  if (!built) return null;
  const db = await getDb();
  const [user] = await db.select({ email: users.email, fullname: users.fullname }).from(users).where(eq(users.id, built.userId));
  if (!user) return null;
  const until = built.expiresAt.toLocaleString("id-ID", { timeZone: "Asia/Jakarta", dateStyle: "long", timeStyle: "short" });
  return renderEmail({
    to: user.email,
    subject: "Data Akun Toko Pegawai PLN Anda Siap Diunduh",
    greeting: `Halo ${user.fullname},`,
    lines: [
      "Salinan data akun Anda (data akun, alamat, pesanan beserta rekening pengembalian dana, notifikasi, saldo, dan foto yang Anda unggah) sudah siap dalam satu berkas ZIP. Buka RINGKASAN-DATA-SAYA.html di dalamnya untuk membacanya.",
      "Untuk mengunduhnya Anda perlu masuk ke akun Anda.",
    ],
    button: { label: "Unduh Data Saya", link: `${env().appUrl}${dataExportPath(id)}` },
    footer: `Tautan ini berlaku ${DATA_EXPORT_HOURS} jam, sampai ${until} WIB; setelah itu berkasnya kami hapus. Jika Anda tidak memintanya, segera ubah kata sandi Anda.`,
  });
});
