import type { Route } from "./+types/openapi";
import { buildOpenApi } from "./openapi.server";

// GET /api/core/openapi.json: the API's OpenAPI 3.1 document (openapi.server.ts builds it).
export function loader({ request }: Route.LoaderArgs) {
  const document = buildOpenApi(new URL(request.url).origin);
  return new Response(JSON.stringify(document, null, 2), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" } });
}
