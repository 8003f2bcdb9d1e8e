import type { Route } from "./+types/v1";
import { ApiError, errorResponse, MESSAGES, runApi } from "~/.server/api";
import { API_AREAS } from "./openapi.server";

// /api/core/api/v1/*: the JSON API of spec §7 (issue 19). The first segment names the area, whose
// module (./<area>.server.ts) holds its calls; the rest of the path picks the call. A resource
// route: no component, nothing of it reaches the browser bundles.

function dispatch(request: Request, splat: string | undefined) {
  const [area = "", ...rest] = (splat ?? "").split("/");
  const definition = API_AREAS.find((a) => a.area === area);
  if (!definition) return errorResponse(new ApiError(404, MESSAGES.routeNotFound));
  return runApi(definition, request, rest.length ? `/${rest.join("/")}` : "");
}

export const loader = ({ request, params }: Route.LoaderArgs) => dispatch(request, params["*"]);
export const action = ({ request, params }: Route.ActionArgs) => dispatch(request, params["*"]);
