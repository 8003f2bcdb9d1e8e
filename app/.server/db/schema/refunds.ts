import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { orders, uploads } from "./orders";

// Money back (DESIGN §6 "Money back", issue 36). Two ledgers beside the orders: what the store
// received for an order, and what it gives back. Both change only through app/.server/store/refunds/.

/** The refund states; their Indonesian names live once in app/lib/refund-states.ts. */
export const REFUND_STATES = ["awaiting-funds", "awaiting-account", "processing", "refunded", "failed", "not-received"] as const;
/** Why money is given back: the move or the incident that created the refund. */
export const REFUND_CAUSES = [
  "buyer-cancel",
  "proof-rejected",
  "ops-cancel",
  "paid-after-close",
  "amount-mismatch",
  // Finance recorded a manual transfer above what the order asked ('Catat Kelebihan Bayar').
  "over-payment",
] as const;
/** 'gateway': the gateway's refund API (card payments); 'transfer': a bank transfer to the buyer's account (VA, manual transfer). */
export const REFUND_METHODS = ["gateway", "transfer"] as const;

/**
 * Money the store received for an order, one row per arrival (the payment that settled or was
 * verified, a transfer the buyer made before cancelling in 302, money a gateway reported after the
 * order closed or of the wrong amount). `ref` names the arrival, so one arrival is counted once.
 * Received = kept (paid orders) + refunded + refunds open, for every order (the tested invariant).
 */
export const orderReceipts = pgTable(
  "order_receipts",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    // 'transfer-confirmed': finance saw a manual transfer on the bank statement ('Konfirmasi Dana',
    // issue 45); 'transfer-claimed': the buyer's picture alone, before issue 45 (old rows only).
    source: text("source", { enum: ["payment", "transfer-confirmed", "transfer-claimed", "incident"] }).notNull(),
    ref: text("ref").notNull(),
    // The payment method's type at the time (virtual_account, bank_transfer, installment, paylater), for /ops/finance.
    methodType: text("method_type"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("order_receipts_ref_key").on(t.ref),
    index("order_receipts_order_idx").on(t.orderId),
    index("order_receipts_created_idx").on(t.createdAt),
    check("order_receipts_amount_positive", sql`${t.amount} > 0`),
  ],
);

/**
 * A refund: what the store owes a buyer back for one order, and where it stands. The sum of an
 * order's refunds never exceeds its receipts (checked with the order row locked, store/refunds).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    cause: text("cause", { enum: REFUND_CAUSES }).notNull(),
    reason: text("reason").notNull(),
    method: text("method", { enum: REFUND_METHODS }).notNull(),
    state: text("state", { enum: REFUND_STATES }).notNull(),
    // The gateway and its reference of the payment a 'gateway' refund goes back through (Midtrans order_id).
    gateway: text("gateway"),
    gatewayRef: text("gateway_ref"),
    // The buyer's account for a 'transfer' refund, as they typed it on the order detail.
    bankName: text("bank_name"),
    accountNumber: text("account_number"),
    accountHolder: text("account_holder"),
    accountGivenAt: timestamp("account_given_at", { withTimezone: true }),
    // Finance's transfer: the bank's reference and an optional proof image; the gateway's refund id for a card refund.
    transferReference: text("transfer_reference"),
    proofUploadId: text("proof_upload_id").references(() => uploads.id),
    // Why the last attempt failed ('Gagal Diproses'), shown to the buyer.
    failureReason: text("failure_reason"),
    // A manual transfer's refund ('Menunggu Konfirmasi Dana', issue 45): what the payment asked, and
    // finance's confirmation against the bank statement (who, when, its note; `amount` is then what
    // arrived). Null for a refund whose money came from a money event (a settlement, an incident).
    expectedAmount: integer("expected_amount"),
    fundsConfirmedAt: timestamp("funds_confirmed_at", { withTimezone: true }),
    fundsConfirmedBy: text("funds_confirmed_by"),
    fundsNote: text("funds_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (t) => [
    index("refunds_order_idx").on(t.orderId),
    index("refunds_state_idx").on(t.state, t.createdAt),
    index("refunds_refunded_idx").on(t.refundedAt),
    check("refunds_amount_positive", sql`${t.amount} > 0`),
  ],
);

/** Every change of a refund, who made it ('buyer:12', 'operator:3', 'gateway', 'system', 'ops'), one row per change. */
export const refundEvents = pgTable(
  "refund_events",
  {
    id: serial("id").primaryKey(),
    refundId: integer("refund_id")
      .notNull()
      .references(() => refunds.id, { onDelete: "cascade" }),
    fromState: text("from_state", { enum: REFUND_STATES }),
    toState: text("to_state", { enum: REFUND_STATES }).notNull(),
    actor: text("actor").notNull(),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("refund_events_refund_idx").on(t.refundId, t.id)],
);
