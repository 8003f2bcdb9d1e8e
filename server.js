// Production server: serves the built app (npm run serve, the container). Plain Node + Express:
// request guards (app/.server/request-guards.ts), static assets with long caching, compression, the
// React Router request handler, migrations before listening, and a clean database shutdown.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Set before React loads (imported below), so React and React DOM agree on the production build.
process.env.NODE_ENV ??= "production";

// With the embedded database (PGlite, PostgreSQL compiled to WebAssembly), V8's optimising tier
// recompiles PostgreSQL's hot functions and keeps the memory: on Node 24 the first start peaks at
// 840 MB instead of 270 MB (decision 0012). `--liftoff-only` prevents it, but only on the command
// line (Node 24 ignores v8.setFlagsFromString for it once running): it is in SERVER_NODE_FLAGS
// (scripts/lib.mjs), `npm run serve` and the Dockerfile. Said once here for a bare `node server.js`.
if (!process.env.DATABASE_URL && !process.execArgv.includes("--liftoff-only")) {
  console.warn("server.js runs without --liftoff-only: PGlite's WebAssembly makes the first start peak about 500 MB higher (start it with `npm run serve`).");
}
const { createRequestHandler } = await import("@react-router/express");
const { default: compression } = await import("compression");
const { default: express } = await import("express");

const root = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const build = await import(path.join(buildDir, "server/index.js"));
const { startServer, stopServer, installRequestGuards } = build.entry.module;

// Opens the database, applies migrations and loads reference (and demo) data before serving.
const config = await startServer().catch((error) => {
  // The data directory is another live process's (PGlite lock): its message says who and what to do.
  if (error?.name !== "DataDirLockedError") throw error;
  console.error(error.message);
  process.exit(1);
});

const app = express();
app.disable("x-powered-by");
// Before anything else: methods, body limits, client address and protocol (TRUST_PROXY hops),
// security headers on every response (app/.server/request-guards.ts).
installRequestGuards(app);
app.use(compression());
app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
// The other files of public/ (copied into build/client) are looked up under their own top-level
// names only: a page request costs no file-system lookup.
const publicDir = path.join(buildDir, "client");
const publicNames = new Set(fs.readdirSync(publicDir).filter((name) => name !== "assets"));
const servePublic = express.static(publicDir, { maxAge: "1h", index: false });
app.use((req, res, next) => (publicNames.has(req.path.split("/")[1]) ? servePublic(req, res, next) : next()));
app.all("*", createRequestHandler({ build }));

const server = app.listen(config.port, () => {
  console.log(`Toko Pegawai PLN: ${config.appUrl} (port ${config.port})`);
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  server.close();
  server.closeIdleConnections?.();
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await stopServer();
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
