// npm run bench:webhook — the settlement webhook under load (issue 7). Needs a production build
// (`npm run build`, or BUILD_DIR=… for another one).
//
// 1. On a fresh DATA_DIR (PGlite) it makes 900 orders with an open BNI virtual account through the
//    store's own buyer path (checkout draft → payDraft), in this process, then closes the database.
// 2. It starts the production server (node server.js) on that DATA_DIR with a known
//    PAYMENT_WEBHOOK_SECRET and sends 1,000 signed webhooks over HTTP, 20 at a time, in random
//    order: 800 first deliveries (one per order), 100 replays of them, 50 with a bad signature and
//    50 with a wrong amount (for 100 other orders, which must therefore stay unpaid).
// 3. It stops the server, counts the order_events rows to 300, and prints the figures; the LAST
//    line is one JSON object {"sent","accepted","replays","badSignature","wrongAmount",
//    "transitions","distinctValid","ms"}. It exits 1 when transitions ≠ distinct valid events.
//
// Options (environment): PORT (default 3480), BUILD_DIR (default build), BENCH_KEEP=1 keeps DATA_DIR,
// BENCH_GATEWAY=midtrans: Midtrans's notifications against a fake Midtrans instead (see
// bench-webhook-midtrans.ts; its last line adds "statusMismatch").
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error: plain JavaScript module without types
import { TEST_DATA_ENCRYPTION_KEY } from "./lib.mjs";
import { CONCURRENCY, countTransitions, seedOpenVaPayments, sendAll, shuffle, withServer } from "./bench-webhook-common";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const port = Number(process.env.PORT ?? 3480);
const secret = crypto.randomBytes(32).toString("hex");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-webhook-"));

const VALID = 800;
const REPLAYS = 100;
const BAD_SIGNATURE = 50;
const WRONG_AMOUNT = 50;

if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
  console.error(`No production build in ${buildDir}: run \`npm run build\` (or set BUILD_DIR) first.`);
  process.exit(1);
}

// The app's modules read their configuration once, on first use: set it before importing them.
Object.assign(process.env, {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  PAYMENT_WEBHOOK_SECRET: secret,
  PAYMENT_GATEWAY: "sandbox",
  DEMO_DATA: "0",
  // Production requires it (issue 35); the bench's database is thrown away.
  DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY || TEST_DATA_ENCRYPTION_KEY,
  PORT: String(port),
});
delete process.env.DATABASE_URL;

type OpenPayment = { orderId: number; vaNumber: string; total: number };

async function seed(): Promise<OpenPayment[]> {
  const rows = await seedOpenVaPayments(VALID + BAD_SIGNATURE + WRONG_AMOUNT);
  return rows.map((r) => ({ orderId: r.orderId, vaNumber: r.vaNumber!, total: r.total }));
}

const sign = (body: string) => crypto.createHmac("sha512", secret).update(body).digest("hex");

type Planned = { kind: "valid" | "replay" | "badSignature" | "wrongAmount"; body: string; signature: string };

function plan(open: OpenPayment[]): Planned[] {
  const shuffled = shuffle(open);
  const event = (p: OpenPayment, amount: number) =>
    JSON.stringify({
      id: `bench-${crypto.randomUUID()}`,
      type: "payment.paid",
      vaNumber: p.vaNumber,
      amount,
      paidAt: new Date().toISOString(),
    });
  const valid: Planned[] = shuffled.slice(0, VALID).map((p) => {
    const body = event(p, p.total);
    return { kind: "valid", body, signature: sign(body) };
  });
  const replays: Planned[] = Array.from({ length: REPLAYS }, () => ({
    ...valid[crypto.randomInt(valid.length)]!,
    kind: "replay" as const,
  }));
  const bad: Planned[] = shuffled.slice(VALID, VALID + BAD_SIGNATURE).map((p) => {
    const body = event(p, p.total);
    // Signed with another secret: well-formed, wrong.
    return { kind: "badSignature", body, signature: crypto.createHmac("sha512", "not-the-secret").update(body).digest("hex") };
  });
  const wrong: Planned[] = shuffled.slice(VALID + BAD_SIGNATURE, VALID + BAD_SIGNATURE + WRONG_AMOUNT).map((p) => {
    const body = event(p, p.total - 1_000);
    return { kind: "wrongAmount", body, signature: sign(body) };
  });
  return shuffle([...valid, ...replays, ...bad, ...wrong]);
}

async function send(requests: Planned[]) {
  const counts = { accepted: 0, replays: 0, badSignature: 0, wrongAmount: 0, other: 0 };
  const byKind: Record<string, Record<number, number>> = {};
  const ms = await sendAll(requests, async (request) => {
    const response = await fetch(`http://127.0.0.1:${port}/webhooks/payment`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Signature": request.signature },
      body: request.body,
    });
    const answer = (await response.json().catch(() => ({}))) as { replay?: boolean };
    (byKind[request.kind] ??= {})[response.status] = ((byKind[request.kind] ??= {})[response.status] ?? 0) + 1;
    if (response.status === 200) {
      if (answer.replay) counts.replays++;
      else counts.accepted++;
    } else if (response.status === 401) counts.badSignature++;
    else if (response.status === 422) counts.wrongAmount++;
    else counts.other++;
  });
  return { counts, byKind, ms };
}

async function main() {
  console.log(`bench:webhook — DATA_DIR ${dataDir}, port ${port}, build ${buildDir}`);
  const open = await seed();
  if (open.length < VALID + BAD_SIGNATURE + WRONG_AMOUNT) throw new Error(`only ${open.length} payments were opened`);
  const requests = plan(open);
  const result = await withServer(`http://127.0.0.1:${port}`, dataDir, buildDir, () => send(requests));
  const transitions = await countTransitions();
  const { counts, byKind, ms } = result;
  console.log(`sent ${requests.length} webhooks, ${CONCURRENCY} at a time, in ${ms} ms (${Math.round((requests.length / ms) * 1000)}/s)`);
  console.log(`  accepted (first deliveries): ${counts.accepted}`);
  console.log(`  replays answered 200 without a change: ${counts.replays}`);
  console.log(`  refused: bad signature (401) ${counts.badSignature}, wrong amount (422) ${counts.wrongAmount}, other ${counts.other}`);
  console.log(`  answers by planned kind: ${JSON.stringify(byKind)}`);
  console.log(`  order_events to 300 after the run: ${transitions} (distinct valid events: ${VALID})`);
  const summary = {
    sent: requests.length,
    accepted: counts.accepted,
    replays: counts.replays,
    badSignature: counts.badSignature,
    wrongAmount: counts.wrongAmount,
    transitions,
    distinctValid: VALID,
    ms,
  };
  console.log(JSON.stringify(summary));
  if (transitions !== VALID || counts.other > 0) process.exitCode = 1;
}

const run =
  process.env.BENCH_GATEWAY === "midtrans"
    ? () => import("./bench-webhook-midtrans").then((midtrans) => midtrans.main({ dataDir, port, buildDir }))
    : main;

run()
  .then(() => {
    if (process.env.BENCH_KEEP !== "1") fs.rmSync(dataDir, { recursive: true, force: true });
  })
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
