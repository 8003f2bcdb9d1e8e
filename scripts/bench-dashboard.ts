// npm run bench:dashboard [-- --orders 100000] [-- --html file.html] [-- --only /ops/search] [-- --explain] [-- --no-vacuum]
// — the back-office home (/ops), finance's 'Pengembalian Dana' (/ops/refunds) and 'Keuangan'
// (/ops/finance, issue 36), and the other list pages (a queue, the search, withdrawals), at N orders.
// --only: the pages whose path starts with it; --explain: each page's queries with EXPLAIN (ANALYZE,
// BUFFERS) after the timings; --no-vacuum: the tables as a store that never vacuums (without the
// hourly maintenance job); BENCH_DATABASE_URL: an empty PostgreSQL database instead of PGlite.
//
// On a fresh PGlite database in a temporary directory (the build's prepared database when there is
// one), N orders are made as bench:export makes them (scripts/bench-data.ts: spread over a year,
// about 8 % in the 30-day window). A staff member with every role opens /ops through the real
// session middleware and the route's loader (queues, the 30-day aggregates, the charts
// computed with d3), and the page is rendered to HTML as the server does. For the finance pages the
// paid orders have their receipts (as migration 0015 backfills them) and every 50th order a refund
// of a transfer, in the four states in turn. Prints each run's time and, as its LAST line, one JSON
// object {"orders", "medianMs", "maxMs", "pages": {path: {medianMs, maxMs}}} (medianMs, maxMs: the
// slowest page's): 1 warm-up, then 10 runs a page. Exit code 1 when a median passes DESIGN §8's 300 ms.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { option, root, useTemporaryPglite } from "./bench/temporary-store";

const LIMIT_MS = 300;

const total = option("orders", 100_000);
// --html <file>: the rendered page, to look at.
const htmlIndex = process.argv.indexOf("--html");
const htmlFile = htmlIndex >= 0 ? process.argv[htmlIndex + 1] : undefined;

// BENCH_DATABASE_URL: an empty PostgreSQL database to run on instead of PGlite (it is filled, not emptied).
const postgresUrl = process.env.BENCH_DATABASE_URL;
// --explain: after the timings, each page's queries with their plans (EXPLAIN ANALYZE, BUFFERS), one loader run.
const explain = process.argv.includes("--explain");
// --only /ops/finance: time only the pages whose path starts with it.
const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;

const dataDir = useTemporaryPglite("bench-dashboard-");
if (postgresUrl) process.env.DATABASE_URL = postgresUrl;

const { getDb, closeDb } = await import("~/.server/db/client");
const { sessions } = await import("~/.server/db/schema");
const { eq } = await import("drizzle-orm");
const { seedBenchOrders } = await import("./bench-data");
const { createVerifiedUser } = await import("~/.server/testing/fixtures");
const { grantRolesByEmail } = await import("~/.server/store/people");
const { TestBrowser } = await import("~/.server/testing/test-browser");
const { sql } = await import("drizzle-orm");
const { PAID_STATUSES } = await import("~/lib/order-status");
const home = await import("~/routes/ops/queues");
const refundsPage = await import("~/routes/ops/refunds");
const financePage = await import("~/routes/ops/finance");
const queuePage = await import("~/routes/ops/queue");
const searchPage = await import("~/routes/ops/search");
const withdrawalsPage = await import("~/routes/ops/withdrawals");
const { createElement } = await import("react");
const { renderToString } = await import("react-dom/server");
const { createRoutesStub } = await import("react-router");

