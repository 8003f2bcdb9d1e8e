import { z, type ZodMiniType } from "zod/mini";
import { API_PREFIX, type ApiArea, type ApiDoc } from "~/.server/http/api";
import { AUTH_AREA } from "./auth.server";
import { BALANCE_AREA } from "./balance.server";
import { BANNER_AREA } from "./banner.server";
import { COMPANY_AREA } from "./company.server";
import { LOCATION_AREA } from "./location.server";
import { NOTIFICATION_AREA } from "./notification.server";
import { OFFICE_AREA } from "./office.server";
import { ORDER_AREA } from "./order.server";
import { OTP_AREA } from "./otp.server";
import { PAYMENT_AREA } from "./payment.server";
import { PRODUCT_AREA } from "./product.server";
import { REFUND_AREA } from "./refund.server";
import { UPLOAD_AREA } from "./upload.server";
import { USER_AREA } from "./user.server";

// The API's areas, and its OpenAPI 3.1 document (GET /api/core/openapi.json) built from the calls'
// own definitions — the request bodies from the same zod/mini schemas the forms validate with
// (zod's JSON Schema output), so the document cannot drift from what the server checks.

/** Bump the minor version for additions; a breaking change gets a new prefix (/api/v2), see README. */
export const API_VERSION = "1.2.1";

export const API_AREAS: ApiArea[] = [
  AUTH_AREA,
  USER_AREA,
  PRODUCT_AREA,
  BANNER_AREA,
  ORDER_AREA,
  PAYMENT_AREA,
  REFUND_AREA,
  BALANCE_AREA,
  COMPANY_AREA,
  OFFICE_AREA,
  OTP_AREA,
  LOCATION_AREA,
  UPLOAD_AREA,
  NOTIFICATION_AREA,
];

type Json = Record<string, unknown>;

const isZod = (schema: unknown): schema is ZodMiniType => typeof schema === "object" && schema !== null && "_zod" in schema;

/** JSON Schema of a request body: the form's zod schema as its input, or the schema written beside the call. */
export function bodySchema(body: ApiDoc["body"]): Json | undefined {
  if (!body) return undefined;
  if (!isZod(body)) return body;
  const { $schema: _drop, ...schema } = z.toJSONSchema(body, { io: "input", unrepresentable: "any" }) as Json;
  return schema;
}

const STATUS_TEXT: Record<number, string> = {
  200: "Success",
  201: "Created",
  400: "Invalid input: `errors` has the form's Indonesian messages per field; `message` is the first",
  401: "Missing, expired or revoked token: the client signs out",
  403: "Refused (e.g. the account is not verified yet)",
  404: "Not found, or not the caller's",
  405: "Wrong method",
  409: "Refused by the order's state or rules (the message says why)",
  413: "Body too large: the server's limit, answered before the call runs (any method)",
  429: "Too many attempts: wait Retry-After seconds",
};

const envelope = (data: Json | undefined, status: number): Json => {
  const success = status < 400;
  return {
    type: "object",
    required: ["success", "code", "message", "data"],
    properties: {
      success: { const: success },
      code: { const: status, description: "The HTTP status" },
      message: { type: "string" },
      data: success ? (data ?? {}) : { type: "null" },
      ...(success ? {} : { errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } } }),
    },
  };
};

export function buildOpenApi(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const area of API_AREAS) {
    for (const [sub, route] of Object.entries(area.routes)) {
      const path = `${API_PREFIX}/${area.area}${sub}`;
      const doc = route.doc;
      const parameters: Json[] = Object.entries(doc.query ?? {}).map(([name, q]) => ({
        name,
        in: "query",
        required: q.required ?? false,
        description: q.description,
        schema: { type: q.type },
      }));
      for (const [name, description] of Object.entries(doc.headers ?? {}))
        parameters.push({ name, in: "header", required: false, description, schema: { type: "string" } });
      // 413: the request guard answers a body over the limit on every call, before the call runs.
      const statuses = [...new Set([...(doc.success ?? [200]), ...(doc.errors ?? []), ...(route.auth ? [401] : []), 413])].sort(
        (a, b) => a - b,
      );
      const responses: Record<string, Json> = {};
      for (const status of statuses) {
        responses[String(status)] = {
          description: STATUS_TEXT[status] ?? "",
          ...(status === 429 ? { headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait" } } } : {}),
          content: { "application/json": { schema: envelope(doc.data, status) } },
        };
      }
      const body = bodySchema(doc.body);
      paths[path] = {
        [route.method.toLowerCase()]: {
          operationId: `${area.area}${sub.replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
          tags: [area.area],
          summary: doc.summary,
          ...(doc.description ? { description: doc.description } : {}),
          ...(parameters.length ? { parameters } : {}),
          ...(body
            ? {
                requestBody: {
                  required: true,
                  content: { [doc.bodyType === "multipart" ? "multipart/form-data" : "application/json"]: { schema: body } },
                },
              }
            : {}),
          responses,
          security: route.auth ? [{ bearer: [] }] : [],
        },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Toko Pegawai PLN API",
      version: API_VERSION,
      // The store's own API for PLN's employee store, not published for reuse.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      description:
        "The store's JSON API (spec §7): the same store, rules and Indonesian messages as the web pages. Every answer is the envelope `{ success, code, message, data }`; pages are `{ content, total, page, isLastPage }` (page from 0). Sign in with POST /auth/login and send `Authorization: Bearer <token>`. No cookies; CORS only for the origins in API_CORS_ORIGINS.",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "The token of /auth/login or /auth/register (opaque; 30 days; revoked by logout and password reset)",
        },
      },
    },
    paths,
  };
}
