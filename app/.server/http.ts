import type { MiddlewareFunction } from "react-router";

/**
 * The client's address, for rate limits. server.js sets this header itself (from the socket, or
 * from X-Forwarded-For when TRUST_PROXY=1) after dropping any value the client sent.
 */
export function clientAddress(request: Request): string {
  return request.headers.get("x-client-address")?.slice(0, 64) || "local";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Exempt paths authenticate their requests otherwise (the payment webhook has its HMAC signature).
const EXEMPT_PATHS = ["/webhooks/"];

/**
 * Refuses cross-site form posts (CSRF): a browser says where a request comes from in
 * Sec-Fetch-Site and Origin; a post from another site is answered 403 before any action runs.
 */
export const sameOriginMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (SAFE_METHODS.has(request.method)) return next();
  const url = new URL(request.url);
  if (EXEMPT_PATHS.some((p) => url.pathname.startsWith(p))) return next();
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const crossSite = (site !== null && site !== "same-origin" && site !== "none") || (origin !== null && origin !== "null" && origin !== url.origin);
  if (crossSite) {
    throw new Response("Permintaan ditolak: formulir harus dikirim dari situs ini.", { status: 403 });
  }
  return next();
};

/** Headers for every response of the app (documents get their CSP in entry.server). */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

export function contentSecurityPolicy(nonce: string, isProduction: boolean) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${isProduction ? "" : " ws: wss:"}`,
    "form-action 'self'",
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
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}
