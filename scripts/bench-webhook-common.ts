// What both gateways' webhook benches share (bench-webhook.ts for the sandbox gateway,
// bench-webhook-midtrans.ts for Midtrans): the orders seeded through the store, the production
// server around the sending, the pool of senders, and the count of transitions to 300 afterwards.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
// @ts-expect-error: plain JavaScript module without types
import { spawnServer, stopServer, waitForHealth } from "./lib.mjs";

export const CONCURRENCY = 20;

export function shuffle<T>(items: T[]): T[] {
  const all = [...items];
  for (let i = all.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

/**
 * `total` orders of one product, each with an open BNI virtual account, placed through the store's
 * own buyer path (checkout draft → payDraft) by ten buyers, in this process, on the gateway the
 * environment names. Answers the payments' rows and closes the database (the server opens it next).
 */
export async function seedOpenVaPayments(total: number) {
  const { getDb, closeDb } = await import("~/.server/db/client");
  const { payments } = await import("~/.server/db/schema");
  const { createBuyer, createStockedProduct, placeOrder } = await import("~/.server/testing/payment-fixtures");
  const { saveUpload } = await import("~/.server/store/orders");
  const started = Date.now();
  await getDb();
  const product = await createStockedProduct({ price: 28_500_000, stock: total + 10 });
  const buyers = await Promise.all(Array.from({ length: 10 }, () => createBuyer()));
  const ktp = await Promise.all(
    buyers.map((b) => saveUpload(b.id, "ktp", { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), contentType: "image/jpeg" })),
  );
  for (let i = 0; i < total; i++) {
    await placeOrder(buyers[i % buyers.length]!, product, "BNI-VA", { ktpUploadId: ktp[i % buyers.length] });
    if ((i + 1) % 100 === 0) process.stdout.write(`  ${i + 1}/${total} orders${i + 1 === total ? "\n" : "\r"}`);
  }
  const rows = await (await getDb()).select().from(payments);
  await closeDb();
  console.log(`seeded ${rows.length} open VA payments through the store in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return rows;
}

/** The production server on `dataDir` (its output in server.log there) while `work` runs, then stopped. */
export async function withServer<T>(appUrl: string, dataDir: string, buildDir: string, work: () => Promise<T>): Promise<T> {
  const log = fs.openSync(path.join(dataDir, "server.log"), "a");
  const server = spawnServer({ BUILD_DIR: buildDir }, ["ignore", log, log]);
  try {
    await waitForHealth(appUrl, server, 120_000).catch((error: Error) => {
      throw new Error(`${error.message} See ${path.join(dataDir, "server.log")}.`);
    });
    return await work();
  } finally {
    await stopServer(server);
  }
}

/** Sends every request with `sendOne`, CONCURRENCY at a time; answers how long it took. */
export async function sendAll<R>(requests: R[], sendOne: (request: R) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < requests.length) await sendOne(requests[next++]!);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return Math.round(performance.now() - started);
}

/** The order_events rows to 300 (paid), read once the server has stopped. */
export async function countTransitions(): Promise<number> {
  const { getDb, closeDb } = await import("~/.server/db/client");
  const { queryRows } = await import("~/.server/db/query-rows");
  const { sql } = await import("drizzle-orm");
  const [row] = await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from order_events where to_status = 300`);
  await closeDb();
  return Number(row!.n);
}
