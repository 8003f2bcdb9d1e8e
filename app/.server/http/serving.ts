import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Express, NextFunction, Request, Response } from "express";
import { matchRoutes, type RouteObject } from "react-router";
import { env } from "../env";
import { currentRequest, log, requestIdOf, runWithRequest, type RequestState } from "../log";
import { httpRequestDuration, mayReadMetrics, registry, scrapeMetrics, statusClass } from "../metrics";
import { registerStoreMetrics } from "../store/back-office";
import { registerMessageMetrics } from "../store/messages";
import { isDirectLoopback, routePathOf, trustedHops } from "./request-guards";

// What server.js puts around the app for operating it (issue 20): the request id and one log line
// per request, the request-duration metric, GET /metrics, and readiness (GET /readyz).

/** The build's route manifest (build.routes), as server.js has it. */
export type RouteManifest = Record<
  string,
  { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean } | undefined
>;

/**
 * Tells the route id a path is for ("routes/payment"), so logs and metrics group by page, not by URL:
 * "static" for the build's files, the server's own endpoints by name (`own`: path → name).
 */
export function routeIdFinder(manifest: RouteManifest, isStatic: (pathname: string) => boolean, own: Record<string, string> = {}) {
  const entries = Object.values(manifest).filter((route) => route !== undefined);
  const tree = (parentId: string | undefined): RouteObject[] =>
    entries
      .filter((route) => route.parentId === parentId)
      .map(
        (route) =>
          ({
            id: route.id,
            path: route.path,
            index: route.index,
            caseSensitive: route.caseSensitive,
            children: tree(route.id),
          }) as RouteObject,
      );
  const routes = tree(undefined);
  return (pathname: string): string => {
    if (isStatic(pathname)) return "static";
    if (Object.hasOwn(own, pathname)) return own[pathname]!;
    const matches = matchRoutes(routes, pathname);
    return matches?.at(-1)?.route.id ?? "unmatched";
  };
}

/**
 * Path segments that are secrets (issue 45 item 13): the 'Unduh Data Saya' link's id is its only key
 * besides the session, so the request log names the route and keeps the id out.
 */
const SECRET_SEGMENTS: RegExp[] = [/^(\/profile\/data-saya\/)[^/]+/];

/** The path as the request log writes it: secret segments replaced by their parameter's name. */
export function loggedPath(path: string): string {
  return SECRET_SEGMENTS.reduce((redacted, pattern) => redacted.replace(pattern, "$1:id"), path);
}

/**
 * First in the chain: gives the request its id (a trusted proxy's X-Request-Id or a new one), echoes
 * it in the X-Request-Id response header, runs the rest of the request with it (every log line of the
 * request carries it), and when the response ends writes the request's one line and its duration.
 * The line holds the route id and the path without the query string (queries hold e-mails, keywords,
 * keys) and without secret segments (loggedPath); never headers, cookies or bodies.
 */
export function installRequestLog(app: Express, routeIdOf: (pathname: string) => string) {
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const state: RequestState = { reqId: requestIdOf(req.headers["x-request-id"], trustedHops(req)) };
    res.setHeader("X-Request-Id", state.reqId);
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const path = routePathOf(req.originalUrl ?? req.url ?? "/");
      const route = routeIdOf(path);
      const status = res.statusCode;
      httpRequestDuration.observe({ route, method: req.method, status: statusClass(status) }, seconds);
      const line = {
        reqId: state.reqId,
        method: req.method,
        route,
        path: loggedPath(path),
        status,
        ms: Math.round(seconds * 10_000) / 10,
        ...(state.userId !== undefined ? { userId: state.userId } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (status >= 500) log.error(line, "request");
      else log.info(line, "request");
    });
    runWithRequest(state, next);
  });
}

/** The id of the request being served (the 500 page shows it as 'Kode kesalahan'). */
export function currentRequestId(): string | undefined {
  return currentRequest()?.reqId;
}

// The store's gauges (orders per status, the queues' oldest waits) and the message jobs' (per queue
// and state, the oldest waiting) beside the process's metrics.
registerStoreMetrics(registry);
registerMessageMetrics(registry);

/** GET /metrics: Prometheus text to loopback or token holders; to anyone else the store's own 404. */
export function metricsHandler(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "GET" && req.method !== "HEAD") return next();
  if (!mayReadMetrics(isDirectLoopback(req as IncomingMessage), req.headers.authorization, env().metricsToken)) return next();
  scrapeMetrics().then(
    ({ contentType, body }) => {
      res.setHeader("Content-Type", contentType);
      res.setHeader("Cache-Control", "no-store");
      res.end(body);
    },
    (error: unknown) => next(error),
  );
}

/**
 * Readiness: false until the database is migrated and loaded, true while serving, false again from
 * SIGTERM on (the balancer stops sending requests during the drain). Liveness is /healthz.
 */
export function readinessHandler(isReady: () => boolean) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    const ready = isReady();
    res.statusCode = ready ? 200 : 503;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.end(ready ? "ready" : "not ready");
  };
}

/**
 * How much longer than it announces (`Keep-Alive: timeout=5`) the server keeps an idle connection
 * open. Clients that honour the announcement (Node's agents, undici, Playwright's request context)
 * stop reusing a connection after 4 s; Node closes it after 5 s + `keepAliveTimeoutBuffer` (1 s by
 * default). When the event loop stalls longer than that margin (a PGlite backup's dump is
 * synchronous, seconds on a busy machine; a long collection; a starved CPU), the close timer runs
 * before the request already waiting on the connection is read, and the client gets `socket hang
 * up` / ECONNRESET (issue 25 item 13). With 30 s, a stall has to last over 31 s for that.
 */
export const KEEP_ALIVE_TIMEOUT_BUFFER_MS = 30_000;

/** server.js calls this on its HTTP server. */
export function configureKeepAlive(server: Server): void {
  server.keepAliveTimeoutBuffer = KEEP_ALIVE_TIMEOUT_BUFFER_MS;
}
