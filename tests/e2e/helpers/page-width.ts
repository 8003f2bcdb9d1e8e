import type { Browser, BrowserContext, Page } from "@playwright/test";
import { watchEveryContext } from "./every-context";

/**
 * No page of the store is wider than its viewport (issue 43): after every document a test's browser
 * loads, in every context the test opens, `document.documentElement.scrollWidth` is at most the
 * viewport's width. On an emulated phone a wider page widens the layout viewport itself, so the
 * comparison is with the width the context was given, not with `innerWidth`.
 *
 * Only the store's own documents count (they carry its X-Request-Id): the Midtrans fake's pages
 * stand for a site the store does not write.
 */
export function watchPageWidth(browser: Browser, context: BrowserContext) {
  const problems = new Set<string>();
  const watchPage = (page: Page, checks: Promise<void>[]) => {
    let storeDocument = false;
    page.on("response", (response) => {
      const request = response.request();
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      const status = response.status();
      if (status >= 300 && status < 400) return;
      const headers = response.headers();
      storeDocument = "x-request-id" in headers && (headers["content-type"] ?? "").startsWith("text/html");
    });
    page.on("load", () => {
      if (!storeDocument) return;
      const width = page.viewportSize()?.width;
      if (!width) return;
      checks.push(
        page
          .evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, path: location.pathname + location.search }))
          .then(({ scrollWidth, path }) => {
            if (scrollWidth > width) problems.add(`${path}: ${scrollWidth} px wide in a ${width} px viewport`);
          })
          // The page navigated on before it could be measured: its next document is measured instead.
          .catch(() => {}),
      );
    });
  };
  const finish = watchEveryContext(browser, context, (watched, checks) => {
    watched.pages().forEach((page) => watchPage(page, checks));
    watched.on("page", (page) => watchPage(page, checks));
  });
  return {
    async finish(): Promise<string[]> {
      await finish();
      return [...problems];
    },
  };
}
