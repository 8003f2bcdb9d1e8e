import { randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, type Page } from "@playwright/test";
import { DEMO_ACCOUNT, loginAs, test as base } from "./helpers";
import { checkoutToPayment } from "./helpers/purchase";
import { newDataDir, runOps, startStore, stopStore, type StoreServer } from "./helpers/store-server";

// Backups (issue 20) with PGlite: `npm run ops -- db:backup` while a buyer's purchase runs against
// the store (through the server's ops socket), `db:restore` into a new DATA_DIR, a server started
// there: the order paid before the backup is there, and every order, payment, balance row and upload
// of the copy is the original's (upload bytes equal). A restore over a store is refused.
const test = base.extend<{ original: StoreServer; baseURL: string }>({
  original: async ({}, use) => {
    const server = await startStore();
    await use(server);
    await stopStore(server);
  },
  baseURL: async ({ original }, use) => use(original.url),
});

test.describe.configure({ timeout: 240_000 });
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

/**
 * A virtual-account order, paid through the sandbox's webhook; its id. A PGlite backup holds the
 * database for a few seconds (the dump runs while no query does): the steps wait for longer.
 */
async function buyAndPay(page: Page, javaScriptEnabled: boolean): Promise<number> {
  await checkoutToPayment(page, javaScriptEnabled, {
    product: "Exotic Sepeda Listrik Lipat 14 inci",
    phone: `0813${randomInt(10_000_000, 99_999_999)}`,
  });
  await page.getByRole("link", { name: /Pilih Metode Pembayaran|Ubah Metode Pembayaran/ }).click();
  await page.getByRole("radio", { name: /BNI Virtual Account/ }).check();
  await page.locator(".checkout-bar").getByRole("button").click();
  await expect(page).toHaveURL("/paymentmethod", { timeout: 30_000 });
  await page.getByRole("button", { name: "Bayar Sekarang" }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/, { timeout: 30_000 });
  const orderId = Number(new URL(page.url()).pathname.split("/").pop());
  await page.getByRole("button", { name: "Bayar (Sandbox)" }).click();
  await expect(page.getByTestId("payment-paid")).toContainText("Pembayaran Diterima", { timeout: 30_000 });
  return orderId;
}

/** The rows a backup must keep, by table, each as JSON, read from a stopped store's data directory. */
async function storeRows(dataDir: string) {
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  const rows = async (query: string) => (await db.query<Record<string, unknown>>(query)).rows.map((row) => JSON.stringify(row));
  try {
    return {
      orders: await rows("select * from orders order by 1"),
      payments: await rows("select * from payments order by 1"),
      balance: await rows("select * from balance_entries order by 1"),
      uploads: await rows("select id, owner_id, length(bytes) as size, md5(bytes) as md5 from uploads order by id"),
    };
  } finally {
    await db.close();
  }
}

/** Each row's key: its id, or its order's id (payments: one per order). */
const idsOf = (rows: string[]) => rows.map((row) => (JSON.parse(row).id ?? JSON.parse(row).order_id) as number);
const rowsOfOrder = (rows: string[], orderId: number) =>
  rows.filter((row) => {
    const parsed = JSON.parse(row);
    return parsed.order_id === orderId || (parsed.order_id === undefined && parsed.id === orderId);
  });

test("back up while a purchase runs, restore into a new DATA_DIR, the copy serves the same store", async ({
  page,
  browser,
  javaScriptEnabled,
  original,
}) => {
  const file = path.join(os.tmpdir(), `store-backup-${process.pid}-${randomInt(1e9)}.tar.gz`);
  const copyDir = newDataDir();
  fs.rmSync(copyDir, { recursive: true });
  let copy: Awaited<ReturnType<typeof startStore>> | undefined;
  try {
    await loginAs(page, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const paidBefore = await buyAndPay(page, javaScriptEnabled);

    // The backup runs while the buyer's next purchase goes on.
    const [backup] = await Promise.all([runOps(original.dataDir, ["db:backup", file]), buyAndPay(page, javaScriptEnabled)]);
    expect(backup.err).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/^backup written to .+: \d+ bytes in \d+ ms$/m);

    const restored = await runOps(copyDir, ["db:restore", file]);
    expect(restored.err).toBe("");
    expect(restored.code).toBe(0);
    // A restore over a store is refused (here: the copy just restored).
    const again = await runOps(copyDir, ["db:restore", file]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("already holds a database");

    copy = await startStore({}, copyDir);
    const context = await browser.newContext({ baseURL: copy.url, javaScriptEnabled });
    const buyer = await context.newPage();
    await loginAs(buyer, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    await buyer.goto(`/transaction-detail/${paidBefore}`);
    await expect(buyer.locator(".status-bar")).toHaveText("Pembayaran Diterima");
    await context.close();

    await stopStore(copy, { removeData: false });
    await stopStore(original, { removeData: false });
    const before = await storeRows(original.dataDir);
    const after = await storeRows(copyDir);
    // Every row of the copy is one of the original's. Rows that the purchase running during the
    // backup changed afterwards differ; the rest are the same (uploads never change: bytes by md5).
    for (const table of ["orders", "payments", "balance", "uploads"] as const) {
      expect(idsOf(before[table]), table).toEqual(expect.arrayContaining(idsOf(after[table])));
    }
    expect(after.uploads.length).toBeGreaterThan(0);
    // Upload ids are random, so the copy's uploads are some of the original's, not its first ones.
    expect(before.uploads).toEqual(expect.arrayContaining(after.uploads));
    expect(after.balance).toEqual(before.balance.slice(0, after.balance.length));
    expect(rowsOfOrder(after.orders, paidBefore)).toHaveLength(1);
    expect(rowsOfOrder(after.orders, paidBefore)).toEqual(rowsOfOrder(before.orders, paidBefore));
    expect(rowsOfOrder(after.payments, paidBefore)).toHaveLength(1);
    expect(rowsOfOrder(after.payments, paidBefore)).toEqual(rowsOfOrder(before.payments, paidBefore));
  } finally {
    if (copy) await stopStore(copy);
    fs.rmSync(file, { force: true });
  }
});
