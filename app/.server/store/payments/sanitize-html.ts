// A tiny allow-list HTML sanitiser for the how-to-pay content (DESIGN §9: "HTML how-to content
// sanitised"). It keeps a handful of formatting tags WITHOUT any attribute, turns every other tag
// into nothing (and drops the contents of script/style/template/iframe…), escapes all text, and
// closes what was left open — so the output can only ever be inert formatting.

const ALLOWED = new Set(["p", "ol", "ul", "li", "b", "strong", "i", "em", "br", "small"]);
const VOID = new Set(["br"]);
// Elements whose content is not text for a reader: dropped entirely with their content.
const DROPPED_WITH_CONTENT = new Set(["script", "style", "template", "iframe", "object", "embed", "noscript", "textarea", "title", "svg", "math", "select"]);

const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

// Entities in the input stay entities: decode the few named ones and numeric ones, then re-escape.
function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (whole, body: string) => {
    const name = body.toLowerCase();
    if (name === "amp") return "&";
    if (name === "lt") return "<";
    if (name === "gt") return ">";
    if (name === "quot") return '"';
    if (name === "apos") return "'";
    if (name === "nbsp") return "\u00a0";
    const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

// A tag: <name …>, </name>, or a comment/doctype/processing instruction.
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^>]*>?|<\?[^>]*>?|<\/?([a-zA-Z][a-zA-Z0-9-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*>?/g;

export function sanitizeHtml(input: string): string {
  const html = String(input ?? "");
  const out: string[] = [];
  const open: string[] = [];
  let dropping: string | null = null;
  let last = 0;
  for (const match of html.matchAll(TOKEN)) {
    const text = html.slice(last, match.index);
    last = match.index + match[0].length;
    if (!dropping && text) out.push(escapeText(decodeEntities(text)));
    const name = match[1]?.toLowerCase();
    if (!name) continue; // comments, doctypes, processing instructions: gone
    const closing = match[0].startsWith("</");
    if (dropping) {
      if (closing && name === dropping) dropping = null;
      continue;
    }
    if (!closing && DROPPED_WITH_CONTENT.has(name)) {
      if (!/\/>$/.test(match[0])) dropping = name;
      continue;
    }
    if (!ALLOWED.has(name)) continue;
    if (VOID.has(name)) {
      if (!closing) out.push(`<${name}>`);
      continue;
    }
    if (!closing) {
      out.push(`<${name}>`);
      open.push(name);
      continue;
    }
    // A closing tag closes its element and whatever was left open inside it; a stray one is dropped.
    const at = open.lastIndexOf(name);
    if (at === -1) continue;
    while (open.length > at) out.push(`</${open.pop()}>`);
  }
  if (!dropping) out.push(escapeText(decodeEntities(html.slice(last))));
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join("");
}
