// The code's boundaries (issue 34 item 2, DESIGN §3), as one ESLint rule and the tables it reads;
// scripts/lint/structure.test.ts reads the same tables for the checks a per-file rule cannot make
// (no import circle between files or folders).
//
// 1. A store domain is entered through its index.ts (app/.server/store/<domain>/index.ts), and the
//    payment gateway through gateway/index.ts: only files inside the folder import its other files.
// 2. Buyer code (pages outside routes/ops and routes/api, components, layouts, root) never imports
//    the back office (routes/ops) or the JSON API (routes/api): nothing of theirs in buyer bundles.
// 3. A layer imports only its own layer and lower ones (LAYERS below, low to high).
// 4. The store takes typed commands (issue 46 item 1, decision 0076): no file under app/.server/store
//    reads a transport. It neither imports the web forms' parsing (~/lib/forms) nor names FormData,
//    URLSearchParams or Request; each door parses its own transport into the store's typed input
//    (STORE_TRANSPORT_RULES below, applied to the store's files in eslint.config.js).
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/** The platform files: configuration, logging, metrics, dates, images, CSV, ZIP, sharp. */
const PLATFORM = /^app\/\.server\/(env|log|metrics|dates|images|csv|zip|sharp|data-keys|data-crypto)\.ts$/;

/**
 * The layers, low to high; a file imports only files of its own layer or a lower one.
 */
export const LAYERS = [
  { name: "lib (app/lib)", test: (file) => file.startsWith("app/lib/") },
  {
    name: "platform (app/.server/{env,log,metrics,dates,images,csv,zip,sharp,data-keys,data-crypto}.ts)",
    test: (file) => PLATFORM.test(file),
  },
  { name: "db (app/.server/db)", test: (file) => file.startsWith("app/.server/db/") },
  { name: "gateway (app/.server/gateway)", test: (file) => file.startsWith("app/.server/gateway/") },
  { name: "store (app/.server/store)", test: (file) => file.startsWith("app/.server/store/") },
  {
    name: "doors and demo data (app/.server/http, app/.server/ops, app/.server/demo)",
    test: (file) => /^app\/\.server\/(http|ops|demo)\//.test(file),
  },
  // Test support drives the doors and the store; a test passes it the screens it runs (test-browser's
  // handlers, the API's areas), so support code never imports a page.
  { name: "test support (app/.server/testing)", test: (file) => file.startsWith("app/.server/testing/") },
  {
    name: "pages (app/components, app/layouts, app/routes, app/root.tsx, the entries)",
    test: (file) => /^app\/(components|layouts|routes)\//.test(file) || /^app\/[^/]+\.tsx?$/.test(file),
  },
];

/** The index of a file's layer in LAYERS, or -1 (styles, images: not code). */
export function layerOf(file) {
  return LAYERS.findIndex((layer) => layer.test(file));
}

/** The folder a file belongs to for the circle check: a store domain, a .server folder, a routes area, or an app folder. */
export function folderOf(file) {
  const server = file.match(/^app\/\.server\/(store\/[^/]+|[^/]+)\//);
  if (server) return `app/.server/${server[1]}`;
  if (PLATFORM.test(file)) return "app/.server (platform)";
  const app = file.match(/^app\/(routes\/ops|routes\/api|[^/]+)\//);
  return app ? `app/${app[1]}` : "app (root)";
}

const isBuyerCode = (file) =>
  (file.startsWith("app/routes/") && !/^app\/routes\/(ops|api)\//.test(file)) ||
  /^app\/(components|layouts)\//.test(file) ||
  file === "app/root.tsx";

const CANDIDATES = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx"];

/** The repository-relative file an import names (the `~/` alias is app/), or null for a package. */
export function resolveImport(fromFile, specifier) {
  let base;
  if (specifier.startsWith("~/")) base = path.join("app", specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..")
    base = path.join(path.dirname(fromFile), specifier);
  else return null;
  for (const suffix of CANDIDATES) {
    const candidate = base + suffix;
    const full = path.join(ROOT, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  // A file that does not exist (yet): judged by its name, the typecheck reports it missing.
  return /\.[cm]?[jt]sx?$/.test(base) ? base : `${base}.ts`;
}

/** Why `from` may not import `target` (both repository-relative), or null when it may. */
export function boundaryViolation(from, target) {
  const domain = target.match(/^app\/\.server\/store\/([^/]+)\/(.+)$/);
  if (domain && !from.startsWith(`app/.server/store/${domain[1]}/`) && !/^index\.tsx?$/.test(domain[2]))
    return `'${target}' is inside the ${domain[1]} domain: import its index (~/.server/store/${domain[1]}) instead`;
  const gateway = target.match(/^app\/\.server\/gateway\/(.+)$/);
  if (gateway && !from.startsWith("app/.server/gateway/") && !/^index\.tsx?$/.test(gateway[1]))
    return `'${target}' is inside the payment gateway: import its index (~/.server/gateway) instead`;
  if (isBuyerCode(from) && /^app\/routes\/(ops|api)\//.test(target))
    return `buyer code may not import the back office or the API ('${target}'): it would reach buyer bundles`;
  if (target.startsWith("app/.server/testing/") && !from.startsWith("app/.server/testing/") && !/\.test\.tsx?$/.test(from))
    return `'${target}' is test support: only tests import it`;
  const fromLayer = layerOf(from);
  const toLayer = layerOf(target);
  if (fromLayer >= 0 && toLayer > fromLayer)
    return `the ${LAYERS[fromLayer].name} layer may not import the higher ${LAYERS[toLayer].name} layer ('${target}')`;
  return null;
}

/** The ESLint rule: reports each import of a file under app/ that crosses a boundary. */
export const boundariesRule = {
  meta: {
    type: "problem",
    docs: { description: "Imports respect the store's domain indexes, the buyer/back-office split and the layers (issue 34)" },
    schema: [],
    messages: { boundary: "Boundary: {{why}}." },
  },
  create(context) {
    const from = path.relative(ROOT, context.filename).split(path.sep).join("/");
    if (!from.startsWith("app/")) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
      const target = resolveImport(from, source.value);
      if (!target) return;
      const why = boundaryViolation(from, target);
      if (why) context.report({ node: source, messageId: "boundary", data: { why } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

/** The transport types a store file may not name (rule 4). */
export const TRANSPORT_NAMES = ["FormData", "URLSearchParams", "Request"];

const TRANSPORT_MESSAGE = "the store takes typed input, never a transport: the door parses its form, JSON or arguments (issue 46)";

/** Rule 4 as ESLint's own rules, for the files under app/.server/store (tests included). */
export const STORE_TRANSPORT_RULES = {
  "no-restricted-imports": [
    "error",
    { patterns: [{ group: ["~/lib/forms", "**/lib/forms", "**/lib/forms.ts"], message: `Boundary: ${TRANSPORT_MESSAGE}.` }] },
  ],
  "no-restricted-syntax": [
    "error",
    {
      selector: `Identifier[name=/^(${TRANSPORT_NAMES.join("|")})$/]`,
      message: `Boundary: ${TRANSPORT_MESSAGE}; FormData, URLSearchParams and Request stay in the doors.`,
    },
  ],
};

export default { meta: { name: "store-boundaries" }, rules: { boundaries: boundariesRule } };
