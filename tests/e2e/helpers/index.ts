/**
 * Small helpers shared by the end-to-end specs. Import from "./helpers" (or "../helpers").
 *
 * Every helper works in both projects (`js` and `nojs`): they only use links, forms and plain
 * HTTP requests, never anything that needs JavaScript in the page.
 */
import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page, test as base } from "@playwright/test";
import { watchDocuments } from "./html-validation";
import { watchPageWidth } from "./page-width";

/**
 * Playwright's `test` for every spec. In the `js` project `page.goto` also waits until React has
 * hydrated the page it lands on: the page's scripts start only after it has loaded (decision 0016),
 * and that project tests what the page does with them. The `nojs` project tests it without them.
 * Documents without React Router's scripts (a plain error answer, an image) are not waited for.
 */
export const test = base.extend<{ page: Page; validHtml: void; fitsViewport: void }>({
  // Every document the test's browser receives is valid HTML (./html-validation, issue 34).
  // HTML_VALIDATE=0 turns it off (to measure what it costs).
  validHtml: [
    async ({ browser, context }, use) => {
      if (process.env.HTML_VALIDATE === "0") return use();
      const documents = watchDocuments(browser, context);
      await use();
      const errors = await documents.finish();
      if (errors.length) throw new Error(`html-validate: ${errors.length} error(s) in the pages this test received:\n${errors.join("\n")}`);
    },
    { auto: true },
  ],
  // Every store page the test's browser loads is no wider than its viewport (./page-width, issue 43).
  fitsViewport: [
    async ({ browser, context }, use) => {
      const widths = watchPageWidth(browser, context);
      await use();
      const problems = await widths.finish();
      if (problems.length) throw new Error(`wider than the viewport (a phone's layout viewport widens to it):\n${problems.join("\n")}`);
    },
    { auto: true },
  ],
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        // A React Router document carries its context; an image or a plain error answer does not.
        if (await page.evaluate(() => "__reactRouterContext" in window))
          await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
        return response;
      };
    }
    await use(page);
  },
});

/** The verified demo account seeded when DEMO_DATA=1 (the e2e server always sets it). */
export const DEMO_EMAIL = "demo@pln.co.id";
export const DEMO_PASSWORD = "Demo12345!";
export const DEMO_ACCOUNT = { email: DEMO_EMAIL, password: DEMO_PASSWORD } as const;

/** A fresh address for this test, e.g. `uniqueEmail("reg")` → "reg-1a2b3c4d5e@example.test". */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().replaceAll("-", "").slice(0, 12)}@example.test`.toLowerCase();
}

/**
 * Signs in through the login form, the way a user does, and waits until the browser has left
 * /login. Pass `redirect` to start from `/login?redirect=…`.
 */
export async function loginAs(page: Page, email: string = DEMO_EMAIL, password: string = DEMO_PASSWORD, redirect?: string) {
  await page.goto(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : "/login");
  await fillLogin(page, email, password);
  await page.waitForURL((url) => url.pathname !== "/login");
}

/** Fills and submits the login form on the current page (no waiting for where it goes). */
export async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Kata Sandi", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}

export type Email = { to: string; subject: string; text: string; link: string | null };

/** The demo outbox page as a test may read it: with the per-run key (decision 0005, playwright.config.ts). */
export const OUTBOX_PATH = `/outbox?key=${encodeURIComponent(process.env.OUTBOX_KEY ?? "")}`;

/**
 * The newest e-mail sent to `to`, read from the demo outbox page `/outbox` (where mail goes when
 * SMTP_URL is not set). Waits up to `timeout` ms for one to arrive. `link` is the first http(s) link
 * in the text (verification, password reset …). Accepts a Page (uses its request context, so the
 * page's own URL does not change) or an APIRequestContext (the `request` fixture). Mail is sent by
 * the job queue a moment after the action (issue 28): with `subject`, waits for the newest e-mail
 * with that subject (an older one to the same address does not count).
 */
export async function readLatestEmail(
  source: Page | APIRequestContext,
  to: string,
  options: { timeout?: number; subject?: string } = {},
): Promise<Email> {
  const request = "request" in source ? source.request : source;
  let found: Email | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(OUTBOX_PATH);
        expect(response.status(), "GET /outbox").toBe(200);
        found = parseOutbox(await response.text()).find(
          (m) => m.to.toLowerCase() === to.toLowerCase() && (!options.subject || m.subject === options.subject),
        );
        return found !== undefined;
      },
      { message: `an e-mail to ${to}${options.subject ? ` (${options.subject})` : ""} in /outbox`, timeout: options.timeout ?? 20_000 },
    )
    .toBe(true);
  return found!;
}

/** All e-mails on the outbox page, newest first (the page's order). */
export function parseOutbox(html: string): Email[] {
  const articles = html.split(/<article\b/).slice(1);
  return articles
    .filter((a) => /data-testid="outbox-message"/.test(a.slice(0, a.indexOf(">"))))
    .map((article) => {
      const to = textOf(article.match(/data-testid="outbox-to"[^>]*>([\s\S]*?)<\/span>/)?.[1]);
      const subject = textOf(article.match(/<h2\b[^>]*>([\s\S]*?)<\/h2>/)?.[1]);
      const pre = article.match(/<pre\b[^>]*>([\s\S]*?)<\/pre>/)?.[1] ?? "";
      const text = textOf(pre);
      const link = text.match(/https?:\/\/\S+/)?.[0] ?? null;
      return { to, subject, text, link };
    });
}

/** HTML fragment → its text: drops tags and comments, decodes the entities React writes. */
function textOf(fragment: string | undefined): string {
  if (!fragment) return "";
  return fragment
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, code: string) => {
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
      if (code[0] !== "#") return named[code.toLowerCase()]!;
      return String.fromCodePoint(code[1]?.toLowerCase() === "x" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10));
    })
    .trim();
}
