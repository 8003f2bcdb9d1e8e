import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orders } from "./orders";

/** Status of a withdrawal (spec §3 balance history: set only on withdrawals). */
export const WITHDRAWAL_STATUSES = ["Dalam Proses", "Berhasil", "Dibatalkan"] as const;

/**
 * The buyer's balance as a ledger (decision 0030): rewards credited when an order is done, and
 * withdrawals requested by ops. The balance is always computed from these rows (credits minus
 * withdrawals that are not cancelled), never stored, so it cannot drift.
 */
export const balanceEntries = pgTable(
  "balance_entries",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["credit", "withdrawal"] }).notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    // Rupiah, always positive; the kind says which way it goes.
    amount: integer("amount").notNull(),
    // Withdrawals only: 'Dalam Proses' until ops settles it as 'Berhasil' or 'Dibatalkan'.
    status: text("status", { enum: WITHDRAWAL_STATUSES }),
    // Rewards only: the finished order it was earned on; unique, so a reward is credited once.
    orderId: integer("order_id").references(() => orders.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    index("balance_entries_user_created_idx").on(t.userId, t.createdAt),
    uniqueIndex("balance_entries_order_key").on(t.orderId),
    check("balance_entries_amount_positive", sql`${t.amount} > 0`),
    check(
      "balance_entries_kind_status",
      sql`(${t.kind} = 'credit' and ${t.status} is null) or (${t.kind} = 'withdrawal' and ${t.status} is not null and ${t.orderId} is null)`,
    ),
  ],
);
