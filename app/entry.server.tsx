import crypto from "node:crypto";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from "react-router";
import { closeDb, getDb, registerDemoSeeder } from "./.server/db/client";
import { setLockRole } from "./.server/db/data-dir-lock";
import { MAINTENANCE_CRON, vacuumEmbeddedDatabase } from "./.server/db/maintenance";

// The build writes the prepared first-start database and demo images with these (react-router.config.ts).
export { writeDatabaseTemplate } from "./.server/db/client";
export { writePreparedDemoMedia } from "./.server/demo/demo-catalogue";
import { env } from "./.server/env";
import { pruneOutbox, sendPaymentReminders, smsUsesOutbox, startMessageWorkers } from "./.server/store/messages";
import { holdScriptsUntilLoad } from "./.server/http/scripts-after-load";
import { gatewayFormActionOrigins, webhookSecret } from "./.server/gateway";
import { runPaymentSweep, sweepSummary } from "./.server/store/payments";
import { contentSecurityPolicy, SECURITY_HEADERS } from "./.server/http/request";
import { outboxWarning } from "./.server/store/messages";
import { forgetAppliedImportFiles } from "./.server/store/back-office";
import { PERSONAL_CACHE_CONTROL } from "./.server/http/request-guards";
import { startOpsChannel } from "./.server/ops/channel";
import { deleteExpiredDataExports, deleteExpiredKtpPhotos } from "./.server/store/privacy";
import { NonceContext } from "./lib/nonce";
import { errorField, log } from "./.server/log";
import { seedDemoData } from "./.server/demo/demo-data";

// Demo data (DEMO_DATA=1) lies above the database layer, which therefore cannot import it: the server adds it here.
registerDemoSeeder(seedDemoData);

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
) {
  const nonce = crypto.randomBytes(16).toString("base64");
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, env().isProduction, gatewayFormActionOrigins()));
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) responseHeaders.set(name, value);
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", PERSONAL_CACHE_CONTROL);

  // Crawlers and browsers without JavaScript get the whole document at once; others stream.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let renderDone = false;
    let abortTimer: ReturnType<typeof setTimeout> | undefined;
    // Once everything is rendered the timer below has nothing left to abort, and left running it
    // would keep this whole render (request, headers, React's state) alive for six more seconds: at
    // a few hundred pages a second, most of the server's heap (decision 0012).
    const done = () => {
      renderDone = true;
      clearTimeout(abortTimer);
    };
    const respond = () => {
      shellRendered = true;
      const document = holdScriptsUntilLoad();
      resolve(new Response(createReadableStreamFromReadable(document), { headers: responseHeaders, status: responseStatusCode }));
      pipe(document);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        // A layout's page sits under a Suspense boundary (components/page-outlet.tsx) so that React
        // hydrates it apart from the layout. React would send a large boundary's HTML out of place,
        // hidden, with a script to move it in: a browser without JavaScript would never see the
        // page. Every boundary that is ready is written where it belongs.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          if (!waitForAll) respond();
        },
        onAllReady() {
          done();
          if (waitForAll) respond();
        },
        onShellError(error: unknown) {
          done();
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, handleError logs them.
          if (shellRendered) log.error({ err: errorField(error) }, "render failed after the shell");
        },
      },
    );
    // Deferred data still pending after streamTimeout is cut off, with a second left to send the
    // rejected boundaries.
    if (!renderDone) abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * The one place a server error is logged, with its stack, once. Expected answers (404, 405, a
 * refused post, a bad form: React Router hands some of them here as error responses) are not
 * errors and write nothing.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  log.error({ err: errorField(error) }, "server error");
}

// server.js puts these in front of React Router (the server build is what server.js can import).
export { installRequestGuards } from "./.server/http/request-guards";
export { configureKeepAlive, installRequestLog, metricsHandler, readinessHandler, routeIdFinder } from "./.server/http/serving";
export { log } from "./.server/log";

