import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/guard";
import { getUser } from "~/.server/session";

/**
 * Guard rule (spec §2): an anonymous request to any route below goes to
 * /authrequired?redirect=<the full path with its query>. Runs before every loader and action below.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    if (!getUser(context)) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/\.data$/, "") + url.search.replace(/([?&])_routes=[^&]*&?/, "$1").replace(/[?&]$/, "");
      throw redirect(`/authrequired?redirect=${encodeURIComponent(path)}`);
    }
    return next();
  },
];

export default function Guard() {
  return <Outlet />;
}
