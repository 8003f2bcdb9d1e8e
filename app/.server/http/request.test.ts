import { describe, expect, it, vi } from "vitest";
import { holdsNul, isOwnNavigation, NUL_REFUSED, readForm, sameOriginMiddleware } from "./request";
import { readJson } from "./api";
import { log } from "../log";

const URL_ = "http://store.test/logout";

async function throughOriginCheck(headers: Record<string, string>, method = "POST") {
  const request = new Request(URL_, { method, headers });
  try {
    const response = await sameOriginMiddleware(
      { request, url: new URL(URL_), context: {} as never, params: {}, unstable_pattern: "" } as never,
      async () => new Response("ok"),
    );
    return (response as Response).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("the same-origin check on posts", () => {
  it("lets this site's posts through", async () => {
    expect(await throughOriginCheck({ origin: "http://store.test", "sec-fetch-site": "same-origin" })).toBe(200);
    expect(await throughOriginCheck({ origin: "http://store.test" })).toBe(200);
    expect(await throughOriginCheck({})).toBe(200);
    expect(await throughOriginCheck({ origin: "https://evil.example" }, "GET")).toBe(200);
  });

  it.each([
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin: null without Fetch Metadata (sandboxed frame, old browser)", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site", origin: "http://shop.store.test" }],
  ])("refuses %s with 403 and one short log line", async (_, headers) => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    expect(await throughOriginCheck(headers)).toBe(403);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]).toEqual([
      { method: "POST", path: "/logout", origin: expect.any(String), site: expect.any(String) },
      "403 cross-site form post",
    ]);
  });
});

describe("isOwnNavigation (search history is written only from this site)", () => {
  const get = (headers: Record<string, string>) => isOwnNavigation(new Request("http://store.test/res-search?keyword=x", { headers }));
  it("accepts this site's links and forms, typed addresses and bookmarks", () => {
    expect(get({ "sec-fetch-site": "same-origin" })).toBe(true);
    expect(get({ "sec-fetch-site": "none" })).toBe(true);
    expect(get({ referer: "http://store.test/search" })).toBe(true);
    expect(get({})).toBe(true);
  });
  it("refuses links from other sites", () => {
    expect(get({ "sec-fetch-site": "cross-site" })).toBe(false);
    expect(get({ "sec-fetch-site": "same-site" })).toBe(false);
    expect(get({ referer: "https://evil.example/page" })).toBe(false);
  });
});

describe("readForm", () => {
  it.each([
    ["JSON", "application/json", '{"intent":"order"}'],
    ["plain text", "text/plain", "intent=order"],
    ["no content type", undefined, "intent=order"],
  ])("reads a %s body as an empty form instead of failing", async (_, type, body) => {
    const request = new Request("http://store.test/detail/1", { method: "PUT", body, headers: type ? { "content-type": type } : {} });
    expect([...(await readForm(request)).keys()]).toEqual([]);
  });
});

describe("NUL bytes (issue 35: PostgreSQL refuses them and its error logged the row's NIK, phone and e-mail)", () => {
  it("a form or JSON field holding \\u0000 is a 400 with an Indonesian message, before any query", async () => {
    const form = new FormData();
    form.set("buyerName", "Budi");
    form.set("buyerNik", "3273\u00000101900001");
    const thrown = await readForm(new Request("http://localhost/checkout", { method: "POST", body: form })).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
    expect(await (thrown as Response).text()).toBe(NUL_REFUSED);
    const json = (body: unknown) =>
      readJson(
        new Request("http://localhost/api", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    await expect(json({ order: { buyerPhoneNumber: "0812\u0000" } })).rejects.toMatchObject({ status: 400, message: NUL_REFUSED });
    await expect(json({ name: "Budi" })).resolves.toEqual({ name: "Budi" });
    expect(holdsNul(["a", { "b\u0000": 1 }])).toBe(true);
  });
});
