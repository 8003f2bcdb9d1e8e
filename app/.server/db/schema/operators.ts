import { index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { STAFF_ROLES } from "../../../lib/staff-roles";
import { users } from "./accounts";

/**
 * The staff roles a person holds (issue 27): one row per role; no row, a buyer. Granted and revoked
 * in /ops/staff (admins) or by the ops CLI; every change ends that person's sessions.
 */
export const staffRoles = pgTable(
  "staff_roles",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
    // operator:<id> from /ops/staff, or ops (the CLI).
    grantedBy: text("granted_by").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

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
    // Second-factor steps: the client's address (an IPv6 address as its /64), so a later wrong-code
    // limit knows the addresses an operator passed from (issue 25).
    address: text("address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_audit_operator_idx").on(t.operatorId, t.createdAt), index("operator_audit_order_idx").on(t.orderId)],
);

/**
 * An uploaded CSV between its preview and 'Terapkan Impor' (issues 26, 27): the file is kept here,
 * not in the browser, so the apply works without JavaScript and on any instance, and the row says
 * who imported what and when it was applied.
 */
export const csvImports = pgTable(
  "csv_imports",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["katalog", "pegawai", "foto-zip"] }).notNull(),
    operatorId: integer("operator_id")
      .notNull()
      .references(() => users.id),
    fileName: text("file_name").notNull(),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    // What the apply did, for the audit ('12 ditambah, 3 diubah').
    summary: text("summary"),
    // The preview computed at upload (JSON, with the photo ZIP's thumbnails), so that viewing it
    // again reads nothing from the file (issue 45 item 12); emptied with the file once applied.
    preview: text("preview"),
  },
  (t) => [index("csv_imports_created_idx").on(t.createdAt)],
);
