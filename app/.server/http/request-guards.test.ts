import http from "node:http";
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "../env";
import { bodyLimitFor, CSV_BODY_LIMIT, FORM_BODY_LIMIT, installRequestGuards, PHOTO_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "./request-guards";

// The guards as server.js installs them, on a real Express server over real sockets. Behind them, a
// handler that reads the body exactly as React Router's Express adapter does (a web Request over the
// Node stream, read whole), and answers with what it saw.

type Seen = {
  bytes: number | null;
  error: string | null;
  clientAddress: string | null;
  loopback: string | null;
  protocol: string;
  origin: string | null;
};

async function startServer(trustProxy = "0") {
  process.env.TRUST_PROXY = trustProxy;
  resetEnvForTests();
  const app = express();
  installRequestGuards(app);
  const seen: Seen[] = [];
  app.get("/redirect", (_req, res) => res.redirect(302, "/login"));
  app.all("*", async (req, res) => {
    const entry: Seen = {
      bytes: null,
      error: null,
      clientAddress: req.get("x-client-address") ?? null,
      loopback: req.get("x-client-loopback") ?? null,
      protocol: req.protocol,
      origin: req.get("origin") ?? null,
    };
    seen.push(entry);
    if (req.method !== "GET" && req.method !== "HEAD") {
      const request = new Request(`http://localhost${req.originalUrl}`, {
        method: req.method,
        body: createReadableStreamFromReadable(req),
        duplex: "half",
      } as RequestInit);
      try {
        entry.bytes = (await request.arrayBuffer()).byteLength;
      } catch (error) {
        entry.error = String(error);
      }
    }
    if (res.headersSent) return;
    res.status(404).type("text/plain").send("Not Found");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;
  servers.push(server);
  return { port, seen };
}

const servers: http.Server[] = [];
afterEach(async () => {
  delete process.env.TRUST_PROXY;
  resetEnvForTests();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; sentBytes: number };

/**
 * One request; `bodyBytes` are streamed in 1 MB chunks (chunked unless `declareLength`), and the
 * client stops sending once the answer arrives, as browsers and curl do.
 */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; bodyBytes?: number; declareLength?: boolean },
): Promise<Answer> {
  const { method = "POST", path = "/login", headers = {}, bodyBytes = 0, declareLength = false } = options;
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sentBytes = 0;
    let answered = false;
    const request = http.request(
      { host: "127.0.0.1", port, method, path, headers: { ...headers, ...(declareLength ? { "content-length": String(bodyBytes) } : {}) } },
      (response) => {
        answered = true;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (part: string) => (body += part));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body, sentBytes }));
        response.on("error", reject);
      },
    );
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sentBytes < bodyBytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sentBytes));
        sentBytes += part.length;
        if (!request.write(part)) return void request.once("drain", pump);
      }
      request.end();
    };
    pump();
  });
}

