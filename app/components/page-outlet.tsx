import { Suspense, useEffect } from "react";
import { Outlet } from "react-router";

/**
 * A layout's page, hydrated after the layout around it (issue 29, decision 0047). The server's HTML
 * of the page is under a Suspense boundary, so React hydrates the layout (top bar, tabs) in one
 * commit and the page in a later one, at a lower priority: two shorter tasks on a slow phone instead
 * of one long one. A tap on the page before its turn hydrates it at once and then is handled.
 *
 * The `js` end-to-end tests wait for `data-hydrated` on <html> before using what scripts add, so
 * the mark is set here, once the page's own part has hydrated, not when the layout has; the root
 * sets it for documents without such a page (error pages, routes without these layouts).
 */
export function PageOutlet() {
  pageOutletRendered = true;
  return (
    <Suspense>
      <Outlet />
      <HydratedMark />
    </Suspense>
  );
}

let pageOutletRendered = false;

/** Whether a layout put the page under its own boundary (then that boundary sets the mark). */
export function hasPageOutlet() {
  return pageOutletRendered;
}

function HydratedMark() {
  useEffect(() => markHydrated(), []);
  return null;
}

export function markHydrated() {
  document.documentElement.dataset.hydrated = "";
}
