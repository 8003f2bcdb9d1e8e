// The floors of `npm run bench:lighthouse`, served as server.js serves the store: Express,
// compression(), /assets with immutable caching, and React Router's request handler for the minimal
// app built into MINIMAL_BUILD_DIR (scripts/bench/minimal-app); plus /static, a static HTML page
// without script. Started by the bench with NODE_ENV=production and PORT; prints "listening" once
// it serves.
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.NODE_ENV ??= "production";

const { createRequestHandler } = await import("@react-router/express");
const { default: compression } = await import("compression");
const { default: express } = await import("express");

const here = path.dirname(fileURLToPath(import.meta.url));
const buildDir = process.env.MINIMAL_BUILD_DIR;
if (!buildDir) throw new Error("MINIMAL_BUILD_DIR is not set");
const build = await import(path.join(buildDir, "server", "index.js"));

const app = express();
app.disable("x-powered-by");
app.use(compression());
// Neither floor has an icon: the browser's request for one is answered without a React Router render.
app.get("/favicon.ico", (_req, res) => res.status(204).end());
app.get("/static", (_req, res) =>
  res.sendFile(path.join(here, "static.html"), { headers: { "Content-Type": "text/html; charset=utf-8" } }),
);
app.use("/assets", express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
app.all("*", createRequestHandler({ build }));

const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
