import type { IncomingMessage, ServerResponse } from "node:http";
import net from "node:net";
import type { Express, NextFunction, Request, Response } from "express";
import { env } from "../env";
import { SECURITY_HEADERS } from "./request";
import { log } from "../log";
import { CSV_MAX_BYTES } from "../csv";

/**
 * What the production server (server.js) does to every request before React Router or the static
 * files see it: refuse unknown methods, bound the body while it streams in, decide the client's
 * address and protocol from the trusted proxies only (TRUST_PROXY: hops or addresses), and give
 * every response the security headers (HSTS over HTTPS) and a Cache-Control. Installed by `installRequestGuards(app)`.
 */

/** Forms without files. Large enough for every form of the store, small enough to never matter. */
export const FORM_BODY_LIMIT = 64 * 1024;
/** Forms with photos (≤ 2 MB each after processing; phones send bigger originals). */
export const UPLOAD_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * The routes whose forms upload files (multipart). The ONE list: a new upload screen adds its path
 * here. Matched against the path without React Router's `.data` suffix (JavaScript submissions).
 */
export const UPLOAD_PATHS: RegExp[] = [
  /^\/checkout$/,
  /^\/payment\/[^/]+$/,
  /^\/transaction-detail\/[^/]+$/,
  /^\/api\/core\/api\/v1\/upload$/,
  /^\/ops\/catalogue\/banners$/,
  /^\/ops\/catalogue\/products\/[^/]+\/photos$/,
  /^\/ops\/catalogue\/import$/,
  /^\/ops\/catalogue\/photo-zip$/,
  /^\/ops\/employees$/,
];

/** 'Foto Produk' (issue 26): up to five photos of at most 5 MB each in one request. */
export const PHOTO_BODY_LIMIT = 26 * 1024 * 1024;
/** The catalogue's CSV import: what the CSV reader accepts, plus the form around the file. */
export const CSV_BODY_LIMIT = CSV_MAX_BYTES + 256 * 1024;
/** Photos for many products in one ZIP (issue 38): the ZIP plus the form around it. */
export const PHOTO_ZIP_BODY_LIMIT = 30 * 1024 * 1024 + 256 * 1024;
/** Upload paths whose limit is not UPLOAD_BODY_LIMIT. */
const OWN_BODY_LIMITS: [RegExp, number][] = [
  [/^\/ops\/catalogue\/products\/[^/]+\/photos$/, PHOTO_BODY_LIMIT],
  [/^\/ops\/catalogue\/import$/, CSV_BODY_LIMIT],
  [/^\/ops\/catalogue\/photo-zip$/, PHOTO_ZIP_BODY_LIMIT],
];

