import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { bytea } from "./columns";
import { products } from "./catalogue";
import { orderStatuses, paymentMethods } from "./reference";
import { RELEASED_STATUSES } from "../../../lib/order-status";

/**
 * Files users upload (KTP photo, transfer proof, delivery proof), kept in the database so that every
 * instance on one PostgreSQL serves them and a backup holds them (DESIGN §6, §9). The id is random
 * and unguessable, but ownership is what protects them: only `ownerId` may read a file.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["ktp", "transfer-proof", "delivery-proof", "refund-proof"] }).notNull(),
    contentType: text("content_type", { enum: ["image/jpeg", "image/png", "application/pdf"] }).notNull(),
    // The clear file's size; `bytes` hold it sealed with AES-256-GCM under the key `keyId` names
    // (issue 35: a backup holds no KTP picture in clear). A null keyId is a row stored before
    // encryption, sealed at the next start (store/privacy/rotation.ts).
    size: integer("size").notNull(),
    bytes: bytea("bytes").notNull(),
    keyId: text("key_id"),
    // A KTP photo past its retention (store/privacy/retention.ts): the bytes are gone (empty), the
    // row stays so the order shows 'Foto KTP telah dihapus sesuai kebijakan retensi'.
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("uploads_owner_idx").on(t.ownerId)],
);

/** A delivery address as the forms post it (area codes from idn-area-data). */
export type AddressInput = {
  fullAddress: string;
  provinsiId: string;
  kotaId: string;
  kecamatanId: string;
  kelurahanId: string;
  kodePos: string;
};

/** What the checkout form holds between visits (spec §3 "Checkout state"), all as typed. */
export type CheckoutDraftValues = Partial<{
  note: string;
  buyerName: string;
  buyerPhoneNumber: string;
  buyerEmail: string;
  buyerNik: string;
  /** `buyerNik` is the NIK of the buyer's previous order, offered again (issue 38): the form shows it masked. */
  nikSaved: boolean;
  buyerNip: string;
  buyerDadName: string;
  insentif: boolean;
  ajukanInsentifPegawai: boolean;
  nikValidation: boolean;
  bbnValidation: boolean;
  domisiliValidation: boolean;
}>;

/**
 * The one open checkout of a user (DESIGN §4: replaces the spec's local-storage dataCheckout,
 * detail_produk, address, methodPayment, tenor…). 'Beli Sekarang' creates or replaces it; it
 * survives the trip to /address and a visit tomorrow, and is cleared when the order is made.
 */