try {
  const setupStarted = Date.now();
  await seedBenchOrders(total);
  const db = await getDb();
  // The money of those orders (issue 36): each paid order's receipt, as migration 0015 backfills it;
  // every 50th order a transfer received and refunded, the refunds in the four states in turn.
  await db.execute(sql`
    insert into order_receipts (order_id, amount, source, ref, method_type, created_at)
    select id, total_amount, 'payment', 'order:' || id || ':paid', 'bank_transfer', created_at from orders where status_id in ${[...PAID_STATUSES]}
    on conflict do nothing`);
  await db.execute(sql`
    insert into order_receipts (order_id, amount, source, ref, method_type, created_at)
    select id, total_amount, 'transfer-claimed', 'order:' || id || ':transfer', 'bank_transfer', created_at from orders where id % 50 = 0
    on conflict do nothing`);
  await db.execute(sql`
    insert into refunds (order_id, amount, cause, reason, method, state, bank_name, account_number, account_holder, account_given_at,
      transfer_reference, created_at, updated_at, refunded_at)
    select id, total_amount, 'buyer-cancel', 'Pesanan dibatalkan oleh pembeli setelah transfer', 'transfer', s.state,
      case when s.state = 'awaiting-account' then null else 'BNI' end, case when s.state = 'awaiting-account' then null else '0123456789' end,
      case when s.state = 'awaiting-account' then null else 'Pembeli ' || id end, case when s.state = 'awaiting-account' then null else created_at end,
      case when s.state = 'refunded' then 'TRF' || id end, created_at, created_at, case when s.state = 'refunded' then created_at + interval '2 days' end
    from orders, lateral (select (array['awaiting-account', 'processing', 'refunded', 'failed'])[1 + (id / 50) % 4] as state) s where id % 50 = 0`);
  // The store as it stands between two runs of the hourly maintenance job (PGlite has no autovacuum:
  // db/maintenance.ts) or after PostgreSQL's autovacuum; --no-vacuum: as a store that never vacuums.
  await db.execute(process.argv.includes("--no-vacuum") ? sql`analyze` : sql`vacuum (analyze)`);
  const staff = await createVerifiedUser(db);
  await grantRolesByEmail(staff.email, ["admin"], "ops");
  // The loader checks the staff member itself (requireStaff); the layout's middleware does the same.
  const browser = await new TestBrowser().signIn(staff.id);
  // The second factor as /ops/2fa would have marked it.
  await db.update(sessions).set({ secondFactorAt: new Date() }).where(eq(sessions.userId, staff.id));
  console.log(`setup: ${total} orders in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);

  // The back office's list pages (issue 37: each ≤ 300 ms): a queue's first and a deep page, the
  // search by status and by part of an e-mail (every order matches neither index: a scan).
  type Page = { loader: unknown; default: unknown };
  const pages: { path: string; page: Page; route?: string; params?: Record<string, string> }[] = [
    { path: "/ops", page: home },
    { path: "/ops/refunds", page: refundsPage },
    { path: "/ops/finance", page: financePage },
    { path: "/ops/queue/kirim", page: queuePage, route: "/ops/queue/:queue", params: { queue: "kirim" } },
    { path: "/ops/queue/kirim?page=500", page: queuePage, route: "/ops/queue/:queue", params: { queue: "kirim" } },
    { path: "/ops/search?statusId=500", page: searchPage, route: "/ops/search" },
    { path: "/ops/search?email=pembeli9999", page: searchPage, route: "/ops/search" },
    { path: "/ops/withdrawals", page: withdrawalsPage },
  ];
  const results: Record<string, { medianMs: number; maxMs: number }> = {};
  for (const { path: url, page, route, params } of pages.filter((p) => !only || p.path.startsWith(only))) {
    const times: number[] = [];
    let html = "";
    for (let run = 0; run <= 10; run++) {
      const started = performance.now();
      const outcome = await browser.get(page.loader as never, url, params);
      if (outcome.status !== 200) throw new Error(`${url} answered ${outcome.status}`);
      const loaded = performance.now();
      const Stub = createRoutesStub([{ path: route ?? url, Component: page.default as never, loader: () => outcome.data }]);
      html = renderToString(createElement(Stub, { initialEntries: [url], hydrationData: { loaderData: { "0": outcome.data } } } as never));
      const ms = performance.now() - started;
      if (run > 0) times.push(ms);
      console.log(
        `${url} ${run === 0 ? "warm-up" : `run ${run}`}: ${ms.toFixed(1)} ms (loader ${(loaded - started).toFixed(1)} ms, render ${(performance.now() - loaded).toFixed(1)} ms)`,
      );
    }
    if (htmlFile && url === "/ops") {
      const css = fs.readFileSync(path.join(root, "app/routes/ops/ops.css"), "utf8");
      fs.writeFileSync(
        htmlFile,
        `<!doctype html><html lang="id"><meta charset="utf-8"><style>${css}</style><body><div class="ops-shell"><main class="ops-main">${html}</main></div></body></html>`,
      );
    }
    times.sort((a, b) => a - b);
    const medianMs = Math.round(((times[4]! + times[5]!) / 2) * 10) / 10;
    const maxMs = Math.round(times.at(-1)! * 10) / 10;
    results[url] = { medianMs, maxMs };
    console.log(
      `${url} at ${total} orders: median ${medianMs} ms, max ${maxMs} ms (limit ${LIMIT_MS} ms), load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  }
  if (explain)
    for (const { path: url, page, params } of pages.filter((p) => !only || p.path.startsWith(only))) {
      const queries = await recordQueries(() => browser.get(page.loader as never, url, params));
      for (const [text, values] of queries) {
        const plan = await runRaw(`explain (analyze, buffers) ${text}`, values);
        console.log(`\n--- ${url}: ${text.replace(/\s+/g, " ").slice(0, 160)}\n${plan.map((row) => Object.values(row)[0]).join("\n")}`);
      }
    }
  const medianMs = Math.max(...Object.values(results).map((r) => r.medianMs));
  const maxMs = Math.max(...Object.values(results).map((r) => r.maxMs));
  console.log(JSON.stringify({ orders: total, medianMs, maxMs, pages: results }));
  process.exitCode = medianMs <= LIMIT_MS ? 0 : 1;
} finally {
  await closeDb();
  if (postgresUrl) console.log(`(on PostgreSQL: ${new URL(postgresUrl).host})`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// The driver under Drizzle: PGlite's query(text, params) or postgres.js's unsafe(text, params).
type RawClient = {
  query?: (text: string, params?: unknown[], options?: unknown) => Promise<{ rows: Record<string, unknown>[] }>;
  unsafe?: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]> & { values?: unknown };
};
async function rawClient(): Promise<RawClient> {
  return ((await getDb()) as unknown as { $client: RawClient }).$client;
}
async function runRaw(text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const client = await rawClient();
  if (client.query) return (await client.query(text, params)).rows;
  return await client.unsafe!(text, params as never);
}
/** The statements (with their parameters) `work` sends, in order, without repeats. */
async function recordQueries(work: () => Promise<unknown>): Promise<[string, unknown[]][]> {
  const client = await rawClient();
  const name = client.query ? "query" : "unsafe";
  const original = client[name]!;
  const seen = new Map<string, [string, unknown[]]>();
  client[name] = ((text: string, params: unknown[] = [], ...rest: unknown[]) => {
    if (/^\s*(select|with)\b/i.test(text)) seen.set(text, [text, params]);
    return (original as (...args: unknown[]) => never).call(client, text, params, ...rest);
  }) as never;
  try {
    await work();
  } finally {
    client[name] = original as never;
  }
  return [...seen.values()];
}
