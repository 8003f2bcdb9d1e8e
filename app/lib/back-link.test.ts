import { describe, expect, it } from "vitest";
import { backTarget, withFrom } from "./back-link";

describe("back link of a screen opened from a list", () => {
  it("goes back to the list the card was on", () => {
    expect(backTarget("?from=%2Fres-search%3Fkeyword%3Dmotor%26sort%3D1")).toBe("/res-search?keyword=motor&sort=1");
    expect(backTarget("?sheet=syarat&from=%2Fhome%3Fpage%3D2")).toBe("/home?page=2");
  });

  it.each(["//evil.example", "https://evil.example/x", "/\\evil.example", "javascript:alert(1)", "", "%2F%2Fevil.example"])(
    "never leaves the site: from=%s",
    (from) => {
      expect(backTarget(`?from=${encodeURIComponent(from)}`)).toBe("/home");
    },
  );

  it("goes home when nothing says where from", () => {
    expect(backTarget("")).toBe("/home");
  });

  it("adds `from` to a card's link only when it is not home", () => {
    expect(withFrom("/detail/4", "/res-search?keyword=kompor")).toBe("/detail/4?from=%2Fres-search%3Fkeyword%3Dkompor");
    expect(withFrom("/detail/4", "/home")).toBe("/detail/4");
    expect(withFrom("/detail/4?x=1", "/home?page=1")).toBe("/detail/4?x=1&from=%2Fhome%3Fpage%3D1");
  });
});