const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** The page path a request is for: `/payment/7.data` and `/payment/7/` are `/payment/7`. */
export function routePathOf(url: string): string {
  let pathname = url.split(/[?#]/)[0] ?? "/";
  pathname = pathname.replace(/\/_\.data$/, "").replace(/\.data$/, "");
  if (pathname.length > 1) pathname = pathname.replace(/\/+$/, "");
  return pathname || "/";
}

export function bodyLimitFor(url: string): number {
  const pathname = routePathOf(url);
  const own = OWN_BODY_LIMITS.find(([pattern]) => pattern.test(pathname));
  if (own) return own[1];
  return UPLOAD_PATHS.some((pattern) => pattern.test(pathname)) ? UPLOAD_BODY_LIMIT : FORM_BODY_LIMIT;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip", "via"];

/**
 * A request made on this machine, straight to the app: the socket is loopback, no proxy says it
 * forwarded the request (a proxy on the same host would otherwise make every visitor "local"), and
 * the Host is a loopback name (a page of another site cannot reach it through DNS rebinding).
 */
export function isDirectLoopback(req: IncomingMessage): boolean {
  if (!LOOPBACK.test(req.socket.remoteAddress ?? "")) return false;
  if (FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  return LOOPBACK_HOST.test(req.headers.host ?? "");
}

/** Whether the peer `address`, `hop` steps from the app (0: the socket's peer), is a proxy we trust. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as a test of each hop: a number N trusts the first N peers whoever they are (the app
 * port must then be reachable only through the proxy); a list trusts only peers at those addresses
 * and CIDRs, so a client that reaches the port directly is its own address, whatever it writes.
 */
export function proxyTrust(setting: number | string[]): ProxyTrust {
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  const proxies = new net.BlockList();
  for (const entry of setting) {
    const [address = "", prefix] = entry.split("/");
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (prefix === undefined) proxies.addAddress(address, type);
    else proxies.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const type = net.isIPv6(address) ? "ipv6" : net.isIPv4(address) ? "ipv4" : null;
    return type !== null && proxies.check(address, type);
  };
}

let configuredTrust: { for: number | string[]; trust: ProxyTrust } | undefined;
function trustOfEnv(): ProxyTrust {
  const setting = env().trustProxy;
  if (configuredTrust?.for !== setting) configuredTrust = { for: setting, trust: proxyTrust(setting) };
  return configuredTrust.trust;
}

/**
 * How many proxies in front of this request are trusted: the socket's peer, then each
 * X-Forwarded-For entry from the right, as long as `trust` says so. Their X-Forwarded-Proto and
 * X-Request-Id entries (the one the outermost of them wrote) are believed; nobody else's.
 */
export function trustedHops(req: IncomingMessage, trust: ProxyTrust = trustOfEnv()): number {
  const header = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [req.socket.remoteAddress ?? "", ...forwarded.reverse()];
  let hops = 0;
  while (hops < chain.length && trust(chain[hops]!, hops)) hops++;
  return hops;
}

/**
 * The protocol the browser used. Only the proxies we trust say so: with N trusted hops, the entry
 * the outermost trusted proxy wrote (proxies that overwrite the header leave one entry; ones that
 * append leave one per hop, after whatever the client wrote).
 */
export function forwardedProtocol(req: IncomingMessage, hops: number): "http" | "https" {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const header = req.headers["x-forwarded-proto"];
  if (hops < 1 || typeof header !== "string") return own;
  const entries = header.split(",").map((e) => e.trim().toLowerCase());
  const entry = entries[Math.max(0, entries.length - hops)];
  return entry === "https" || entry === "http" ? entry : own;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small self-contained page for answers given before the app runs (413). */
function plainPage(title: string, message: string) {
  return `<!doctype html><html lang="id"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Toko Pegawai PLN</title>
<style>body{font-family:system-ui,Arial,sans-serif;color:#1f2937;max-width:480px;margin:48px auto;padding:0 16px;text-align:center}a{display:inline-block;margin-top:16px;padding:12px 20px;min-height:44px;box-sizing:border-box;background:#0b6fb0;color:#fff;border-radius:8px;text-decoration:none}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><a href="/home">Kembali ke Beranda</a></main></body></html>`;
}

const megabytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`);

function answerTooLarge(req: IncomingMessage, res: ServerResponse, limit: number) {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const message = `Data yang Anda kirim terlalu besar (maksimal ${megabytes(limit)}). Kecilkan ukuran foto, file atau isian, lalu coba lagi.`;
  log.warn({ method: req.method, path: routePathOf(req.url ?? "/"), limit: megabytes(limit) }, "413 body too large");
  res.statusCode = 413;
  // No "Connection: close": with it Node destroys the socket as soon as the page is written, the
  // client's next chunk meets a closed socket (EPIPE / reset) and a browser shows a connection
  // error instead of this page. The rest of the body is read and thrown away instead (below).
  if (routePathOf(req.url ?? "/").startsWith("/api/")) {
    // The JSON API's clients read its envelope (app/.server/http/api.ts), not a page.
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ success: false, code: 413, message, data: null }));
  } else {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(plainPage("Permintaan Terlalu Besar", message));
  }
  // The rest of the body is read and thrown away (so the client gets to read the page) for at most
  // two seconds; then the connection goes, whatever the client still sends.
  req.resume();
  setTimeout(() => req.socket.destroy(), 2000).unref();
}

/**
 * Bounds the request body BEFORE anyone buffers it: a declared Content-Length over the limit is
 * answered at once; otherwise every chunk is counted as the socket delivers it (the HTTP parser
 * pushes chunks into the request stream; we count there, whoever reads the stream later) and the
 * first byte over the limit ends the request with 413 — the app never sees more than the limit.
 */
export function bodyLimit(limitFor: (url: string) => number = bodyLimitFor) {
  return (req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    const limit = limitFor(req.url ?? "/");
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return answerTooLarge(req, res, limit);
    let received = 0;
    let over = false;
    const push = req.push;
    req.push = function (chunk: unknown, encoding?: BufferEncoding) {
      // Past the limit nothing reaches the reader any more, not even the end of the body: a
      // truncated form must never look complete.
      if (over) return true;
      if (chunk === null) return push.call(this, chunk, encoding);
      received += (chunk as { length: number }).length;
      if (received <= limit) return push.call(this, chunk, encoding);
      over = true;
      answerTooLarge(req, res, limit);
      // The app's reader (React Router's request body) fails instead of waiting.
      if (req.listenerCount("error") > 0) req.emit("error", Object.assign(new Error("Request body over the limit"), { status: 413 }));
      return true;
    };
    next();
  };
}

/** Unknown and unsupported methods (TRACE, CONNECT, PROPFIND, OPTIONS outside /api …): 405, quietly. */
export function methodGuard(req: IncomingMessage, res: ServerResponse, next: NextFunction) {
  if (ALLOWED_METHODS.includes(req.method ?? "")) return next();
  // CORS preflights of the JSON API (answered there, from API_CORS_ORIGINS).
  if (req.method === "OPTIONS" && routePathOf(req.url ?? "/").startsWith("/api/")) return next();
  res.statusCode = 405;
  res.setHeader("Allow", ALLOWED_METHODS.join(", "));
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end("Metode tidak didukung.");
}

/** Origins React Router's own check cannot parse become "null": our check refuses it with the page. */
function normaliseOrigin(req: IncomingMessage) {
  const origin = req.headers.origin;
  if (origin === undefined || origin === "null") return;
  try {
    const url = new URL(origin);
    if (url.origin === "null") req.headers.origin = "null";
  } catch {
    req.headers.origin = "null";
  }
}

/**
 * Sets the headers the app reads to know the client (never the client's own values): the address
 * (rate limits) and whether the request comes straight from this machine (the demo outbox).
 */
function clientHeaders(trust: ProxyTrust) {
  return (req: Request, res: Response, next: NextFunction) => {
    delete req.headers["x-client-address"];
    delete req.headers["x-client-loopback"];
    // Never believed: the URL's host comes from Host, which the documented proxy setup passes on.
    delete req.headers["x-forwarded-host"];
    normaliseOrigin(req);
    req.headers["x-client-address"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    if (isDirectLoopback(req)) req.headers["x-client-loopback"] = "1";
    const protocol = forwardedProtocol(req, trustedHops(req, trust));
    Object.defineProperty(req, "protocol", { value: protocol, configurable: true });
    // Browsers keep to HTTPS once they saw it over HTTPS (never sent over plain HTTP: they ignore it there anyway).
    if (protocol === "https") res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    next();
  };
}

/**
 * Every response (documents, `.data`, redirects, plain-text errors, static files) gets the security
 * headers and a Cache-Control: responses that set none are personal until proven otherwise.
 */
export function defaultHeaders(_req: IncomingMessage, res: ServerResponse, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!this.hasHeader(name)) this.setHeader(name, value);
    if (!this.hasHeader("Cache-Control")) this.setHeader("Cache-Control", PERSONAL_CACHE_CONTROL);
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
  next();
}

/** A year, subdomains included (issue 25): the store is served over HTTPS only once it is. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** For answers that may hold personal data: never stored by shared caches nor by the browser. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/** Puts the guards in front of everything else in the Express app (call before any route). */
export function installRequestGuards(app: Express) {
  const trust = trustOfEnv();
  // Express believes X-Forwarded-For entries from the right only while `trust` says so (req.ip).
  app.set("trust proxy", trust);
  app.use(defaultHeaders);
  app.use(methodGuard);
  app.use(clientHeaders(trust));
  app.use(bodyLimit());
}
