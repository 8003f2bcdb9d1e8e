import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { PAYMENT_METHOD_TYPES } from "../../../lib/payment-kinds";

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  // Hidden in /ops/settings: no longer offered at registration; its accounts and roster stay.
  hidden: boolean("hidden").notNull().default(false),
});

/**
 * The store's settings an admin changes in /ops/settings (issue 27): one JSON value per key
 * (the manual-transfer account, the instalment tenors, each method's how-to texts, the help
 * contacts), seeded with the built-in values. Read where they are used; an open payment keeps what
 * it showed (payments.transfer_account).
 */
export const storeSettings = pgTable("store_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  // operator:<id>, or seed.
  updatedBy: text("updated_by").notNull(),
});

export const orderStatuses = pgTable("order_statuses", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

export const paymentMethods = pgTable("payment_methods", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  type: text("type", { enum: PAYMENT_METHOD_TYPES }).notNull(),
  groupName: text("group_name", { enum: ["Virtual Account", "Manual", "Cicilan", "Lainnya"] }).notNull(),
  imageUrl: text("image_url").notNull(),
  fee: integer("fee").notNull().default(0),
  applyUrl: text("apply_url"),
  position: integer("position").notNull(),
  active: boolean("active").notNull().default(true),
});

// Indonesian administrative areas (idn-area-data, ODbL). Codes are the official ones, e.g. "11.01".
export const provinces = pgTable("provinces", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const regencies = pgTable(
  "regencies",
  {
    code: text("code").primaryKey(),
    provinceCode: text("province_code").notNull(),
    name: text("name").notNull(),
  },
  (t) => [index("regencies_province_idx").on(t.provinceCode)],
);

export const districts = pgTable(
  "districts",
  {
    code: text("code").primaryKey(),
    regencyCode: text("regency_code").notNull(),
    name: text("name").notNull(),
  },
  (t) => [index("districts_regency_idx").on(t.regencyCode)],
);

export const villages = pgTable(
  "villages",
  {
    code: text("code").primaryKey(),
    districtCode: text("district_code").notNull(),
    name: text("name").notNull(),
  },
  (t) => [index("villages_district_idx").on(t.districtCode)],
);
