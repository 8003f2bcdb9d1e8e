import type { ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript module without types
import { spawnServer } from "../../../scripts/lib.mjs";
import { getDb } from "../db/client";
import { BUILT_IN_REWARD_RULE, creditOrderReward } from "../store/orders";
import { createBuyer, createStockedProduct, placeOrder } from "../testing/payment-fixtures";
import { backupDatabase, findPgTool, restoreDatabase } from "./backup";

// Backups (issue 20) on PostgreSQL (.ci/run's second step): pg_dump while purchases run, a restore
// into a new empty database, a production server started on it, every order, payment, balance row
// and upload of the copy the original's. A restore into a database that holds data is refused. The
// PGlite variant runs end to end in tests/e2e/backup.spec.ts.
const adminUrl = process.env.DATABASE_URL;

it("names the missing tool when PostgreSQL's client tools are not installed", () => {
  const saved = { path: process.env.PATH, pgBin: process.env.PG_BIN };
  process.env.PATH = "/nonexistent";
  delete process.env.PG_BIN;
  try {
    expect(() => findPgTool("pg_dump")).toThrow(/^pg_dump not found: install PostgreSQL's client tools/);
  } finally {
    process.env.PATH = saved.path;
    if (saved.pgBin !== undefined) process.env.PG_BIN = saved.pgBin;
  }
});

describe.skipIf(!adminUrl)("backup and restore on PostgreSQL", () => {
  const database = `store_restore_${crypto.randomBytes(4).toString("hex")}`;
  const admin = adminUrl ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : undefined!;
  // Made in the test (a describe that is skipped runs no afterAll to remove it).
  let work = "";
  let server: ChildProcess | undefined;

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGINT");
      await exited;
    }
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("backs up while purchases run; the restored copy serves, with the same rows and upload bytes", { timeout: 120_000 }, async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "store-backup-test-"));
    const buyer = await createBuyer();
    const product = await createStockedProduct({ stock: 40 });
    const before = await placeOrder(buyer, product, "BNI-VA");
    const db = await getDb();
    await creditOrderReward(db, before, buyer.id, { amount: 5_000_000, rule: BUILT_IN_REWARD_RULE });

    const file = path.join(work, "store.dump");
    let purchasing = true;
    const purchases = (async () => {
      let made = 0;
      while (purchasing && made < 30) {
        await placeOrder(buyer, product, "BRI-VA");
        made++;
      }
      return made;
    })();
    const backup = await backupDatabase(file);
    purchasing = false;
    expect(await purchases).toBeGreaterThan(0);
    expect(backup).toMatchObject({ ok: true });

    const url = new URL(adminUrl!);
    url.pathname = `/${database}`;
    // Never over a store: the test database holds data.
    expect(await restoreDatabase(file, { databaseUrl: adminUrl!, dataDir: work })).toMatchObject({
      ok: false,
      message: expect.stringContaining("not empty"),
    });
    await admin.unsafe(`create database ${database}`);
    expect(await restoreDatabase(file, { databaseUrl: url.toString(), dataDir: work })).toMatchObject({ ok: true });

    // A production server starts on the copy (the build from npm test: .ci/run's step has it).
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    server = spawnServer({
      PORT: String(port),
      DATABASE_URL: url.toString(),
      DATA_DIR: path.join(work, "data"),
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      PAYMENT_GATEWAY: "sandbox",
      LOG_LEVEL: "warn",
    });
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 60_000 },
      )
      .toBe(200);

    const original = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    const copy = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const read = async (sql: postgres.Sql, query: string) => (await sql.unsafe(query)).map((row) => JSON.stringify(row));
      for (const query of [
        `select * from orders where id = ${before}`,
        `select * from payments where order_id = ${before}`,
        `select * from balance_entries where order_id = ${before}`,
        `select id, md5(bytes) from uploads where owner_id = ${buyer.id} order by id`,
      ]) {
        const copied = await read(copy, query);
        expect(copied.length, query).toBeGreaterThan(0);
        expect(await read(original, query), query).toEqual(expect.arrayContaining(copied));
      }
      // Every order of the copy is the original's (the purchases after the snapshot are not in it).
      const ids = async (sql: postgres.Sql) => (await sql`select id from orders order by id`).map((row) => row.id as number);
      expect(await ids(original)).toEqual(expect.arrayContaining(await ids(copy)));
    } finally {
      await original.end();
      await copy.end();
    }
  });
});
