import { createRequire } from "node:module";
import type sanitize from "sanitize-html";

// The how-to-pay content is HTML (spec §3 howTo[].content) that an admin may edit (DESIGN §9: "HTML
// how-to content sanitised"). Cleaned by sanitize-html (htmlparser2, a real HTML parser) with an
// allow-list: a handful of formatting tags WITHOUT any attribute; every other tag becomes nothing and
// the contents of script/style/template/iframe… go with it; text is escaped. The output can only
// ever be inert formatting.

const OPTIONS: sanitize.IOptions = {
  allowedTags: ["p", "ol", "ul", "li", "b", "strong", "i", "em", "br", "small"],
  allowedAttributes: {},
  allowedSchemes: [],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Elements whose content is not text for a reader: dropped with their content.
  nonTextTags: [
    "script",
    "style",
    "template",
    "iframe",
    "object",
    "embed",
    "noscript",
    "textarea",
    "title",
    "svg",
    "math",
    "select",
    "option",
  ],
  selfClosing: ["br"],
  // Quotes in text escaped too, as everywhere else the store writes HTML.
  textFilter: (text) => text.replace(/"/g, "&quot;").replace(/'/g, "&#39;"),
};

// htmlparser2 reads a tag cut off at the end ("ok <img src=x onerror=…") as text; it is dropped instead.
const UNTERMINATED_TAG = /<[a-zA-Z!?/][^>]*$/;

// Loaded on the first call: with postcss it costs about 10 MB resident, and only the payment page
// (and the settings that edit how-to texts) need it.
const require = createRequire(import.meta.url);
let clean: typeof sanitize | undefined;

export function sanitizeHtml(input: string): string {
  clean ??= require("sanitize-html") as typeof sanitize;
  // `<br />` as the HTML the pages write: `<br>`.
  return clean(String(input ?? "").replace(UNTERMINATED_TAG, ""), OPTIONS).replaceAll("<br />", "<br>");
}
