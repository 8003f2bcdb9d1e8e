import type { Route } from "./+types/index";
import { API_PREFIX, ApiError, errorResponse, MESSAGES, runApi } from "~/.server/http/api";
import { docsResponse } from "./docs.server";
import { API_AREAS, buildOpenApi } from "./openapi.server";

// Everything under /api (issue 19), as ONE resource route: no component, an empty client chunk and
// a single entry in the browser's route manifest, however many calls the API has.
//   /api/core/api/v1/<area>/<call>  the JSON API of spec §7: ./<area>.server.ts holds the calls
//   /api/core/openapi.json          the OpenAPI 3.1 document (./openapi.server.ts)
//   /api/core/docs                  the reference as one plain HTML page (./docs.server.ts)
//   anything else                   the API's JSON 404 (never the HTML page)

function dispatch(request: Request, splat: string | undefined) {
  const path = `/api/${splat ?? ""}`;
  if (path.startsWith(`${API_PREFIX}/`)) {
    const [area = "", ...rest] = path.slice(API_PREFIX.length + 1).split("/");
    const definition = API_AREAS.find((a) => a.area === area);
    if (definition) return runApi(definition, request, rest.length ? `/${rest.join("/")}` : "");
  }
  if (request.method === "GET" || request.method === "HEAD") {
    if (path === "/api/core/openapi.json") {
      const document = buildOpenApi(new URL(request.url).origin);
      return new Response(JSON.stringify(document, null, 2), {
        headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" },
      });
    }
    if (path === "/api/core/docs") return docsResponse();
  }
  return errorResponse(new ApiError(404, MESSAGES.routeNotFound));
}

export const loader = ({ request, params }: Route.LoaderArgs) => dispatch(request, params["*"]);
export const action = ({ request, params }: Route.ActionArgs) => dispatch(request, params["*"]);
