// BENCH_GATEWAY=midtrans npm run bench:webhook — Midtrans's notifications under load (issue 18),
// against the fake Midtrans (tests/fakes/midtrans.ts), which runs in this process.
//
// 1. On a fresh DATA_DIR (PGlite) it makes 900 orders with an open BNI virtual account through the
//    store's own buyer path with PAYMENT_GATEWAY=midtrans (each VA is a Core API charge at the fake).
// 2. It pays 800 of them at the fake, starts the production server on that DATA_DIR pointed at the
//    fake, and sends 1,000 notifications over HTTP, 20 at a time, in random order: 800 first
//    deliveries (signed, one per paid order), 100 replays of them, 50 with a bad signature_key (for
//    orders not paid at Midtrans) and 50 whose body says settlement while the status API says pending
//    (signed correctly, for 50 other unpaid orders). The store asks the fake's status API each time.
// 3. It stops the server and counts the order_events rows to 300: they must equal the 800 genuine
//    settlements. The LAST line is one JSON object as bench:webhook prints, plus "statusMismatch"
//    (answers 200 'pending' to the disagreeing notifications). Exit 1 when transitions ≠ 800.
import crypto from "node:crypto";
import { startFakeMidtrans } from "../tests/fakes/midtrans";
import { CONCURRENCY, countTransitions, seedOpenVaPayments, sendAll, shuffle, withServer } from "./bench-webhook-common";

const VALID = 800;
const REPLAYS = 100;
const BAD_SIGNATURE = 50;
const STATUS_DISAGREES = 50;

type Kind = "valid" | "replay" | "badSignature" | "statusMismatch";
type Planned = { kind: Kind; body: string };

export async function main({ dataDir, port, buildDir }: { dataDir: string; port: number; buildDir: string }) {
  const serverKey = `SB-Mid-server-bench${crypto.randomBytes(12).toString("hex")}`;
  const appUrl = `http://127.0.0.1:${port}`;
  const fake = await startFakeMidtrans({ serverKey, notificationUrl: `${appUrl}/webhooks/midtrans` });
  // The app's modules read their configuration once, on first use: set it before importing them.
  Object.assign(process.env, {
    PAYMENT_GATEWAY: "midtrans",
    MIDTRANS_SERVER_KEY: serverKey,
    MIDTRANS_API_URL: fake.url,
    MIDTRANS_SNAP_URL: fake.url,
    APP_URL: appUrl,
  });
  console.log(`bench:webhook (midtrans) — DATA_DIR ${dataDir}, port ${port}, fake Midtrans ${fake.url}, build ${buildDir}`);
  try {
    const refs = await seed();
    if (refs.length < VALID + BAD_SIGNATURE + STATUS_DISAGREES) throw new Error(`only ${refs.length} payments were opened`);
    const requests = plan(fake, refs);
    const result = await withServer(appUrl, dataDir, buildDir, () => send(appUrl, requests));
    const transitions = await countTransitions();
    const { counts, byKind, ms } = result;
    const statusCalls = fake.calls.filter((c) => c.endsWith("/status")).length;
    console.log(
      `sent ${requests.length} notifications, ${CONCURRENCY} at a time, in ${ms} ms (${Math.round((requests.length / ms) * 1000)}/s); the store asked the status API ${statusCalls} times`,
    );
    console.log(`  accepted (first deliveries): ${counts.accepted}`);
    console.log(`  replays answered 200 without a change: ${counts.replays}`);
    console.log(
      `  refused: bad signature (401) ${counts.badSignature}; status API says pending (200, nothing paid) ${counts.statusMismatch}; other ${counts.other}`,
    );
    console.log(`  answers by planned kind: ${JSON.stringify(byKind)}`);
    console.log(`  order_events to 300 after the run: ${transitions} (distinct genuine settlements: ${VALID})`);
    const summary = {
      sent: requests.length,
      accepted: counts.accepted,
      replays: counts.replays,
      badSignature: counts.badSignature,
      wrongAmount: 0,
      statusMismatch: counts.statusMismatch,
      transitions,
      distinctValid: VALID,
      ms,
    };
    console.log(JSON.stringify(summary));
    if (transitions !== VALID || counts.other > 0 || counts.statusMismatch !== STATUS_DISAGREES || counts.badSignature !== BAD_SIGNATURE)
      process.exitCode = 1;
  } finally {
    await fake.close();
  }
}

/** 900 orders with a BNI VA opened at the fake Midtrans through the store; returns their Midtrans order_ids. */
async function seed(): Promise<string[]> {
  const rows = await seedOpenVaPayments(VALID + BAD_SIGNATURE + STATUS_DISAGREES);
  return rows.filter((r) => r.gateway === "midtrans" && r.gatewayRef).map((r) => r.gatewayRef!);
}

function plan(fake: Awaited<ReturnType<typeof startFakeMidtrans>>, refs: string[]): Planned[] {
  const shuffled = shuffle(refs);
  const valid: Planned[] = shuffled.slice(0, VALID).map((ref) => {
    fake.pay(ref);
    return { kind: "valid", body: JSON.stringify(fake.notificationBody(ref)) };
  });
  const replays: Planned[] = Array.from({ length: REPLAYS }, () => ({
    ...valid[crypto.randomInt(valid.length)]!,
    kind: "replay" as const,
  }));
  const claimSettled = { transaction_status: "settlement" as const, settlement_time: "2026-11-25 10:00:00" };
  const bad: Planned[] = shuffled.slice(VALID, VALID + BAD_SIGNATURE).map((ref) => ({
    kind: "badSignature",
    // Claims a settlement, signed with another key: well-formed, wrong.
    body: JSON.stringify(fake.notificationBody(ref, { claim: claimSettled, key: "SB-Mid-server-not-the-key" })),
  }));
  const disagreeing: Planned[] = shuffled.slice(VALID + BAD_SIGNATURE, VALID + BAD_SIGNATURE + STATUS_DISAGREES).map((ref) => ({
    kind: "statusMismatch",
    // Signed correctly, but the order is not paid at Midtrans: its status API says pending.
    body: JSON.stringify(fake.notificationBody(ref, { claim: claimSettled })),
  }));
  return shuffle([...valid, ...replays, ...bad, ...disagreeing]);
}

async function send(appUrl: string, requests: Planned[]) {
  const counts = { accepted: 0, replays: 0, badSignature: 0, statusMismatch: 0, other: 0 };
  const byKind: Record<string, Record<string, number>> = {};
  const ms = await sendAll(requests, async (request) => {
    const response = await fetch(`${appUrl}/webhooks/midtrans`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: request.body,
    });
    const answer = (await response.json().catch(() => ({}))) as { outcome?: string; error?: string };
    const label = `${response.status} ${answer.outcome ?? answer.error ?? "?"}`;
    (byKind[request.kind] ??= {})[label] = (byKind[request.kind]![label] ?? 0) + 1;
    if (response.status === 200 && answer.outcome === "paid") counts.accepted++;
    else if (response.status === 200 && answer.outcome === "replay") counts.replays++;
    else if (response.status === 200 && answer.outcome === "pending") counts.statusMismatch++;
    else if (response.status === 401) counts.badSignature++;
    else counts.other++;
  });
  return { counts, byKind, ms };
}
