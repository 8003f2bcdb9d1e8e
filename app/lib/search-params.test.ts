import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  KEYWORD_MAX_LENGTH,
  normaliseKeyword,
  parseSearchParams,
  resultsHref,
  searchEntryHref,
  withoutFilters,
} from "./search-params";

const parse = (query: string) => parseSearchParams(new URLSearchParams(query));

describe("parseSearchParams", () => {
  it("reads a full search", () => {
    expect(parse("keyword=motor+listrik&categories=2,5&pmin=1000000&pmax=30000000&sort=1&location=3&page=2&sheet=filter")).toEqual({
      keyword: "motor listrik",
      categories: [2, 5],
      pmin: 1_000_000,
      pmax: 30_000_000,
      sort: 1,
      location: 3,
      sheetOpen: true,
    });
  });

  it("has no filters and page 0 when nothing is given", () => {
    expect(parse("")).toEqual({
      keyword: "",
      categories: [],
      pmin: undefined,
      pmax: undefined,
      sort: undefined,
      location: undefined,
      sheetOpen: false,
    });
  });

  it("accepts the categories a plain HTML form sends as repeated parameters", () => {
    expect(parse("categories=3&categories=1&categories=3").categories).toEqual([3, 1]);
  });

  it("keeps only the valid category ids of a messy list", () => {
    expect(parse("categories=x,1,,999999999999,-2,2.5,0,4").categories).toEqual([1, 4]);
  });

  it("caps the number of categories", () => {
    const many = Array.from({ length: 500 }, (_, i) => i + 1).join(",");
    expect(parse(`categories=${many}`).categories).toHaveLength(50);
  });

  it("drops prices that are not whole non-negative numbers", () => {
    expect(parse("pmin=abc&pmax=-5")).toMatchObject({ pmin: undefined, pmax: undefined });
    expect(parse("pmin=1.5&pmax=0x10")).toMatchObject({ pmin: undefined, pmax: undefined });
    expect(parse("pmin=&pmax=")).toMatchObject({ pmin: undefined, pmax: undefined });
  });

  it("understands Indonesian thousands separators", () => {
    expect(parse("pmin=1.500.000").pmin).toBe(1_500_000);
  });

  it("clamps a huge price to what the database can compare", () => {
    expect(parse("pmax=99999999999999999999999").pmax).toBe(2_147_483_647);
  });

  it("swaps a minimum above the maximum", () => {
    expect(parse("pmin=500&pmax=100")).toMatchObject({ pmin: 100, pmax: 500 });
  });

  it("reads the first of repeated single-valued parameters", () => {
    expect(parse("keyword=motor&keyword=mobil&pmin=5&pmin=9")).toMatchObject({ keyword: "motor", pmin: 5 });
  });

  it.each([
    ["sort=0", 0],
    ["sort=1", 1],
    ["sort=price:1", 1],
    ["sort=9", undefined],
    ["sort=", undefined],
    ["sort=1&sort=0", 1],
  ])("reads %s as sort %s", (query, sort) => {
    expect(parse(query).sort).toBe(sort);
  });

  it("ignores a location that is not an id", () => {
    expect(parse("location=abc").location).toBeUndefined();
    expect(parse("location=0").location).toBeUndefined();
  });

  it("only opens the sheet for sheet=filter", () => {
    expect(parse("sheet=other").sheetOpen).toBe(false);
  });
});

describe("normaliseKeyword", () => {
  it("trims and collapses whitespace and control characters", () => {
    expect(normaliseKeyword("  sepeda \n\t listrik  ")).toBe("sepeda listrik");
    expect(normaliseKeyword("a\u0000b")).toBe("a b");
  });

  it("cuts a 10 KB keyword to the maximum length", () => {
    const keyword = normaliseKeyword("k".repeat(10_000));
    expect(keyword).toHaveLength(KEYWORD_MAX_LENGTH);
  });

  it("never cuts an emoji in half", () => {
    const keyword = normaliseKeyword("🔌".repeat(200));
    expect(Array.from(keyword)).toHaveLength(KEYWORD_MAX_LENGTH);
    expect(keyword).toBe("🔌".repeat(KEYWORD_MAX_LENGTH));
  });

  it("turns anything that is not a string into an empty keyword", () => {
    expect(normaliseKeyword(undefined)).toBe("");
    expect(normaliseKeyword(["a"])).toBe("");
    expect(normaliseKeyword("   ")).toBe("");
  });
});

describe("links", () => {
  it("writes the canonical results link, empty values left out", () => {
    expect(resultsHref({ keyword: "kompor induksi", categories: [2, 5], pmin: 0, pmax: 900000, sort: 0 })).toBe(
      "/res-search?keyword=kompor%20induksi&categories=2,5&pmin=0&pmax=900000&sort=0",
    );
    expect(resultsHref({ keyword: "a&b=c", categories: [] })).toBe("/res-search?keyword=a%26b%3Dc");
  });

  it("adds the page and the open sheet only when asked", () => {
    expect(resultsHref({ keyword: "x", categories: [] }, { page: 2, sheetOpen: true })).toBe("/res-search?keyword=x&page=2&sheet=filter");
    expect(resultsHref({ keyword: "x", categories: [] }, { page: 0 })).toBe("/res-search?keyword=x");
  });

  it("round-trips through the parser", () => {
    const filters = { keyword: "mobil listrik", categories: [1, 3], pmin: 10, pmax: 20, sort: 1 as const, location: 7 };
    const { sheetOpen, ...back } = parse(resultsHref(filters, { page: 4 }).split("?")[1]!);
    expect(back).toEqual(filters);
    expect(sheetOpen).toBe(false);
  });

  it("clears the filters but keeps the keyword", () => {
    const filters = { keyword: "panel", categories: [1], pmin: 1, sort: 0 as const };
    expect(activeFilterCount(filters)).toBe(3);
    expect(resultsHref(withoutFilters(filters))).toBe("/res-search?keyword=panel");
    expect(activeFilterCount(withoutFilters(filters))).toBe(0);
  });

  it("links back to the entry page with the keyword", () => {
    expect(searchEntryHref("sepeda listrik")).toBe("/search?keyword=sepeda%20listrik");
    expect(searchEntryHref("  ")).toBe("/search");
  });
});
