import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { getDb, type Db } from "./client";
import { queryRows } from "./query-rows";
import { vacuumEmbeddedDatabase } from "./maintenance";
import { createOrderInStatus } from "../testing/order-fixtures";
import { ownDatabaseForThisFile } from "../testing/own-database";

// The hourly maintenance job (issue 37): on PGlite, which never autovacuums, it leaves the orders'
// pages all-visible, so the back office's counts can read only the indexes.
let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
}, 300_000);

const allVisiblePages = async () =>
  Number((await queryRows<{ pages: number }>(db, sql`select relallvisible as pages from pg_class where relname = 'orders'`))[0]?.pages);

it.skipIf(!!process.env.DATABASE_URL)("vacuums PGlite: the orders' pages become all-visible", { timeout: 120_000 }, async () => {
  for (let i = 0; i < 3; i++) await createOrderInStatus(db, 300);
  await db.execute(sql`analyze orders`);
  expect(await allVisiblePages()).toBe(0);
  expect(await vacuumEmbeddedDatabase()).toMatchObject({ vacuumed: true });
  expect(await allVisiblePages()).toBeGreaterThan(0);
});