export const checkoutDrafts = pgTable("checkout_drafts", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  productId: integer("product_id")
    .notNull()
    .references(() => products.id, { onDelete: "cascade" }),
  values: jsonb("values").$type<CheckoutDraftValues>().notNull().default({}),
  ktpUploadId: text("ktp_upload_id").references(() => uploads.id, { onDelete: "set null" }),
  address: jsonb("address").$type<AddressInput>(),
  // Chosen on the payment screens (payment issue).
  paymentMethodId: integer("payment_method_id").references(() => paymentMethods.id),
  tenor: integer("tenor"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The address the user saved last, prefilled on their next /address (one row per user). */
export const savedAddresses = pgTable("saved_addresses", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  address: jsonb("address").$type<AddressInput>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export { RELEASED_STATUSES };
// A partial index's condition is DDL (no bound parameters): the ids go in as literals, from the one list.
const RELEASED_LIST = sql.raw(RELEASED_STATUSES.join(", "));

/**
 * Orders (DESIGN §6). The buyer data and the address are snapshots: later profile or catalogue
 * changes never rewrite an order. The status changes only through app/.server/store/orders/orders.ts, one
 * conditional update plus an `order_events` row per transition.
 */
export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    invoiceId: text("invoice_id").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    // A hidden key per checkout render: a double submit finds the first order instead of a second.
    idempotencyKey: text("idempotency_key").notNull(),
    // Quantity is always 1 (spec §9): one product per order, kept here for the per-product rules.
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    statusId: integer("status_id")
      .notNull()
      .references(() => orderStatuses.id),
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }).notNull().defaultNow(),
    buyerName: text("buyer_name").notNull(),
    buyerPhoneNumber: text("buyer_phone_number").notNull(),
    buyerEmail: text("buyer_email").notNull(),
    // Sealed (`pd1.<key id>.…`, app/.server/data-crypto.ts); read only through store/privacy readNik.
    buyerNik: text("buyer_nik").notNull(),
    // HMAC-SHA256 of the NIK under the store's hash key: the same-NIK rules compare this, never the NIK.
    buyerNikHash: text("buyer_nik_hash"),
    buyerNip: text("buyer_nip"),
    buyerDadName: text("buyer_dad_name"),
    note: text("note").notNull().default(""),
    fullAddress: text("full_address").notNull(),
    provinsiId: text("provinsi_id").notNull(),
    provinsi: text("provinsi").notNull(),
    kotaId: text("kota_id").notNull(),
    kota: text("kota").notNull(),
    kecamatanId: text("kecamatan_id").notNull(),
    kecamatan: text("kecamatan").notNull(),
    kelurahanId: text("kelurahan_id").notNull(),
    kelurahan: text("kelurahan").notNull(),
    kodePos: text("kode_pos").notNull(),
    ktpUploadId: text("ktp_upload_id").references(() => uploads.id),
    // Government EV incentive (needs the KTP) and the employee promo, with the amounts granted.
    insentif: boolean("insentif").notNull().default(false),
    insentifValue: integer("insentif_value").notNull().default(0),
    promoPegawai: boolean("promo_pegawai").notNull().default(false),
    promoPegawaiValue: integer("promo_pegawai_value").notNull().default(0),
    // Rupiah: the list price, the price of the goods after every discount, and what is to be paid.
    priceOri: integer("price_ori").notNull(),
    amount: integer("amount").notNull(),
    totalAmount: integer("total_amount").notNull(),
    // What the buyer is asked to pay once the payment is opened: the payment's total (the VA cash
    // discount taken off, the fee and a manual transfer's unique code added), set in the transaction
    // that opens it (store/payments/open.ts); null before. Every screen, the CLI and the export show
    // it as the amount paid (issue 25).
    paymentTotal: integer("payment_total"),
    paymentMethodId: integer("payment_method_id").references(() => paymentMethods.id),
    tenor: integer("tenor"),
    // The reward rule when the order was made (the admin's setting then, issue 38; decision 0030):
    // a finished order credits min(cap, floor(amount × percent%)). Null percent: the order earns none.
    rewardPercent: doublePrecision("reward_percent"),
    rewardCap: integer("reward_cap"),
    // Set by the operator's 'Kirim' (300 → 400), shown on the buyer's order detail.
    courier: text("courier"),
    trackingNumber: text("tracking_number"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_user_idempotency_key").on(t.userId, t.idempotencyKey),
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    index("orders_status_idx").on(t.statusId),
    // The back office's queues (oldest first per status), the metrics' oldest waiting order per queue
    // (store/back-office/metrics.ts) and the export's date range.
    index("orders_status_changed_idx").on(t.statusId, t.statusChangedAt, t.id),
    index("orders_created_idx").on(t.createdAt, t.id),
    // The back-office home's 30-day figures (store/back-office/dashboard.ts: per day, per status, top
    // products) read only this index once the table is vacuumed (an index-only scan): at 100,000
    // orders the table's pages in the window cost more than the page's 300 ms (issue 37).
    index("orders_created_figures_idx").on(t.createdAt, t.statusId, t.productId, t.totalAmount, t.paymentTotal),
    // One NIK, one incentive unit, enforced by the database even under concurrent submits.
    uniqueIndex("orders_live_incentive_nik_hash_key")
      .on(t.buyerNikHash)
      .where(sql`${t.insentif} and ${t.statusId} not in (${RELEASED_LIST})`),
    // The back office's other orders with the same NIK, and its search by NIK.
    index("orders_nik_hash_idx").on(t.buyerNikHash),
    // One employee promo per employee per product.
    uniqueIndex("orders_live_employee_promo_key")
      .on(t.userId, t.productId)
      .where(sql`${t.promoPegawai} and ${t.statusId} not in (${RELEASED_LIST})`),
  ],
);

/**
 * The promo lines of an order product, as applied at checkout (spec §3 order detail promo).
 * `kind` and `amount` (the rupiah actually taken off) let the order detail and the invoice print
 * the breakdown of the moment; orders made before they were recorded lack them (jsonb, no migration).
 */
export type AppliedPromo = {
  title: string;
  value: number;
  discountType: "v" | "%";
  kind?: "ordinary" | "incentive" | "employee";
  amount?: number;
};

export const orderProducts = pgTable(
  "order_products",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    qty: integer("qty").notNull().default(1),
    title: text("title").notNull(),
    imageUrl: text("image_url"),
    price: integer("price").notNull(),
    priceOri: integer("price_ori").notNull(),
    totalDiscount: integer("total_discount").notNull(),
    promo: jsonb("promo").$type<AppliedPromo[]>().notNull().default([]),
  },
  (t) => [index("order_products_order_idx").on(t.orderId)],
);

/** Every status change of an order, who or what caused it ('buyer:12', 'ops', 'gateway', 'system'). */
export const orderEvents = pgTable(
  "order_events",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: integer("from_status"),
    toStatus: integer("to_status").notNull(),
    actor: text("actor").notNull(),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.id)],
);

/**
 * The photos (or PDFs) the buyer sent with 'Konfirmasi Barang Sampai' (spec §7 confirm,
 * `buktiImageUrls`): up to 5 per order, in the order they were picked. Written in the same
 * transaction as the move to 500; orders finished before this table named their one proof in the
 * note of that event ('bukti:<id>'), which the detail still reads.
 */
export const orderDeliveryProofs = pgTable(
  "order_delivery_proofs",
  {
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    uploadId: text("upload_id")
      .notNull()
      .references(() => uploads.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.position] })],
);
