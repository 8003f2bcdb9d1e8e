import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { bytea } from "./columns";
import { orders } from "./orders";

/**
 * Keys the store keeps for itself, each sealed under DATA_ENCRYPTION_KEY (issue 35). Today one: the
 * key of the NIK's keyed hash, random and stable, so rotating DATA_ENCRYPTION_KEY re-seals this row
 * instead of re-hashing every order (and the one-NIK-one-incentive index holds during a rotation).
 */
export const personalDataKeys = pgTable("personal_data_keys", {
  purpose: text("purpose").primaryKey(),
  sealed: text("sealed").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per opening of an order's full NIK and KTP photo by an operator (issue 35, UU 27/2022):
 * who, when, which order (and so which buyer), from which address. Listed at /ops/privacy.
 */
export const personalDataAccess = pgTable(
  "personal_data_access",
  {
    id: serial("id").primaryKey(),
    operatorId: integer("operator_id")
      .notNull()
      .references(() => users.id),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    buyerId: integer("buyer_id")
      .notNull()
      .references(() => users.id),
    // What was opened: the NIK in clear, the KTP photo's bytes, or the order found by a full-NIK search.
    item: text("item", { enum: ["nik", "ktp", "nik-search"] }).notNull(),
    clientAddress: text("client_address").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("personal_data_access_created_idx").on(t.createdAt, t.id),
    index("personal_data_access_operator_idx").on(t.operatorId, t.createdAt),
    index("personal_data_access_buyer_idx").on(t.buyerId, t.createdAt),
  ],
);

/**
 * The employee's 'Unduh Data Saya' (issue 35 item 4, decision 0059): one row per request. A job of
 * the mail queue builds the ZIP (`bytes`, sealed like an upload under the key `keyId` names), sets
 * `readyAt` and e-mails the link; the link is `/profile/data-saya/<id>` (random, 32 bytes), opens to
 * its owner only, until `expiresAt` (24 h after the request), when the retention job deletes the row.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    readyAt: timestamp("ready_at", { withTimezone: true }),
    size: integer("size"),
    bytes: bytea("bytes"),
    keyId: text("key_id"),
  },
  (t) => [index("data_exports_user_idx").on(t.userId, t.requestedAt), index("data_exports_expires_idx").on(t.expiresAt)],
);
