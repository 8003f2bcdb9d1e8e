// Descriptions with web links made clickable (spec §2 product detail) — safely (DESIGN §9): the text
// is split into plain text and http(s) links; the page renders both as React text and <a> elements,
// so markup in a description stays text and no other scheme (javascript:, data:) becomes a link.

export type TextSegment = { type: "text"; text: string } | { type: "link"; text: string; href: string };

// A URL runs to the next space or character that cannot end one in running text.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;
// Sentence punctuation right after a link belongs to the sentence.
const TRAILING = /[.,;:!?)\]]+$/;

export function linkSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  const pushText = (value: string) => {
    if (!value) return;
    const previous = segments[segments.length - 1];
    if (previous?.type === "text") previous.text += value;
    else segments.push({ type: "text", text: value });
  };
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    let candidate = match[0];
    const trailing = TRAILING.exec(candidate)?.[0] ?? "";
    candidate = candidate.slice(0, candidate.length - trailing.length);
    pushText(text.slice(last, start));
    const href = safeHttpUrl(candidate);
    if (href) segments.push({ type: "link", text: candidate, href });
    else pushText(candidate);
    pushText(trailing);
    last = start + match[0].length;
  }
  pushText(text.slice(last));
  return segments;
}

/** The normalised URL when it is a well-formed http(s) URL with a host, else null. */
export function safeHttpUrl(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}
