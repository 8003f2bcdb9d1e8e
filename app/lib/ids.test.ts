import { describe, expect, it } from "vitest";
import { MAX_ID, parseId } from "./ids";

describe("parseId", () => {
  it("takes a positive whole id up to PostgreSQL's int4, as text or number; anything else is null", () => {
    expect(parseId("42")).toBe(42);
    expect(parseId(" 42 ")).toBe(42);
    expect(parseId(7)).toBe(7);
    expect(parseId(String(MAX_ID))).toBe(2_147_483_647);
    for (const bad of ["2147483648", "9999999999", "99999999999", "0", "-1", "01", "1e3", "1.5", "", null, undefined, 2_147_483_648, {}])
      expect(parseId(bad), String(bad)).toBeNull();
  });
});
