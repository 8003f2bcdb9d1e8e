import crypto from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { closeDb, getDb } from "./.server/db/client";

// The build writes the prepared first-start database with this (react-router.config.ts).
export { writeDatabaseTemplate } from "./.server/db/client";
import { env } from "./.server/env";
import { contentSecurityPolicy, SECURITY_HEADERS } from "./.server/http";
import { NonceContext } from "./lib/nonce";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
) {
  const nonce = crypto.randomBytes(16).toString("base64");
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, env().isProduction));
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) responseHeaders.set(name, value);
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "no-store");

  // Crawlers and browsers without JavaScript get the whole document at once; others stream.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, handleError logs them.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}

/** Called by server.js before it listens: validates the configuration and prepares the database. */
export async function startServer() {
  const e = env();
  await getDb();
  if (e.isProduction && !e.smtpUrl) console.warn("SMTP_URL is not set: e-mails go to the outbox at /outbox (demo only).");
  return { port: e.port, appUrl: e.appUrl };
}

/** Called on SIGTERM/SIGINT: closes the database cleanly (PGlite flushes its files). */
export async function stopServer() {
  await closeDb();
}
