import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./reference";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    fullname: text("fullname").notNull(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    phoneNo: text("phone_no").notNull(),
    nip: text("nip").notNull(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    passwordHash: text("password_hash").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    // The next moment a verification e-mail may be resent (spec: one hour after a resend).
    resendAvailableAt: timestamp("resend_available_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    // The roster import links entries to accounts registered before it by (company, NIP).
    index("users_company_nip_idx").on(t.companyId, t.nip),
  ],
);

/**
 * The employee roster (issue 27, DESIGN §6 "People and roles"): a company's employees from its HR
 * export, keyed by (company, NIP). A company with at least one entry registers only its active,
 * not yet linked employees; `userId` is the one account linked to the entry (unique: the database
 * decides when links race). A person who leaves is 'nonaktif', never deleted. `workEmail` (the
 * file's optional 'email_kantor'): where a link to the entry is confirmed (decision 0069).
 */
export const rosterEntries = pgTable(
  "roster_entries",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    nip: text("nip").notNull(),
    name: text("name").notNull(),
    status: text("status", { enum: ["aktif", "nonaktif"] })
      .notNull()
      .default("aktif"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    workEmail: text("work_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("roster_entries_company_nip_key").on(t.companyId, t.nip), uniqueIndex("roster_entries_user_key").on(t.userId)],
);

/** Where a request to link an account to a roster entry stands (decision 0069). */
export const ROSTER_LINK_STATES = ["email", "petugas", "terhubung", "ditolak", "dilepas"] as const;

/**
 * An account's request to be linked to a roster entry (issue 45 item 11, decision 0069): open while
 * 'email' (a link sent to the entry's work e-mail waits to be opened) or 'petugas' (an operator of
 * the 'pegawai' role decides); then 'terhubung' (linked), 'ditolak' (refused) or 'dilepas' (linked,
 * then released by an operator). An account has at most one open request. `tokenHash`: the work
 * e-mail link's secret, issued when the e-mail is sent (only its hash is kept).
 */
export const rosterLinkRequests = pgTable(
  "roster_link_requests",
  {
    id: serial("id").primaryKey(),
    entryId: integer("entry_id")
      .notNull()
      .references(() => rosterEntries.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    state: text("state", { enum: ROSTER_LINK_STATES }).notNull(),
    tokenHash: text("token_hash"),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("roster_link_requests_open_key")
      .on(t.userId)
      .where(sql`${t.state} in ('email', 'petugas')`),
    uniqueIndex("roster_link_requests_token_key").on(t.tokenHash),
    index("roster_link_requests_entry_idx").on(t.entryId),
    index("roster_link_requests_open_idx")
      .on(t.createdAt)
      .where(sql`${t.state} in ('email', 'petugas')`),
  ],
);

/** One-time links sent by e-mail: account verification and password reset. Only a hash is stored. */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify", "reset"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("account_tokens_hash_key").on(t.tokenHash), index("account_tokens_user_idx").on(t.userId)],
);

/** Server-side sessions: the cookie (or the API's bearer token) carries a random id whose hash is the primary key. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // Operators: when this session passed the second factor (TOTP), and its last request (the
    // 30-minute idle limit of operator sessions).
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    // 'web': the id is in the browser's session cookie; 'api': a bearer token of the JSON API. One
    // table, so a password reset (revokeAllSessions) ends both, and neither works as the other.
    kind: text("kind", { enum: ["web", "api"] })
      .notNull()
      .default("web"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Fixed-window counters for rate limits, shared by every instance that uses the database. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});
