import type { ZodMiniType } from "zod/mini";
import { checkValues } from "~/lib/schemas/check";
import { clientAddress } from "./request";
import { env } from "../env";
import { hitMailRateLimit, hitRateLimit, type RateLimitRule } from "../store/people";
import { getSessionUser, type SessionUser } from "../store/people";
import { errorField, log } from "../log";
import { holdsNul, NUL_REFUSED } from "./request";
import { parseId } from "~/lib/ids";

// The JSON API's door (spec §7, issue 19): the envelope, bearer tokens, errors and CORS. The
// handlers in app/routes/api/ are thin: they read the request, call app/.server/store and answer
// through the helpers here. No cookie is read or set on /api (session.ts skips it), so there is no
// CSRF to guard against (http.ts exempts /api/ from the Origin check).

export const API_PREFIX = "/api/core/api/v1";

/** Spec §3/§8: every answer is `{ success, code, message, data }`; 400s add `errors` per field. */
export type Envelope<T = unknown> = { success: boolean; code: number; message: string; data: T; errors?: Record<string, string[]> };

export const MESSAGES = {
  ok: "Berhasil",
  unauthorized: "Sesi Anda telah berakhir. Silakan login kembali.",
  notFound: "Data tidak ditemukan.",
  routeNotFound: "Alamat API tidak ditemukan.",
  methodNotAllowed: "Metode tidak didukung.",
  badJson: "Format data tidak valid. Kirim JSON (Content-Type: application/json).",
  server: "Terjadi kesalahan pada server. Silakan coba lagi.",
  corsRefused: "Asal permintaan tidak diizinkan.",
} as const;

/** An answer other than success, thrown from anywhere in a handler. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (message: string = MESSAGES.notFound) => new ApiError(404, message);

function json(status: number, body: Envelope, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export function ok<T>(data: T, message: string = MESSAGES.ok, status = 200): Response {
  return json(status, { success: true, code: status, message, data });
}

export function errorResponse(error: ApiError): Response {
  const body: Envelope<null> = { success: false, code: error.status, message: error.message, data: null };
  if (error.errors) body.errors = error.errors;
  return json(error.status, body, error.headers);
}

/** 400 with the form's messages per field; the envelope's message is the first of them. */
export function invalid(errors: Record<string, string[] | null | undefined>): ApiError {
  const clean: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) if (messages?.length) clean[field || "form"] = messages;
  const first = Object.values(clean)[0]?.[0] ?? MESSAGES.badJson;
  return new ApiError(400, first, clean);
}

// ————————————————————————————————————————————— reading requests

export type JsonBody = Record<string, unknown>;

/** The JSON body as an object (an empty body is `{}`); anything else is a 400, never a 500. */
export async function readJson(request: Request): Promise<JsonBody> {
  const type = request.headers.get("content-type") ?? "";
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) {
    // Plain HTML forms and curl -F/-d are accepted too: the same fields, as strings.
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ApiError(400, MESSAGES.badJson);
    }
    const body: JsonBody = {};
    for (const [key, value] of form) if (typeof value === "string") body[key] = value;
    if (holdsNul(body)) throw new ApiError(400, NUL_REFUSED);
    return body;
  }
  const text = await request.text().catch(() => {
    throw new ApiError(400, MESSAGES.badJson);
  });
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, MESSAGES.badJson);
  }
  if (holdsNul(value)) throw new ApiError(400, NUL_REFUSED);
  if (value && typeof value === "object" && !Array.isArray(value)) return value as JsonBody;
  throw new ApiError(400, MESSAGES.badJson);
}

/**
 * The body checked by a form's schema, so the forms' own rules and messages judge it: strings as
 * typed, numbers as their digits (a client may send a phone number as one); anything else (true,
 * false, null, arrays, objects) is not text, so the field counts as missing. Its value, or a 400
 * with the form's messages.
 */
export function validate<Schema extends ZodMiniType>(body: JsonBody, schema: Schema): Schema["_zod"]["output"] {
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string") text[key] = value;
    else if (typeof value === "number" && Number.isFinite(value)) text[key] = String(value);
  }
  const checked = checkValues(schema, text);
  if (!checked.success) throw invalid(checked.error);
  return checked.value;
}

