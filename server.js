// Production server: serves the built app (npm run serve, the container). Plain Node + Express:
// the request id and one log line per request (app/.server/http/serving.ts), request guards
// (app/.server/http/request-guards.ts), /readyz and /metrics, static assets with long caching,
// compression, the React Router request handler, migrations before listening, and a draining
// shutdown that closes the database cleanly.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Set before React loads (imported below), so React and React DOM agree on the production build.
process.env.NODE_ENV ??= "production";

// With the embedded database (PGlite, PostgreSQL compiled to WebAssembly), V8's optimising tier
// recompiles PostgreSQL's hot functions and keeps the memory: on Node 24 the first start peaks at
// 840 MB instead of 270 MB (decision 0012). `--liftoff-only` prevents it, but only on the command
// line (Node 24 ignores v8.setFlagsFromString for it once running): it is in SERVER_NODE_FLAGS
// (scripts/lib.mjs), `npm run serve` and the Dockerfile. Said once below for a bare `node server.js`.
const { createRequestHandler } = await import("@react-router/express");
const { default: compression } = await import("compression");
const { default: express } = await import("express");

const root = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const build = await import(path.join(buildDir, "server/index.js"));
const {
  startServer,
  stopServer,
  configureKeepAlive,
  installRequestGuards,
  installRequestLog,
  metricsHandler,
  readinessHandler,
  routeIdFinder,
  log,
} = build.entry.module;

if (!process.env.DATABASE_URL && !process.execArgv.includes("--liftoff-only")) {
  log.warn(
    "server.js runs without --liftoff-only: PGlite's WebAssembly makes the first start peak about 500 MB higher (start it with `npm run serve`).",
  );
}

// Opens the database, applies migrations and loads reference (and demo) data before serving.
const config = await startServer().catch((error) => {
  // A setting it cannot start with (env.ts), or a data directory that is another live process's
  // (PGlite lock): their one-line message says what to set or do.
  if (error?.name !== "ConfigurationError" && error?.name !== "DataDirLockedError") throw error;
  log.fatal(error.message);
  process.exit(1);
});

// /readyz: 200 while serving; 503 from SIGTERM on (the balancer stops sending requests while this
// instance drains). /healthz (a route) stays liveness: the database answers.
let ready = false;

const app = express();
app.disable("x-powered-by");
// The other files of public/ (copied into build/client) are looked up under their own top-level
// names only: a page request costs no file-system lookup.
const publicDir = path.join(buildDir, "client");
const publicNames = new Set(fs.readdirSync(publicDir).filter((name) => name !== "assets"));
const isStatic = (pathname) => pathname.startsWith("/assets/") || publicNames.has(pathname.split("/")[1]);
// First: the request's id and its one log line, the request-duration metric (app/.server/http/serving.ts).
installRequestLog(app, routeIdFinder(build.routes, isStatic, { "/readyz": "readyz", "/metrics": "metrics" }));
// Then: methods, body limits, client address and protocol (TRUST_PROXY hops), security headers on
// every response (app/.server/http/request-guards.ts).
installRequestGuards(app);
app.get(
  "/readyz",
  readinessHandler(() => ready),
);
// Prometheus metrics to loopback clients or `Authorization: Bearer $METRICS_TOKEN`; else the 404 page.
app.get("/metrics", metricsHandler);
app.use(compression());
app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
const servePublic = express.static(publicDir, { maxAge: "1h", index: false });
app.use((req, res, next) => (publicNames.has(req.path.split("/")[1]) ? servePublic(req, res, next) : next()));
app.all("*", createRequestHandler({ build }));

const server = app.listen(config.port, () => {
  ready = true;
  log.info({ appUrl: config.appUrl, port: config.port }, "Toko Pegawai PLN: serving");
});
// Idle keep-alive connections outlive an event-loop stall (a backup): app/.server/http/serving.ts.
configureKeepAlive(server);

/**
 * SIGTERM (a rolling update, `docker stop`): unready at once, keep serving for SHUTDOWN_DRAIN_MS so
 * the balancer notices and sends new requests elsewhere, then close the listener, let the requests
 * in flight finish, stop the job queue (deliveries in flight finish), and close the database. SIGINT (Ctrl+C in a
 * terminal) skips the drain.
 */
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  ready = false;
  const drainMs = signal === "SIGTERM" ? config.shutdownDrainMs : 0;
  log.info({ signal, drainMs }, "shutting down: unready, draining");
  const force = setTimeout(() => {
    log.error("shutdown took too long: exiting");
    process.exit(1);
  }, drainMs + 15_000);
  force.unref();
  await new Promise((resolve) => setTimeout(resolve, drainMs));
  // Connections that fall idle after close() would stay open until their keep-alive timeout.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  await new Promise((resolve) => server.close(resolve));
  clearInterval(idle);
  await stopServer();
  log.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
