import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/guard";
import { getUser } from "~/.server/http/session";

/**
 * Guard rule (spec §2): an anonymous request to any route below goes to
 * /authrequired?redirect=<the full path with its query>. Runs before every loader and action below.
 * `url` is the page's address: for a client navigation React Router has already removed its `.data`
 * suffix and its own search parameters (`request.url` is the raw request: decision 0004).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ url, context }, next) => {
    if (!getUser(context)) {
      throw redirect(`/authrequired?redirect=${encodeURIComponent(url.pathname + url.search)}`);
    }
    return next();
  },
];

export default function Guard() {
  return <Outlet />;
}
