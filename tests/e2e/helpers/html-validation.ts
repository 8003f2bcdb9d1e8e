import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext } from "@playwright/test";
import { FileSystemConfigLoader, HtmlValidate } from "html-validate";
import { watchEveryContext } from "./every-context";

/**
 * Every HTML document a test's browser receives from the store is checked with html-validate
 * (issue 34, configured in .htmlvalidate.mjs): the document as the server wrote it (the response
 * body, not the DOM scripts made of it), in both projects. The test fails at its end with each
 * error's rule, place and page.
 *
 * Cheap on purpose: a document is validated once per worker. Two answers that differ only in a
 * per-request token (the CSP nonce, the form's CSRF token) are the same document.
 */

const validator = new HtmlValidate(new FileSystemConfigLoader());
/** A name in the project's root, so that the loader finds .htmlvalidate.mjs there. */
const DOCUMENT_NAME = path.resolve("served-page.html");

/** Per worker: the errors of each document already validated, by its content. */
const validated = new Map<string, Promise<string[]>>();

/** The document without what changes on every request. */
function sameDocumentKey(html: string): string {
  const stable = html.replace(/\bnonce="[^"]*"/g, "").replace(/(name="(?:csrf|_csrf)"[^>]*?value=)"[^"]*"/g, "$1");
  return createHash("sha1").update(stable).digest("base64");
}

/**
 * React's streaming renderer, when a suspended part (React Router's data stream, `<Scripts>`) is
 * ready only after the shell went out — on a busy machine — sends it in `<div hidden id="S:0">`, a
 * bare `hidden` written by its runtime, not by the store: the `empty` style the store is held to
 * cannot be asked of it. Only those containers are excused; every other `hidden` is still checked.
 */
const reactStreamingSegment = (ruleId: string, selector: string | null) =>
  ruleId === "attribute-empty-style" && /^#S\\:\d+$/.test(selector ?? "");

async function errorsOf(html: string): Promise<string[]> {
  const started = performance.now();
  const report = await validator.validateString(html, DOCUMENT_NAME);
  const file = process.env.HTML_VALIDATE_REPORT;
  if (file) appendFileSync(`${file}.times`, `${(performance.now() - started).toFixed(1)} ${html.length}\n`);
  return report.results.flatMap((result) =>
    result.messages
      .filter((m) => !reactStreamingSegment(m.ruleId, m.selector))
      .map((m) => `${m.ruleId}: ${m.message} — ${m.selector ?? "(document)"} (line ${m.line}:${m.column})`),
  );
}

function validate(html: string): Promise<string[]> {
  const key = sameDocumentKey(html);
  let errors = validated.get(key);
  if (!errors) validated.set(key, (errors = errorsOf(html)));
  return errors;
}

/** HTML_VALIDATE_REPORT=<file>: every error found is also appended there, one per line (to count them by rule). */
function report(page: string, problems: Set<string>) {
  const file = process.env.HTML_VALIDATE_REPORT;
  if (file) for (const problem of problems) if (problem.startsWith(`${page} `)) appendFileSync(file, `${problem.replaceAll("\n", " ")}\n`);
}

/**
 * The store's own documents carry its request id (http/serving.ts); the Midtrans fake's pages, also
 * served from localhost, do not: they stand for Midtrans's site, which the store does not write.
 */
const isStoreDocument = (headers: Record<string, string>) => "x-request-id" in headers;

/**
 * Watches `context` (and, while the test runs, every context it opens from `browser`) for documents;
 * returns what the test found when it is over.
 */
export function watchDocuments(browser: Browser, context: BrowserContext) {
  const problems = new Set<string>();
  const finish = watchEveryContext(browser, context, (watched, checks) =>
    watched.on("response", (response) => {
      const request = response.request();
      if (!request.isNavigationRequest()) return;
      const status = response.status();
      if (status >= 300 && status < 400) return;
      const headers = response.headers();
      if (!(headers["content-type"] ?? "").startsWith("text/html")) return;
      if (!isStoreDocument(headers)) return;
      const url = new URL(response.url());
      const page = `${url.pathname}${url.search}`;
      checks.push(
        response
          .text()
          .then(validate)
          .then((errors) => errors.forEach((error) => problems.add(`${page} (${status}) ${error}`)))
          .then(() => report(page, problems))
          // The browser may have dropped the body already (it navigated on at once): nothing to read.
          .catch(() => {}),
      );
    }),
  );
  return {
    /** The errors in every document seen, once the last one is validated. */
    async finish(): Promise<string[]> {
      await finish();
      return [...problems];
    },
  };
}