/** Called by server.js before it listens: validates the configuration and prepares the database. */
let opsChannel: Awaited<ReturnType<typeof startOpsChannel>> | undefined;

export async function startServer() {
  const e = env();
  setLockRole("server");
  // The message workers and the once-a-minute jobs (one run per minute across all instances) start
  // with the job queue, which starts with the database (store/messages/queue.ts).
  await startMessageWorkers({
    "payments-sweep": paymentSweep,
    "payment-reminders": sendPaymentReminders,
    // Issue 35: what is kept only as long as needed: KTP photos past their retention, applied import
    // files, the demo outbox's old messages, 'Unduh Data Saya' archives past their 24 hours (decision
    // 0059); a few rows a day, the minute's run finds most days none.
    "data-retention": async () => ({
      ktpPhotos: await deleteExpiredKtpPhotos(),
      importFiles: await forgetAppliedImportFiles(),
      outbox: await pruneOutbox(),
      dataExports: await deleteExpiredDataExports(),
    }),
    // Issue 37: PGlite has no autovacuum; the back office's counts read only indexes once the
    // tables are vacuumed (db/maintenance.ts). Hourly; nothing on PostgreSQL.
    "db-maintenance": { cron: MAINTENANCE_CRON, run: vacuumEmbeddedDatabase },
  });
  await getDb();
  // PGlite is this process's alone (DATA_DIR/pglite.lock): the ops CLI sends its commands here.
  if (!e.databaseUrl) {
    opsChannel = await startOpsChannel(e.dataDir).catch((error: unknown) => {
      log.warn({ dataDir: e.dataDir, err: errorField(error) }, "the ops CLI cannot reach this server (no ops socket)");
      return undefined;
    });
  }
  // Named explicitly (env.ts refuses production without it), yet worth saying at every start.
  if (e.isProduction && e.paymentGateway === "sandbox") {
    log.warn(
      "PAYMENT_GATEWAY=sandbox: any buyer can pay their own orders for free ('Bayar (Sandbox)'). For demos and tests only: set PAYMENT_GATEWAY=midtrans for real payments.",
    );
  }
  if (typeof e.trustProxy === "number" && e.trustProxy >= 1) {
    log.warn(
      `TRUST_PROXY=${e.trustProxy} believes the X-Forwarded-For of any client that reaches this port: make the port reachable only through the proxy, or give the proxies' addresses instead (TRUST_PROXY=10.0.0.5 or 10.0.1.0/24).`,
    );
  }
  if (e.isProduction && !e.smtpUrl) log.warn(outboxWarning());
  if (e.isProduction && smsUsesOutbox()) log.warn("No SMS provider: one-time codes go to the outbox at /outbox (demo only).");
  // Several instances share one PostgreSQL database: a secret generated per DATA_DIR would differ
  // between them (a session signed by one would be refused by the other; decision 0041).
  if (e.isProduction && e.databaseUrl && (!e.sessionSecrets.length || !e.paymentWebhookSecret)) {
    log.warn(
      "DATABASE_URL is set: give every instance the same SESSION_SECRET and PAYMENT_WEBHOOK_SECRET (generated ones differ per DATA_DIR).",
    );
  }
  webhookSecret(); // generates (and warns about) the sandbox's secret now rather than at the first payment
  return { port: e.port, appUrl: e.appUrl, shutdownDrainMs: e.shutdownDrainMs };
}

/** The expiry sweep and the Midtrans reconciliation (store/payments/sweep.ts), once a minute; they also run on read. */
async function paymentSweep() {
  const result = await runPaymentSweep();
  const summary = sweepSummary(result);
  if (summary) log.info(summary);
  return { expired: result.expired.length, reconciled: result.reconciled.length };
}

/**
 * Called on SIGTERM/SIGINT: stops the job queue (deliveries in flight finish, or are tried again
 * later by any instance) and closes the database cleanly (PGlite flushes its files).
 */
export async function stopServer() {
  await opsChannel?.close();
  opsChannel = undefined;
  await closeDb();
}
