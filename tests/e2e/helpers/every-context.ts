import type { Browser, BrowserContext } from "@playwright/test";

/**
 * Runs `watch` on `context` and, while the test runs, on every context it opens from `browser`
 * (a staff desk, a second buyer); collects the checks `watch` starts. `finish()` stops watching new
 * contexts and settles every check, including any started meanwhile. The suite's page checks
 * (./html-validation, ./page-width) each watch through this.
 */
export function watchEveryContext(
  browser: Browser,
  context: BrowserContext,
  watch: (watched: BrowserContext, checks: Promise<void>[]) => void,
) {
  const checks: Promise<void>[] = [];
  watch(context, checks);
  const newContext = browser.newContext;
  browser.newContext = async function (...args: Parameters<Browser["newContext"]>) {
    const opened = await newContext.apply(browser, args);
    watch(opened, checks);
    return opened;
  };
  return async function finish(): Promise<void> {
    browser.newContext = newContext;
    for (let done = 0; done < checks.length; done = checks.length) await Promise.all(checks.slice(done));
  };
}
