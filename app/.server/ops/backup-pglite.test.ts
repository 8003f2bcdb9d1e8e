import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb, PGLITE_SETTINGS } from "../db/client";
import { queryRows } from "../db/query-rows";
import { createBuyer, createStockedProduct, placeOrder } from "../testing/payment-fixtures";
import { backupDatabase, restoreDatabase } from "./backup";

// The PGlite backup streamed from the data directory (issue 37): taken while purchases run, it
// restores through PGlite's loadDataDir (restoreDatabase) into an empty DATA_DIR, and the copy holds
// every order committed before it began and only orders of the original. The server end to end:
// tests/e2e/backup.spec.ts.
describe.skipIf(!!process.env.DATABASE_URL)("backup and restore on PGlite", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "store-pglite-backup-"));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it(
    "streams a backup while purchases run; the restored copy opens with the orders committed before it",
    { timeout: 120_000 },
    async () => {
      const buyer = await createBuyer();
      const product = await createStockedProduct({ stock: 40 });
      const before = await placeOrder(buyer, product, "BNI-VA");
      const db = await getDb();
      let purchasing = true;
      const purchases = (async () => {
        let made = 0;
        while (purchasing && made < 20) {
          await placeOrder(buyer, product, "BRI-VA");
          made++;
        }
        return made;
      })();
      const file = path.join(work, "store.tar.gz");
      const backup = await backupDatabase(file);
      purchasing = false;
      expect(await purchases).toBeGreaterThan(0);
      expect(backup).toMatchObject({ ok: true });
      expect(fs.existsSync(`${file}.partial`)).toBe(false);

      const target = path.join(work, "restored");
      expect(await restoreDatabase(file, { dataDir: target })).toMatchObject({ ok: true });
      // Never over a store: the copy now holds one.
      expect(await restoreDatabase(file, { dataDir: target })).toMatchObject({
        ok: false,
        message: expect.stringContaining("already holds"),
      });

      const copy = await PGlite.create(path.join(target, "pglite"), { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
      try {
        const copied = (await copy.query<{ id: number; invoice_id: string }>("select id, invoice_id from orders order by id")).rows;
        const original = await queryRows<{ id: number; invoice_id: string }>(db, sql`select id, invoice_id from orders order by id`);
        expect(copied.map((o) => o.id)).toContain(before);
        expect(original).toEqual(expect.arrayContaining(copied));
        const [row] = (await copy.query<{ n: number }>(`select count(*)::int as n from order_products where order_id = ${before}`)).rows;
        expect(row?.n).toBeGreaterThan(0);
      } finally {
        await copy.close();
      }
    },
  );
});
