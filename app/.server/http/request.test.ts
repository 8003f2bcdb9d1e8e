import { describe, expect, it, vi } from "vitest";
import { isOwnNavigation, readForm, sameOriginMiddleware } from "./request";
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
