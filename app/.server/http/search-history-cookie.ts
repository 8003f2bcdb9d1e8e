import { createCookie, type RouterContextProvider } from "react-router";
import { getUser, signedCookieOptions } from "./session";
import { cleanHistory, clearSearchHistory, listSearchHistory, mergeSearchHistory, pushKeyword, recordSearch } from "../store/catalogue";

/**
 * The visitor's search history (DESIGN §4: historyKwd): in the database for a signed-in user, in a
 * signed cookie for a guest. Each function returns the headers to send (the guest's cookie, or its
 * removal once it has been merged into a user's history after login).
 */

let cookie: ReturnType<typeof createCookie> | undefined;

function historyCookie() {
  // Signed like the session, so a guest's page never shows keywords someone else planted.
  const { name, ...options } = signedCookieOptions("search_history", 60 * 60 * 24 * 365);
  cookie ??= createCookie(name, options);
  return cookie;
}

type Visitor = { request: Request; context: Readonly<RouterContextProvider> };
type HistoryResult = { history: string[]; headers: Headers };

async function guestHistory(request: Request): Promise<string[] | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("search_history=")) return null;
  return cleanHistory(await historyCookie().parse(header));
}

async function cookieHeaders(history: string[]): Promise<Headers> {
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    history.length ? await historyCookie().serialize(history) : await historyCookie().serialize([], { maxAge: 0 }),
  );
  return headers;
}

/** The latest keywords, newest first; a guest history left in the browser joins the user's after login. */
export async function loadSearchHistory({ request, context }: Visitor): Promise<HistoryResult> {
  const user = getUser(context);
  const guest = await guestHistory(request);
  if (!user) return { history: guest ?? [], headers: new Headers() };
  if (guest === null) return { history: await listSearchHistory(user.id), headers: new Headers() };
  return { history: await mergeSearchHistory(user.id, guest), headers: await cookieHeaders([]) };
}

/** Puts a searched keyword on top of the history. */
export async function addToSearchHistory(visitor: Visitor, keyword: string): Promise<HistoryResult> {
  const user = getUser(visitor.context);
  if (!user) {
    const history = pushKeyword((await guestHistory(visitor.request)) ?? [], keyword);
    return { history, headers: await cookieHeaders(history) };
  }
  const loaded = await loadSearchHistory(visitor);
  return { history: await recordSearch(user.id, keyword), headers: loaded.headers };
}

/** 'Hapus Semua': the stored history and the cookie are both emptied. */
export async function clearVisitorSearchHistory({ request, context }: Visitor): Promise<Headers> {
  const user = getUser(context);
  if (user) await clearSearchHistory(user.id);
  return (await guestHistory(request)) !== null || !user ? cookieHeaders([]) : new Headers();
}
