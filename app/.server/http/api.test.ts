import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, defineArea, ok, runApi } from "./api";
import { resetEnvForTests } from "../env";
import { sameOriginMiddleware } from "./request";
import { bodyLimitFor, methodGuard, UPLOAD_BODY_LIMIT, FORM_BODY_LIMIT } from "./request-guards";
import { sessionMiddleware } from "./session";

// The API's door (issue 19): no cookies and no Origin check on /api, CORS only for the listed
// origins, OPTIONS preflights let through to it, the upload call's 10 MB body limit, errors never 500.

const area = defineArea("t", {
  "/hello": { method: "GET", auth: false, doc: { summary: "" }, handle: async () => ok({ hi: 1 }) },
  "/boom": {
    method: "POST",
    auth: false,
    doc: { summary: "" },
    handle: async () => {
      throw new ApiError(409, "Tidak bisa.");
    },
  },
});

afterEach(() => {
  delete process.env.API_CORS_ORIGINS;
  resetEnvForTests();
});

describe("the API's door", () => {
  it("lets a cross-site POST to /api through the Origin check (bearer tokens, no cookies), not one to a page", async () => {
    const post = (path: string) =>
      new Request(`http://store.test${path}`, {
        method: "POST",
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      });
    const next = async () => new Response("ok");
    const apiAnswer = await sameOriginMiddleware(
      { request: post("/api/core/api/v1/auth/logout"), url: new URL("http://store.test/api/core/api/v1/auth/logout") } as never,
      next,
    );
    expect((apiAnswer as Response).status).toBe(200);
    await expect(
      sameOriginMiddleware({ request: post("/checkout"), url: new URL("http://store.test/checkout") } as never, next),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("neither reads nor sets the session cookie on /api", async () => {
    const request = new Request("http://store.test/api/core/api/v1/user/my-profile", { headers: { cookie: "store_session=forged" } });
    const response = await sessionMiddleware(
      { request, url: new URL(request.url), context: new RouterContextProvider() } as never,
      async () => new Response("{}"),
    );
    expect((response as Response).headers.get("set-cookie")).toBeNull();
  });

  it("answers CORS only to the origins of API_CORS_ORIGINS", async () => {
    const get = (origin: string) => new Request("http://store.test/api/core/api/v1/t/hello", { headers: { origin } });
    expect((await runApi(area, get("https://app.example.id"), "/hello")).headers.get("access-control-allow-origin")).toBeNull();
    const refused = await runApi(
      area,
      new Request("http://store.test/x", { method: "OPTIONS", headers: { origin: "https://app.example.id" } }),
      "/hello",
    );
    expect(refused.status).toBe(403);
    process.env.API_CORS_ORIGINS = "https://app.example.id, https://partner.example.id";
    resetEnvForTests();
    const allowed = await runApi(area, get("https://app.example.id"), "/hello");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.id");
    expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
    const preflight = await runApi(
      area,
      new Request("http://store.test/x", { method: "OPTIONS", headers: { origin: "https://partner.example.id" } }),
      "/hello",
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect((await runApi(area, get("https://other.example.id"), "/hello")).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets OPTIONS through to /api only, and gives the upload call the upload body limit", () => {
    const answered = (url: string) => {
      let passed = false;
      const res = { statusCode: 0, setHeader() {}, end() {} };
      methodGuard({ method: "OPTIONS", url } as never, res as never, () => (passed = true));
      return passed ? "next" : res.statusCode;
    };
    expect(answered("/api/core/api/v1/auth/login")).toBe("next");
    expect(answered("/checkout")).toBe(405);
    expect(bodyLimitFor("/api/core/api/v1/upload")).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor("/api/core/api/v1/order/create")).toBe(FORM_BODY_LIMIT);
  });

  it("answers the envelope for refusals and a 500 envelope (logged) only for real failures", async () => {
    const refused = await runApi(area, new Request("http://store.test/x", { method: "POST" }), "/boom");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ success: false, code: 409, message: "Tidak bisa.", data: null });
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });
});
