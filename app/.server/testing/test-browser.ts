import { RouterContextProvider } from "react-router";
import { startSession } from "~/.server/http/auth";
import { sessionMiddleware } from "~/.server/http/session";

// For the route modules' tests: one browser whose requests run through the real session middleware
// (and a route's own middleware, e.g. the /ops layout's), then a loader or an action. Its cookie
// carries the session from one request to the next. Not a route module.

// `url` is the page address React Router 8 passes beside the raw request (decision 0004).
export type RouteArgs = { request: Request; url: URL; context: RouterContextProvider; params: Record<string, string> };
type Handler = (args: RouteArgs) => unknown;
export type RouteMiddleware = (args: RouteArgs, next: () => Promise<unknown>) => Promise<unknown>;
/**
 * What the handler answered: a Response (returned or thrown: its status, Location and itself), or
 * `data(…)` with its status, or plain data (200). An Error it threw is thrown again.
 */
export type Outcome = { status: number; location: string | null; data: unknown; response: Response | null };

export class TestBrowser {
  cookie = "";
  /** The client's address as the request guards hand it to the app (absent: "local"). */
  address: string | undefined;
  /** `middleware`: run after the session's, before the handler, on every request unless told otherwise. */
  constructor(private readonly middleware: RouteMiddleware[] = []) {}
  async signIn(userId: number) {
    await this.send(async ({ context }) => startSession(context, userId), "/login", "GET", undefined, {}, []);
    return this;
  }
  get(handler: unknown, url: string, params: Record<string, string> = {}, middleware = this.middleware) {
    return this.send(handler as Handler, url, "GET", undefined, params, middleware);
  }
  post(handler: unknown, url: string, body: FormData, params: Record<string, string> = {}) {
    return this.send(handler as Handler, url, "POST", body, params, this.middleware);
  }
  private async send(
    handler: Handler,
    url: string,
    method: string,
    body: BodyInit | undefined,
    params: Record<string, string>,
    middleware: RouteMiddleware[],
  ): Promise<Outcome> {
    const headers = new Headers();
    if (this.cookie) headers.set("cookie", this.cookie);
    if (this.address) headers.set("x-client-address", this.address);
    const request = new Request(new URL(url, "http://store.test"), { method, headers, body });
    const args: RouteArgs = { request, url: new URL(request.url), context: new RouterContextProvider(), params };
    let result: unknown;
    const response = (await sessionMiddleware(args as never, async () => {
      const run = async () => {
        result = await handler(args);
        return new Response(null);
      };
      const chain = middleware.reduceRight<() => Promise<unknown>>((next, each) => () => each(args, next), run);
      try {
        await chain();
      } catch (thrown) {
        result = thrown;
      }
      return new Response(null);
    })) as Response;
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0]!;
    if (result instanceof Response)
      return { status: result.status, location: result.headers.get("location"), data: null, response: result };
    if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
      const { data, init } = result as { data: unknown; init: ResponseInit | null };
      return { status: init?.status ?? 200, location: null, data, response: null };
    }
    if (result instanceof Error) throw result;
    return { status: 200, location: null, data: result, response: null };
  }
}
