import { RouterContextProvider } from "react-router";
import { startSession } from "~/.server/auth";
import { sessionMiddleware } from "~/.server/session";

// For the API's parity test: one signed-in browser posting to the web's own route modules through
// the real session middleware (as app/routes/orders-idor.test.ts does). Not a route module.

type Handler = (args: { request: Request; url: URL; context: RouterContextProvider; params: Record<string, string> }) => unknown;
export type WebOutcome = { status: number; location: string | null; data: unknown };

export class WebBrowser {
  cookie = "";
  async signIn(userId: number) {
    await this.send((async ({ context }) => startSession(context, userId)) as Handler, "/login", "GET");
    return this;
  }
  post(handler: unknown, url: string, body: FormData, params: Record<string, string> = {}) {
    return this.send(handler as Handler, url, "POST", body, params);
  }
  private async send(handler: Handler, url: string, method: string, body?: BodyInit, params: Record<string, string> = {}): Promise<WebOutcome> {
    const headers = new Headers();
    if (this.cookie) headers.set("cookie", this.cookie);
    const request = new Request(new URL(url, "http://store.test"), { method, headers, body });
    const context = new RouterContextProvider();
    let result: unknown;
    const response = (await sessionMiddleware({ request, url: new URL(request.url), context, params } as never, async () => {
      try {
        result = await handler({ request, url: new URL(request.url), context, params });
      } catch (thrown) {
        result = thrown;
      }
      return new Response(null);
    })) as Response;
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0]!;
    if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), data: null };
    if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
      const { data, init } = result as { data: unknown; init: ResponseInit | null };
      return { status: init?.status ?? 200, location: null, data };
    }
    if (result instanceof Error) throw result;
    return { status: 200, location: null, data: result };
  }
}
