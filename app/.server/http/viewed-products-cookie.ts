/**
 * Which products this visitor has already been counted for (view counts, spec: viewCount): a small
 * cookie of the latest ids, so a reload, a revalidation after a form post or a HEAD request does not
 * count again. No database table: a visitor who refuses cookies is counted per visit, like before.
 */
const COOKIE = "viewed";
const KEEP = 40;
const DAY_SECONDS = 60 * 60 * 24;

function viewedIds(request: Request): number[] {
  const header = request.headers.get("Cookie") ?? "";
  const value = header.match(/(?:^|;\s*)viewed=([0-9.]{1,400})(?:;|$)/)?.[1] ?? "";
  return value
    .split(".")
    .filter((part) => /^[1-9]\d{0,8}$/.test(part))
    .map(Number);
}

/**
 * Whether this request should count a view of product `id`, and the Set-Cookie that remembers it.
 * HEAD never counts (a link checker or preview is not a reader).
 */
export function countView(request: Request, id: number): { count: boolean; setCookie: string | null } {
  if (request.method !== "GET") return { count: false, setCookie: null };
  const seen = viewedIds(request);
  if (seen.includes(id)) return { count: false, setCookie: null };
  const kept = [id, ...seen].slice(0, KEEP);
  return { count: true, setCookie: `${COOKIE}=${kept.join(".")}; Path=/; Max-Age=${DAY_SECONDS}; HttpOnly; SameSite=Lax` };
}
