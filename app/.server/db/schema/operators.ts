import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * An operator's TOTP second factor (RFC 6238, issue 17). A row with `confirmedAt` null is an
 * enrolment in progress (the QR code shown, no code confirmed yet). `lastUsedStep` is the time step
 * of the last accepted code, so a code is never accepted twice.
 */
export const operatorFactors = pgTable("operator_factors", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastUsedStep: integer("last_used_step"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The ten one-time recovery codes of an operator; only their hashes are stored. */
export const operatorRecoveryCodes = pgTable(
  "operator_recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_recovery_codes_user_idx").on(t.userId)],
);

/**
 * What operators did (issue 17 audit): every sign-in step (second factor passed, wrong code,
 * recovery code used, enrolment) and every decision on an order or a withdrawal, with the operator.
 */
export const operatorAudit = pgTable(
  "operator_audit",
  {
    id: serial("id").primaryKey(),
    operatorId: integer("operator_id")
      .notNull()
      .references(() => users.id),
    action: text("action").notNull(),
    orderId: integer("order_id"),
    withdrawalId: integer("withdrawal_id"),
    detail: text("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_audit_operator_idx").on(t.operatorId, t.createdAt), index("operator_audit_order_idx").on(t.orderId)],
);