/** The upload id in a path the upload call returned (`/uploads/<id>`, a full URL, or the bare id). */
export function uploadIdOf(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim() || value.length > 500) return null;
  const last = value.trim().split(/[?#]/)[0]!.split("/").pop() ?? "";
  try {
    const id = decodeURIComponent(last);
    return /^[A-Za-z0-9_-]{8,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** A positive whole id from a query value or a JSON field (string or number), else undefined. */
export function idOf(value: unknown): number | undefined {
  return parseId(value) ?? undefined;
}

/** A required id: missing or malformed is a 400 naming the field. */
export function requireId(value: unknown, field: string, message = `${field} tidak valid.`): number {
  const id = idOf(value);
  if (id === undefined) throw invalid({ [field]: [message] });
  return id;
}

/** A request that queues mail: the address's mail limit, then `rule` for address and subject (hitMailRateLimit); over either: 429. */
export async function limitMail(rule: RateLimitRule, address: string, subject: string, message: (minutes: number) => string) {
  const limited = await hitMailRateLimit(rule, address, subject);
  if (!limited.allowed) throw tooMany(limited.retryAfterSeconds, message(Math.ceil(limited.retryAfterSeconds / 60)));
}

/** Counts an attempt against a DB rate limit (the web's rules); over it: 429 with Retry-After. */
export async function limit(rule: RateLimitRule, subject: string, message: (minutes: number) => string) {
  const limited = await hitRateLimit(rule, subject);
  if (!limited.allowed) throw tooMany(limited.retryAfterSeconds, message(Math.ceil(limited.retryAfterSeconds / 60)));
}

export const tooMany = (retryAfterSeconds: number, message: string) =>
  new ApiError(429, message, undefined, { "Retry-After": String(Math.max(1, retryAfterSeconds)) });

// ————————————————————————————————————————————— tokens

/** The raw bearer token of the request, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,100})\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The token's user; a missing, unknown, expired or revoked token is a 401 (the client logs out). */
export async function requireApiUser(request: Request): Promise<{ user: SessionUser; token: string }> {
  const token = bearerToken(request);
  const user = token ? await getSessionUser(token, "api") : null;
  if (!user || !token) throw new ApiError(401, MESSAGES.unauthorized, undefined, { "WWW-Authenticate": 'Bearer realm="api"' });
  return { user, token };
}

// ————————————————————————————————————————————— routing inside an area

export type ApiMethod = "GET" | "POST" | "PUT";

export type ApiCall = {
  request: Request;
  url: URL;
  /** The signed-in user (routes with `auth: true`), else null. */
  user: SessionUser | null;
  token: string | null;
  address: string;
};

export type AuthedApiCall = ApiCall & { user: SessionUser; token: string };

/** One call of spec §7: with `auth` the handler gets the token's user. `doc` feeds the OpenAPI document. */
export type AnyApiRoute =
  | { method: ApiMethod; auth: true; handle: (call: AuthedApiCall) => Promise<Response>; doc: ApiDoc }
  | { method: ApiMethod; auth: false; handle: (call: ApiCall) => Promise<Response>; doc: ApiDoc };
export type ApiDoc = {
  summary: string;
  description?: string;
  /** Query parameters: name → [schema, description, required?]. */
  query?: Record<string, { type: "string" | "integer"; description: string; required?: boolean }>;
  /** The request body: a form schema (zod/mini) or a JSON Schema written here. */
  body?: ZodMiniType | Record<string, unknown>;
  bodyType?: "json" | "multipart";
  /** JSON Schema of `data` on success. */
  data?: Record<string, unknown>;
  /** The success statuses, when not just 200 (201: it made something, decision 0046). */
  success?: number[];
  /** Error statuses this call answers (401 is implied by `auth`, 413 by the request guard). */
  errors?: number[];
  headers?: Record<string, string>;
};
export type ApiArea = { area: string; routes: Record<string, AnyApiRoute> };

/** CORS: only origins listed in API_CORS_ORIGINS get the headers (no cookies: no credentials). */
function corsHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!origin || !env().apiCorsOrigins.includes(origin)) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
    "Access-Control-Expose-Headers": "Retry-After",
    "Access-Control-Max-Age": "600",
    Vary: "Origin",
  };
}

function withHeaders(response: Response, headers: Record<string, string>) {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Runs one request of an area: finds the call by method and path, checks the token, answers. */
export async function runApi(area: ApiArea, request: Request, path: string): Promise<Response> {
  const cors = corsHeaders(request);
  if (request.method === "OPTIONS") {
    if (!Object.keys(cors).length) return errorResponse(new ApiError(403, MESSAGES.corsRefused));
    return withHeaders(new Response(null, { status: 204 }), cors);
  }
  const url = new URL(request.url);
  try {
    const route = area.routes[path.replace(/\/+$/, "")];
    if (!route) throw new ApiError(404, MESSAGES.routeNotFound);
    const method = request.method === "HEAD" ? "GET" : request.method;
    if (route.method !== method) throw new ApiError(405, MESSAGES.methodNotAllowed, undefined, { Allow: route.method });
    const call: ApiCall = { request, url, user: null, token: null, address: clientAddress(request) };
    if (route.auth) {
      const { user, token } = await requireApiUser(request);
      return withHeaders(await route.handle({ ...call, user, token }), cors);
    }
    return withHeaders(await route.handle(call), cors);
  } catch (error) {
    if (error instanceof ApiError) return withHeaders(errorResponse(error), cors);
    // A body over the limit while streaming (request-guards.ts already answered 413).
    if ((error as { status?: number })?.status === 413) return errorResponse(new ApiError(413, "Data terlalu besar."));
    log.error({ err: errorField(error), method: request.method, path: url.pathname }, "api: call failed");
    return withHeaders(errorResponse(new ApiError(500, MESSAGES.server)), cors);
  }
}

/** The loader and action of one area's resource route (the splat is the call's path). */
export function areaRoute(area: ApiArea) {
  const run = ({ request, params }: { request: Request; params: Record<string, string | undefined> }) =>
    runApi(area, request, `/${params["*"] ?? ""}`);
  return { loader: run, action: run };
}

/** An area: its calls by path (below the area), e.g. "/login" of "auth". */
export function defineArea(area: string, routes: Record<string, AnyApiRoute>): ApiArea {
  return { area, routes };
}

/** A page of a list as spec §3 names its fields. */
export type Page<T> = { content: T[]; total: number; page: number; isLastPage: boolean };
