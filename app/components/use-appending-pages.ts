import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { APPEND_PARAM } from "~/lib/paging";

/**
 * The endless list of any paged loader (DESIGN §5; the product grid and the transaction list):
 * without JavaScript the document holds pages 0..N and a real link 'Muat lebih banyak' to page N+1;
 * with it an IntersectionObserver (100 px before the end, spec §9) fetches the next page from the
 * same route with `append=1` (the loader then returns only that page under `pages`), appends it
 * and writes the page into the address. One load at a time; nothing more after `isLastPage`.
 */
export function useAppendingPages<P extends { page: number; isLastPage: boolean }>(pages: P[], hrefForPage: (page: number) => string) {
  // Pages appended by scrolling; forgotten when the list itself changes (other filters).
  const [appended, setAppended] = useState<P[]>([]);
  const listKey = hrefForPage(0);
  const [appendedFor, setAppendedFor] = useState(listKey);
  if (appendedFor !== listKey) {
    setAppendedFor(listKey);
    setAppended([]);
  }

  const allPages = useMemo(() => {
    const byNumber = new Map<number, P>();
    for (const page of appended) byNumber.set(page.page, page);
    for (const page of pages) byNumber.set(page.page, page); // the loader's copy wins
    return [...byNumber.values()].sort((a, b) => a.page - b.page);
  }, [pages, appended]);

  const lastLoaded = allPages[allPages.length - 1];
  const nextPage = lastLoaded ? lastLoaded.page + 1 : 0;
  const done = !lastLoaded || lastLoaded.isLastPage;

  const fetcher = useFetcher<{ pages?: P[] }>();
  const loading = fetcher.state !== "idle";
  const requested = useRef<number | null>(null);

  const loadNext = useCallback(() => {
    if (done || loading || requested.current === nextPage) return;
    requested.current = nextPage;
    const url = new URL(hrefForPage(nextPage), window.location.href);
    url.searchParams.set(APPEND_PARAM, "1");
    fetcher.load(url.pathname + url.search);
  }, [done, loading, nextPage, hrefForPage, fetcher]);

  useEffect(() => {
    const received = fetcher.data?.pages;
    if (fetcher.state !== "idle" || !received?.length) return;
    setAppended((current) => [...current.filter((p) => !received.some((r) => r.page === p.page)), ...received]);
    const newest = received[received.length - 1]!;
    const url = new URL(window.location.href);
    if (newest.page > 0) url.searchParams.set("page", String(newest.page));
    window.history.replaceState(window.history.state, "", url);
  }, [fetcher.data, fetcher.state]);

  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (!target || done || loading || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadNext(), {
      rootMargin: "0px 0px 100px 0px",
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [done, loading, loadNext]);

  /** The link's click: a tap retries a load that failed. */
  const onMoreClick = (event: React.MouseEvent) => {
    event.preventDefault();
    requested.current = null;
    loadNext();
  };

  return { allPages, nextPage, done, loading, sentinel, onMoreClick };
}
