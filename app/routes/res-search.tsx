import { useCallback, useState } from "react";
import { data, Link, redirect, type ShouldRevalidateFunctionArgs, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/res-search";
import { isOwnNavigation } from "~/.server/http/request";
import { addToSearchHistory } from "~/.server/http/search-history-cookie";
import { listCategories, listCities, listProductPages } from "~/.server/store/catalogue";
import { FilterSheet } from "~/components/filter-sheet";
import { svg } from "~/components/icons";
import { ProductGrid } from "~/components/product-grid";
import { SearchFieldLink } from "~/components/search-field";
import { readPage } from "~/lib/paging";
import type { RouteHandle } from "~/lib/route-handle";
import {
  activeFilterCount,
  parseSearchParams,
  resultsHref,
  searchEntryHref,
  withoutFilters,
  type SearchFilters,
} from "~/lib/search-params";

export const handle: RouteHandle = { title: "Hasil Pencarian" };

/**
 * Spec §2 search results: products matching the keyword and the filters, 10 at a time (pages 0..N
 * on the server, appended by scrolling with JavaScript), and the filter sheet. The whole state is
 * the address (~/lib/search-params), so any result can be linked, reloaded and used without JS.
 *
 * The keyword goes into the history here, on GET: the search form is a GET form (the results get a
 * real address and the back button works), and recording is idempotent — the keyword moves to the
 * top, never twice — so a reload, a filter change or a tap on a history entry records nothing new.
 * A script appending a page (`append=1`) records nothing, and neither does a link from another site
 * (a page elsewhere must not write into the signed-in user's history): only this site's own
 * navigations record (isOwnNavigation).
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { sheetOpen, ...asked } = parseSearchParams(url.searchParams);
  // Spec §5: only a non-empty keyword is searched (without JavaScript an empty one arrives here).
  if (!asked.keyword) throw redirect("/search");
  const { page, only } = readPage(url);

  // Unknown category or city ids are dropped, so the sheet shows exactly what is applied.
  const categories = await listCategories();
  const knownCategories = new Set(categories.map((c) => c.id));
  const filters: SearchFilters = { ...asked, categories: asked.categories.filter((id) => knownCategories.has(id)) };
  if (filters.location !== undefined && !(await listCities()).some((city) => city.id === filters.location)) filters.location = undefined;

  const { keyword, categories: categoryIds, pmin, pmax, sort, location } = filters;
  const [pages, recorded] = await Promise.all([
    listProductPages({ keyword, categories: categoryIds, pmin, pmax, sort, location }, page, { only }),
    only || !isOwnNavigation(request) ? null : addToSearchHistory({ request, context }, keyword),
  ]);
  return data(
    { pages, filters, categories, page: pages[pages.length - 1]?.page ?? 0, total: pages[0]?.total ?? 0 },
    { headers: recorded?.headers },
  );
}

/** Opening or closing the sheet (only `sheet` changes) needs no new products. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const withoutSheet = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("sheet");
    return params.toString();
  };
  return withoutSheet(currentUrl) === withoutSheet(nextUrl) ? false : defaultShouldRevalidate;
}

export default function ResSearch({ loaderData }: Route.ComponentProps) {
  const { pages, filters, categories, page, total } = loaderData;
  const navigate = useNavigate();
  const location = useLocation();

  // The sheet is open when the address says so (the server renders it: works without JS); with
  // JavaScript the Filter button and the close controls toggle it without a page load.
  const urlOpen = new URLSearchParams(location.search).get("sheet") === "filter";
  const [sheet, setSheet] = useState({ key: location.key, open: urlOpen });
  const sheetOpen = sheet.key === location.key ? sheet.open : urlOpen;
  const closeHref = resultsHref(filters, { page });
  const closeSheet = useCallback(() => {
    setSheet({ key: location.key, open: false });
    if (urlOpen) navigate(closeHref, { replace: true, preventScrollReset: true });
  }, [location.key, urlOpen, navigate, closeHref]);

  const filterCount = activeFilterCount(filters);
  const hrefForPage = useCallback((n: number) => resultsHref(filters, { page: n }), [filters]);

  return (
    <>
      <SearchFieldLink keyword={filters.keyword} />
      <main className="page results-page">
        <h1 className="sr-only">Hasil pencarian &ldquo;{filters.keyword}&rdquo;</h1>
        <div className="results-toolbar">
          <p className="results-count" data-testid="results-count">
            {total} produk ditemukan
          </p>
          <Link
            to={resultsHref(filters, { page, sheetOpen: true })}
            className={`filter-button${filterCount ? " is-active" : ""}`}
            preventScrollReset
            aria-haspopup="dialog"
            onClick={(event) => {
              event.preventDefault();
              setSheet({ key: location.key, open: true });
            }}
          >
            <FilterIcon />
            Filter{filterCount ? <span className="filter-count">{filterCount}</span> : null}
          </Link>
        </div>

        {total === 0 ? (
          <div className="results-empty" data-testid="results-empty">
            <h2>Produk tidak ditemukan</h2>
            {filterCount ? (
              <>
                <p className="muted">Tidak ada produk &ldquo;{filters.keyword}&rdquo; yang sesuai dengan filter yang dipilih.</p>
                <Link to={resultsHref(withoutFilters(filters))} className="btn btn-outline">
                  Hapus Filter
                </Link>
              </>
            ) : (
              <>
                <p className="muted">Tidak ada produk untuk &ldquo;{filters.keyword}&rdquo;. Coba kata kunci lain.</p>
                <Link to={searchEntryHref(filters.keyword)} className="btn btn-outline">
                  Ubah Pencarian
                </Link>
              </>
            )}
          </div>
        ) : (
          <>
            {/* The cards' titles are <h3>: a heading of their own level above them (heading levels in order). */}
            <h2 className="sr-only">Daftar produk</h2>
            <ProductGrid pages={pages} hrefForPage={hrefForPage} />
          </>
        )}
      </main>
      {sheetOpen ? <FilterSheet filters={filters} categories={categories} closeHref={closeHref} onClose={closeSheet} /> : null}
    </>
  );
}

const FilterIcon = () => svg(<path d="M4 6h16M7 12h10M10 18h4" />, { size: 18 });
