import { defineArea, notFound, ok, requireId } from "~/.server/http/api";
import { ID_TITLE, PRODUCT_DETAIL, PRODUCT_ITEM, list, object, page } from "~/.server/http/api-shapes";
import { getProductDetail, listCategories, listCities, listProducts } from "~/.server/store/catalogue";
import { parseSearchParams } from "~/lib/search-params";

// Spec §7 Product and banner: the catalogue as /home, /res-search and /detail/{id} read it.

const PAGE_QUERY = {
  page: { type: "integer", description: "From 0" },
  size: { type: "integer", description: "10 by default, at most 50" },
  keyword: { type: "string", description: "Words of the title (at most 100 characters)" },
  categories: { type: "string", description: "Category ids, comma-separated (1,4)" },
  pmin: { type: "integer", description: "Lowest price after the product's own discount" },
  pmax: { type: "integer", description: "Highest price after the product's own discount" },
  sort: { type: "string", description: "price:0 highest first, price:1 lowest first (0 and 1 too)" },
  location: { type: "integer", description: "City id (/product/cities)" },
} as const;

/** A whole number parameter in [min, max], else the default (paging never fails on odd input). */
function wholeParam(url: URL, name: string, fallback: number, min: number, max: number) {
  const raw = url.searchParams.get(name)?.trim() ?? "";
  if (!/^\d{1,9}$/.test(raw)) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}

const productArea = defineArea("product", {
  "/page": {
    method: "GET",
    auth: false,
    doc: { summary: "One page of products matching the search", query: PAGE_QUERY, data: page(PRODUCT_ITEM) },
    async handle({ url }) {
      const { keyword, categories, pmin, pmax, sort, location } = parseSearchParams(url.searchParams);
      const result = await listProducts({
        page: wholeParam(url, "page", 0, 0, 100_000),
        size: wholeParam(url, "size", 10, 1, 50),
        keyword,
        categories,
        pmin,
        pmax,
        sort,
        location,
      });
      return ok(result);
    },
  },
  "/detail": {
    method: "GET",
    auth: false,
    doc: {
      summary: "One product (counts as a view)",
      query: { id: { type: "integer", description: "Product id (productId is accepted too)", required: true } },
      data: PRODUCT_DETAIL,
      errors: [400, 404],
    },
    async handle({ url }) {
      const id = requireId(url.searchParams.get("id") ?? url.searchParams.get("productId"), "id", "Produk tidak ditemukan.");
      const product = await getProductDetail(id, { countView: true });
      if (!product) throw notFound("Produk tidak ditemukan.");
      return ok(product);
    },
  },
  "/categories": {
    method: "GET",
    auth: false,
    doc: { summary: "The categories of the search filter", data: list(ID_TITLE) },
    handle: async () => ok(await listCategories()),
  },
  "/cities": {
    method: "GET",
    auth: false,
    doc: {
      summary: "The cities of the search filter (location)",
      data: list(object({ id: { type: "integer" }, name: { type: "string" } })),
    },
    handle: async () => ok(await listCities()),
  },
});

export const PRODUCT_AREA = productArea;
