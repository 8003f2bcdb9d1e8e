import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orders } from "./orders";

/**
 * The buyer's notifications behind the bell (issue 28): one row per event the buyer should hear of,
 * written in the same transaction as the event. `key` names what the row is about (the order event,
 * the payment's reminder), so the same event never notifies twice. The e-mail jobs live in the job
 * queue's own schema (pgboss, created by pg-boss, not by these migrations).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // order-event:<event id>, payment-reminder:<order id>
    key: text("key").notNull().unique(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "cascade" }),
    // Where the notification leads: the order's detail, or its payment page for a reminder.
    link: text("link").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    // The page lists a buyer's newest first; the bell counts the unread ones.
    index("notifications_user_idx").on(t.userId, t.id),
    index("notifications_unread_idx")
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
  ],
);
