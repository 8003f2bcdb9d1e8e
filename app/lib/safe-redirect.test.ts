import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirect("/transaction?status=200")).toBe("/transaction?status=200");
    expect(safeRedirect("/detail/12#promo")).toBe("/detail/12#promo");
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "evil",
    "",
    "/%0a/evil",
    "/.//evil.com",
    "/..//evil.com",
    "/%2e%2e//evil.com",
    "/%2E//evil.com",
    "/a/..//evil.com",
    "/./\\evil.com",
  ])("refuses %j", (target) => {
    const result = safeRedirect(target);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(new URL(result, "http://store.test").host).toBe("store.test");
  });

  it("falls back for hostile values", () => {
    expect(safeRedirect("//evil.example")).toBe("/home");
    expect(safeRedirect("/\\evil.example")).toBe("/home");
    expect(safeRedirect("https://evil.example")).toBe("/home");
    expect(safeRedirect("javascript:alert(1)")).toBe("/home");
    expect(safeRedirect(null)).toBe("/home");
    expect(safeRedirect(["/a"])).toBe("/home");
    expect(safeRedirect("/" + "a".repeat(5000))).toBe("/home");
    for (const target of ["/.//evil.com", "/..//evil.com", "/%2e%2e//evil.com"]) expect(safeRedirect(target)).toBe("/home");
  });
});
