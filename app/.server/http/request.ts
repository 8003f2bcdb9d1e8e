import type { MiddlewareFunction } from "react-router";
import { log } from "../log";

/**
 * The client's address, for rate limits. server.js sets this header itself (request-guards.ts: the
 * socket's address, or the X-Forwarded-For entry written by the outermost of TRUST_PROXY proxies)
 * after dropping any value the client sent.
 */
export function clientAddress(request: Request): string {
  return request.headers.get("x-client-address")?.slice(0, 64) || "local";
}

/** A request made on this machine straight to the app (set by request-guards.ts, never by clients). */
export function isLoopbackRequest(request: Request): boolean {
  return request.headers.get("x-client-loopback") === "1";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Exempt paths authenticate their requests otherwise (the payment webhook has its HMAC signature;
// the JSON API a bearer token in a header, which no other site can make a browser send — the API
// reads no cookie, so a cross-site request carries nothing to abuse).
const EXEMPT_PATHS = ["/webhooks/", "/api/"];

/**
 * Refuses cross-site form posts (CSRF): a browser says where a request comes from in
 * Sec-Fetch-Site and Origin; a post from another site is answered 403 ('Akses Ditolak', the root
 * error page) before any action runs. `Origin: null` (sandboxed frames, some redirects, file pages)
 * is another site too. React Router's own origin check is switched off in react-router.config.ts
 * (allowedActionOrigins) so that this one check answers, with one page and one log line.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  if (site !== null && site !== "same-origin" && site !== "none") return true;
  return origin !== null && origin !== new URL(request.url).origin;
}

export const sameOriginMiddleware: MiddlewareFunction<Response> = async ({ request, url }, next) => {
  if (SAFE_METHODS.has(request.method)) return next();
  if (EXEMPT_PATHS.some((p) => url.pathname.startsWith(p))) return next();
  if (isCrossSite(request)) {
    log.warn(
      {
        method: request.method,
        path: url.pathname,
        origin: (request.headers.get("origin") ?? "-").slice(0, 100),
        site: request.headers.get("sec-fetch-site") ?? "-",
      },
      "403 cross-site form post",
    );
    throw new Response("Permintaan ditolak: formulir harus dikirim dari situs ini.", { status: 403 });
  }
  return next();
};

/**
 * Whether a GET comes from this site's own pages (a form, a link, a script) or from the user typing
 * or bookmarking the address — not from a link on another site. Browsers say so in Sec-Fetch-Site;
 * older ones only in Referer (absent or from this site counts as ours).
 */
export function isOwnNavigation(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const referer = request.headers.get("referer");
  if (referer === null) return true;
  try {
    return new URL(referer).origin === new URL(request.url).origin;
  } catch {
    return false;
  }
}

/** Headers for every response of the app (documents get their CSP in entry.server). */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/**
 * `formActionOrigins`: other sites a form POST may end up at — a payment gateway's page that the
 * store's own answer redirects to (Midtrans Snap, issue 18): browsers apply form-action to redirects.
 */
export function contentSecurityPolicy(nonce: string, isProduction: boolean, formActionOrigins: string[] = []) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${isProduction ? "" : " ws: wss:"}`,
    ["form-action 'self'", ...formActionOrigins].join(" "),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * The submitted form, or an empty one when the body is not a form at all (JSON, text, a broken
 * multipart body): the action then answers 400 with the form's "tidak boleh kosong" messages
 * instead of failing with a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return new FormData();
  }
  for (const [, value] of form) if (typeof value === "string" && value.includes("\u0000")) throw nulRefused();
  return form;
}

/** The answer to text holding a NUL byte: PostgreSQL refuses it (its error would log the row's values), so do we, first. */
export const NUL_REFUSED = "Isian tidak boleh berisi karakter kosong (NUL). Hapus karakter itu lalu kirim ulang.";
const nulRefused = () => new Response(NUL_REFUSED, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** Whether a JSON value holds a NUL byte in any string, key or nested value. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === "object") return Object.entries(value).some(([key, v]) => key.includes("\u0000") || holdsNul(v));
  return false;
}
