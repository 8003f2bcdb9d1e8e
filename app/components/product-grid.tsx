/**
 * The endless two-column product grid (spec §2 Home, §4 product paging; DESIGN §5).
 *
 * How a route uses it (/home and /res-search do exactly this):
 *
 *   // loader
 *   const { page, only } = readPage(url);                        // ~/lib/paging
 *   const pages = await listProductPages(filters, page, { only }); // ~/.server/store/catalogue
 *   return { pages, ...whatever else the route needs (skip it when `only`) };
 *
 *   // component
 *   <ProductGrid pages={loaderData.pages} />
 *
 * The loader's data must carry the pages under the key `pages`. Without JavaScript the document
 * shows pages 0..N and a real link 'Muat lebih banyak' to the same address with page=N+1, so the
 * reader keeps scrolling one page. With JavaScript an IntersectionObserver (100 px before the end)
 * loads the next page through a fetcher from the same route with `append=1` (the loader then returns
 * only that page), appends it, and writes the page into the address with history.replaceState so
 * the address stays shareable. One load at a time; nothing more after `isLastPage`.
 * `hrefForPage` overrides how a page's address is built (default: this address with page=n).
 */
import { useCallback, useMemo } from "react";
import { useLocation } from "react-router";
import type { ProductListItem, ProductPage } from "~/.server/store/catalogue";
import { pageHref } from "~/lib/paging";
import { ProductCard } from "./product-card";
import { useAppendingPages } from "./use-appending-pages";

const pageAnchor = (page: number) => `halaman-${page}`;

type Props = {
  pages: ProductPage[];
  hrefForPage?: (page: number) => string;
  /** Shown when there is no product at all. */
  emptyText?: string;
  /** Images of the first cards load eagerly (they are on screen at once). */
  eagerImages?: number;
  /**
   * Images of the first cards fetched before any other (the first row: the largest thing on screen
   * when the grid starts the page). 0 where something larger comes first, like the home banners.
   */
  priorityImages?: number;
};

export function ProductGrid({ pages, hrefForPage, emptyText = "Produk tidak ditemukan.", eagerImages = 4, priorityImages = 2 }: Props) {
  const location = useLocation();
  const href = useCallback(
    (page: number) => (hrefForPage ? hrefForPage(page) : pageHref(location.pathname, location.search, page)),
    [hrefForPage, location.pathname, location.search],
  );

  const { allPages, nextPage, done, loading, sentinel, onMoreClick } = useAppendingPages(pages, href);

  const { items, pageStarts } = useMemo(() => {
    // A product inserted between two loads could shift one into the next page: show it once.
    const seen = new Set<number>();
    const list: ProductListItem[] = [];
    // The first card of each later page is an anchor, so the no-JS link lands where the new page starts.
    const starts = new Map<number, number>();
    for (const page of allPages) {
      for (const item of page.content) {
        if (seen.has(item.id)) continue;
        if (page.page > 0 && !starts.has(page.page)) starts.set(page.page, item.id);
        seen.add(item.id);
        list.push(item);
      }
    }
    return { items: list, pageStarts: new Map([...starts].map(([page, id]) => [id, page])) };
  }, [allPages]);

  const lastLoaded = allPages[allPages.length - 1];

  // The detail's back arrow returns to this list (the pages loaded so far) without JavaScript.
  const listAddress = href(lastLoaded?.page ?? 0);

  if (!items.length) return <p className="product-grid-empty">{emptyText}</p>;

  return (
    <section className="product-list" aria-label="Daftar produk">
      {/* A document shows a few pages at most (the latest): the earlier ones are a link away. */}
      {allPages[0] && allPages[0].page > 0 ? (
        <a className="btn btn-outline btn-block product-grid-earlier" href={href(allPages[0].page - 1)}>
          Lihat produk sebelumnya
        </a>
      ) : null}
      <ul className="product-grid">
        {items.map((product, index) => (
          <ProductCard
            key={product.id}
            product={product}
            eager={index < eagerImages}
            priority={index < priorityImages}
            anchor={pageStarts.has(product.id) ? pageAnchor(pageStarts.get(product.id)!) : undefined}
            from={listAddress}
          />
        ))}
      </ul>
      <div ref={sentinel} className="product-grid-end">
        {loading ? (
          <p className="product-grid-loading" role="status">
            <span className="spinner" aria-hidden="true" /> Memuat…
          </p>
        ) : !done ? (
          <a className="btn btn-outline btn-block" href={`${href(nextPage)}#${pageAnchor(nextPage)}`} onClick={onMoreClick}>
            Muat lebih banyak
          </a>
        ) : null}
      </div>
    </section>
  );
}