describe("request body limits", () => {
  it("answer a 100 MB form post with 413 and an Indonesian page, without buffering it", async () => {
    const { port, seen } = await startServer();
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const answer = await send(port, { bodyBytes: 100 * 1024 * 1024, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const grewMb = (process.memoryUsage().rss - before) / (1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.body).toContain("Permintaan Terlalu Besar");
    expect(answer.body).toContain("Data yang Anda kirim terlalu besar (maksimal 64 KB)");
    // The reader behind never got a complete body: it failed, with at most the limit read.
    await vi.waitFor(() => expect(seen[0]?.error).toMatch(/limit|terminated|abort/i));
    expect(seen[0]!.bytes).toBeNull();
    expect(grewMb).toBeLessThan(40);
  });

  it("answer a declared oversized body at once, before it is sent", async () => {
    const { port, seen } = await startServer();
    const answer = await send(port, {
      bodyBytes: 100 * 1024 * 1024,
      declareLength: true,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(413);
    expect(answer.sentBytes).toBeLessThan(100 * 1024 * 1024);
    expect(seen).toEqual([]);
  });

  it("let ordinary forms up to 64 KB through, and uploads up to 10 MB only on the upload routes", async () => {
    const { port, seen } = await startServer();
    expect((await send(port, { bodyBytes: FORM_BODY_LIMIT })).status).toBe(404);
    expect(seen.at(-1)!.bytes).toBe(FORM_BODY_LIMIT);
    expect((await send(port, { bodyBytes: FORM_BODY_LIMIT + 1 })).status).toBe(413);

    for (const path of ["/checkout", "/checkout.data", "/payment/7", "/payment/7.data", "/transaction-detail/12?index"]) {
      expect((await send(port, { path, bodyBytes: 6 * 1024 * 1024 })).status, path).toBe(404);
      expect(seen.at(-1)!.bytes).toBe(6 * 1024 * 1024);
    }
    expect((await send(port, { path: "/checkout", bodyBytes: UPLOAD_BODY_LIMIT + 1 })).status).toBe(413);
    expect(bodyLimitFor("/checkout/../login")).toBe(FORM_BODY_LIMIT);

    // The JSON API: its upload call takes photos, its other calls form-sized JSON; a 413 there is
    // the API's envelope, not the page.
    expect((await send(port, { path: "/api/core/api/v1/upload", bodyBytes: 6 * 1024 * 1024 })).status).toBe(404);
    const tooBig = await send(port, {
      path: "/api/core/api/v1/order/create",
      bodyBytes: FORM_BODY_LIMIT + 1,
      headers: { "content-type": "application/json" },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(tooBig.body)).toEqual({
      success: false,
      code: 413,
      message: "Data yang Anda kirim terlalu besar (maksimal 64 KB). Kecilkan ukuran foto, file atau isian, lalu coba lagi.",
      data: null,
    });
    expect(bodyLimitFor("/detail/1")).toBe(FORM_BODY_LIMIT);

    // The catalogue (issue 26): five 5 MB photos in one form; the CSV import no more than its reader
    // reads (a 50 MB file is refused before it is buffered); the banner form like other uploads.
    expect(bodyLimitFor("/ops/catalogue/products/12/photos")).toBe(PHOTO_BODY_LIMIT);
    expect(bodyLimitFor("/ops/catalogue/products/12/photos.data")).toBe(PHOTO_BODY_LIMIT);
    expect(PHOTO_BODY_LIMIT).toBeGreaterThan(5 * 5 * 1024 * 1024);
    expect(bodyLimitFor("/ops/catalogue/import")).toBe(CSV_BODY_LIMIT);
    expect(CSV_BODY_LIMIT).toBeLessThan(6 * 1024 * 1024);
    expect(bodyLimitFor("/ops/catalogue/banners")).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor("/ops/catalogue/products/12")).toBe(FORM_BODY_LIMIT);
    const csv = await send(port, { path: "/ops/catalogue/import", bodyBytes: 50 * 1024 * 1024 });
    expect(csv.status).toBe(413);
    expect(csv.body).toContain("terlalu besar (maksimal 5 MB)");
  });
});

describe("methods", () => {
  it("answer TRACE, OPTIONS and WebDAV methods with 405, quietly", async () => {
    const warn = vi.spyOn(console, "warn");
    const { port, seen } = await startServer();
    for (const method of ["TRACE", "PROPFIND", "OPTIONS", "MKCOL"]) {
      const answer = await send(port, { method, path: "/home" });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
    }
    expect(seen).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("client address and protocol behind proxies", () => {
  it("with TRUST_PROXY=1 take the address the proxy saw (the last X-Forwarded-For entry), whatever the client wrote before it", async () => {
    const { port, seen } = await startServer("1");
    for (let i = 1; i <= 40; i++)
      await send(port, { method: "GET", path: "/login", headers: { "x-forwarded-for": `203.0.113.${i}, 198.51.100.7` } });
    expect(new Set(seen.map((s) => s.clientAddress))).toEqual(new Set(["198.51.100.7"]));
    // A value the client puts in our own header is replaced.
    await send(port, { method: "GET", headers: { "x-client-address": "1.2.3.4", "x-forwarded-for": "198.51.100.8" } });
    expect(seen.at(-1)!.clientAddress).toBe("198.51.100.8");
  });

  it("without TRUST_PROXY use the socket's address and ignore X-Forwarded-*", async () => {
    const { port, seen } = await startServer("0");
    await send(port, {
      method: "GET",
      headers: { "x-forwarded-for": "203.0.113.1", "x-forwarded-proto": "https", "x-client-address": "9.9.9.9" },
    });
    expect(seen[0]).toMatchObject({ clientAddress: "127.0.0.1", protocol: "http" });
  });

  it("take the protocol only from the trusted hop", async () => {
    const { port, seen } = await startServer("1");
    await send(port, { method: "GET", headers: { "x-forwarded-proto": "https" } });
    // The client wrote https, the proxy appended what it saw (http): the proxy is believed.
    await send(port, { method: "GET", headers: { "x-forwarded-proto": "https, http" } });
    expect(seen.map((s) => s.protocol)).toEqual(["https", "http"]);
  });

  it("with TRUST_PROXY as addresses believe X-Forwarded-* only from those peers: 14 forged addresses from elsewhere stay one client (issue 25)", async () => {
    // The test's client connects from 127.0.0.1, which this list does not name: it reached the port directly.
    const direct = await startServer("10.0.0.0/8, fd00::/8");
    for (let i = 1; i <= 14; i++)
      await send(direct.port, { method: "GET", headers: { "x-forwarded-for": `203.0.113.${i}`, "x-forwarded-proto": "https" } });
    expect(new Set(direct.seen.map((s) => `${s.clientAddress} ${s.protocol}`))).toEqual(new Set(["127.0.0.1 http"]));

    // The same requests through a listed proxy: the address it saw, and the protocol it wrote.
    const proxied = await startServer("127.0.0.1");
    await send(proxied.port, { method: "GET", headers: { "x-forwarded-for": "203.0.113.1, 198.51.100.7", "x-forwarded-proto": "https" } });
    expect(proxied.seen[0]).toMatchObject({ clientAddress: "198.51.100.7", protocol: "https" });

    // Two listed proxies in a row (a CDN in 10.0.0.0/8, then this machine): the entry the outer one wrote.
    const chained = await startServer("127.0.0.1, 10.0.0.0/8");
    await send(chained.port, {
      method: "GET",
      headers: { "x-forwarded-for": "203.0.113.1, 198.51.100.7, 10.1.2.3", "x-forwarded-proto": "http, https, http" },
    });
    expect(chained.seen[0]).toMatchObject({ clientAddress: "198.51.100.7", protocol: "https" });
  });

  it("mark only direct requests from this machine as loopback (the demo outbox), never on the client's word", async () => {
    const { port, seen } = await startServer("1");
    await send(port, { method: "GET", headers: { host: `localhost:${port}` } });
    await send(port, { method: "GET", headers: { host: `localhost:${port}`, "x-forwarded-for": "127.0.0.1" } });
    await send(port, { method: "GET", headers: { host: "evil.example", "x-client-loopback": "1" } });
    expect(seen.map((s) => s.loopback)).toEqual(["1", null, null]);
  });

  it("turn an Origin header that is not a URL into 'null' (refused by the app's origin check, not a crash)", async () => {
    const { port, seen } = await startServer();
    await send(port, { headers: { origin: "garbage" } });
    await send(port, { headers: { origin: "http://localhost:3000" } });
    expect(seen.map((s) => s.origin)).toEqual(["null", "http://localhost:3000"]);
  });
});

describe("Strict-Transport-Security (issue 25)", () => {
  it("is sent over HTTPS through a trusted proxy, never over plain HTTP nor on a client's own X-Forwarded-Proto", async () => {
    const { port } = await startServer("1");
    const overTls = await send(port, { method: "GET", path: "/nothing", headers: { "x-forwarded-proto": "https" } });
    expect(overTls.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const redirect = await send(port, { method: "GET", path: "/redirect", headers: { "x-forwarded-proto": "https" } });
    expect(redirect.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(
      (await send(port, { method: "GET", path: "/nothing", headers: { "x-forwarded-proto": "http" } })).headers[
        "strict-transport-security"
      ],
    ).toBeUndefined();
    expect((await send(port, { method: "GET", path: "/nothing" })).headers["strict-transport-security"]).toBeUndefined();

    const untrusted = await startServer("0");
    expect(
      (await send(untrusted.port, { method: "GET", path: "/nothing", headers: { "x-forwarded-proto": "https" } })).headers[
        "strict-transport-security"
      ],
    ).toBeUndefined();
    const notListed = await startServer("10.0.0.1");
    expect(
      (await send(notListed.port, { method: "GET", path: "/nothing", headers: { "x-forwarded-proto": "https" } })).headers[
        "strict-transport-security"
      ],
    ).toBeUndefined();
  });
});

describe("response headers", () => {
  it("put the security headers and a private Cache-Control on every answer: plain-text 4xx, redirects, 405, 413", async () => {
    const { port } = await startServer();
    const answers = [
      await send(port, { method: "GET", path: "/nothing" }),
      await send(port, { method: "GET", path: "/redirect" }),
      await send(port, { method: "TRACE" }),
      await send(port, { bodyBytes: FORM_BODY_LIMIT + 1 }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 302, 405, 413]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject({
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "strict-origin-when-cross-origin",
        "cache-control": "private, no-store",
      });
    }
  });
});
