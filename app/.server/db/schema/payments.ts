import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orders, uploads } from "./orders";
import { paymentMethods } from "./reference";
import { PAYMENT_METHOD_TYPES } from "../../../lib/payment-kinds";
import { PAYMENT_INCIDENT_KINDS } from "../../../lib/refunds";

/**
 * The payment of an order (DESIGN §6 Payments), at most one per order, opened once (idempotent) when
 * the buyer continues from the payment summary or first opens /payment/{id}. `total` is what the
 * buyer transfers and what a settlement must match to the rupiah. A payment is "open" while
 * `closed_at` is null; it closes when it is paid, expires, or its order leaves 200/302.
 */
export const payments = pgTable(
  "payments",
  {
    orderId: integer("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    paymentMethodId: integer("payment_method_id")
      .notNull()
      .references(() => paymentMethods.id),
    // Copied from the method, so the payment reads the same even if the method is edited later.
    type: text("type", { enum: PAYMENT_METHOD_TYPES }).notNull(),
    tenor: integer("tenor"),
    // A virtual account's number (unique), or the store's account number for a manual transfer.
    vaNumber: text("va_number"),
    // Mandiri bill payment (Midtrans echannel): 'Kode Perusahaan'; vaNumber then holds 'Kode Bayar'.
    billerCode: text("biller_code"),
    // A manual transfer: the store's account as the payment page showed it when the payment opened
    // (the admin may change the account in /ops/settings; an open payment keeps this one).
    transferAccount: jsonb("transfer_account").$type<{ bankName: string; accountName: string; accountNumber: string }>(),
    // Rupiah: the goods amount, the VA cash discount taken off, the method's fee, the manual
    // transfer's unique code, and the total = amount − discount + fee + uniqueCode.
    amount: integer("amount").notNull(),
    discount: integer("discount").notNull().default(0),
    // The VA cash discount's percentage when the payment opened (the admin's setting then, issue 38):
    // the invoice names it; null on payments without a discount.
    discountPercent: doublePrecision("discount_percent"),
    fee: integer("fee").notNull().default(0),
    uniqueCode: integer("unique_code"),
    total: integer("total").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    redirectUrl: text("redirect_url"),
    gateway: text("gateway").notNull(),
    gatewayRef: text("gateway_ref"),
    // The last time the store heard from the gateway about this payment (a notification, or the
    // reconciliation sweep asking its status API); the sweep asks again about payments silent since.
    gatewayCheckedAt: timestamp("gateway_checked_at", { withTimezone: true }),
    proofUploadId: text("proof_upload_id").references(() => uploads.id),
    markedPaidAt: timestamp("marked_paid_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedReason: text("closed_reason", { enum: ["paid", "expired", "order-closed"] }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A settlement names the VA; one VA is one order.
    uniqueIndex("payments_va_number_key")
      .on(t.vaNumber)
      .where(sql`${t.type} = 'virtual_account'`),
    // The 3-digit code tells open manual transfers apart; it is free again once the payment closes.
    uniqueIndex("payments_open_unique_code_key")
      .on(t.uniqueCode)
      .where(sql`${t.uniqueCode} is not null and ${t.closedAt} is null`),
    // A gateway's notification names its own reference (Midtrans: order_id).
    uniqueIndex("payments_gateway_ref_key").on(t.gateway, t.gatewayRef),
    // The expiry sweep reads only open payments.
    index("payments_open_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.closedAt} is null`),
  ],
);

/**
 * Every gateway event the store accepted (signature good, VA known, amount right), keyed by the
 * gateway's event id: the same id again is a replay and changes nothing (DESIGN §6).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    // The sandbox's events name the VA; Midtrans's name the gateway's reference (gatewayRef).
    vaNumber: text("va_number"),
    gatewayRef: text("gateway_ref"),
    amount: integer("amount").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    // settled: moved the order 200 → 300; already-paid: its order was paid before; order-closed:
    // the order had expired or was cancelled, nothing changed; ignored: a type the store does not act on.
    // expired: a gateway reported the payment expired/cancelled/denied and the order expired (200/301 → 2).
    outcome: text("outcome", { enum: ["settled", "already-paid", "order-closed", "ignored", "expired"] }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_events_order_idx").on(t.orderId)],
);

/**
 * The one-time code of a user (BRI-CERIA paylater, spec §5 OTP): one row per user, replaced by each
 * request. Only hashes are stored; `secretHash` is the proof of a validated code (the spec's
 * secretId) that creating the paylater order consumes once.
 */
export const otpCodes = pgTable("otp_codes", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  phone: text("phone").notNull(),
  codeHash: text("code_hash").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  resendAvailableAt: timestamp("resend_available_at", { withTimezone: true }).notNull(),
  verifiedAt: timestamp("verified_at", { withTimezone: true }),
  secretHash: text("secret_hash"),
  consumedAt: timestamp("consumed_at", { withTimezone: true }),
});

/**
 * Every charge the store asked a gateway for (Midtrans: one order_id per attempt, decision 0021),
 * written BEFORE the request: an attempt whose answer never came (a timeout) is looked up at the
 * gateway before another is made, so one order never has two open charges.
 */
export const gatewayCharges = pgTable(
  "gateway_charges",
  {
    // The gateway's reference of this attempt (Midtrans order_id).
    ref: text("ref").primaryKey(),
    gateway: text("gateway").notNull(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    // opening: asked, no answer yet; unknown: the request ended without an answer that says (a
    // timeout, a 5xx); opened: the payment row holds it; failed: the gateway refused it (nothing
    // exists there); closed: looked up later, not open there.
    state: text("state", { enum: ["opening", "unknown", "opened", "failed", "closed"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("gateway_charges_order_attempt_key").on(t.orderId, t.attempt)],
);

/**
 * Payments an operator must look at (decision 0021): money a gateway reports received for an order
 * the store had already expired or cancelled (a refund case), or a settlement whose amount differs
 * from the payment's total (refused), or a card refund Midtrans made after the store had turned it into
 * a bank transfer (issue 45 item 3: the transfer stopped, or both paid; `gateway_ref` is then the
 * refund's key). One row per gateway reference and kind; resolved by an operator.
 */
export const paymentIncidents = pgTable(
  "payment_incidents",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: PAYMENT_INCIDENT_KINDS }).notNull(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    gateway: text("gateway").notNull(),
    gatewayRef: text("gateway_ref").notNull(),
    // What the gateway reports received, in whole rupiah (null when it was not a whole amount).
    amount: integer("amount"),
    detail: text("detail").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("payment_incidents_ref_kind_key").on(t.gatewayRef, t.kind)],
);
