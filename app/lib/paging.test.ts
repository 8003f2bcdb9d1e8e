import { describe, expect, it } from "vitest";
import { pageHref, readPage } from "./paging";

const page = (query: string) => readPage(new URL(`http://store.test/home${query}`)).page;

describe("readPage", () => {
  it("reads ?page=N", () => {
    expect(page("?page=3")).toBe(3);
    expect(page("")).toBe(0);
  });

  it.each(["?page=-1", "?page=abc", "?page=1.5", "?page=", "?page=%00", "?page=1e3", "?page=0x10"])("treats %s as page 0", (query) => {
    expect(page(query)).toBe(0);
  });

  it("clamps huge pages (the store then answers the last page)", () => {
    expect(page("?page=99999999999999999999999")).toBe(100_000);
  });

  it("knows a script's request for one appended page", () => {
    expect(readPage(new URL("http://store.test/home?page=2&append=1"))).toEqual({ page: 2, only: true });
  });
});

describe("pageHref", () => {
  it("sets the page and keeps the other parameters", () => {
    expect(pageHref("/res-search", "?keyword=motor&sort=1&page=1&append=1", 2)).toBe("/res-search?keyword=motor&sort=1&page=2");
    expect(pageHref("/home", "?page=4", 0)).toBe("/home");
  });
});
