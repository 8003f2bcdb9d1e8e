import { and, desc, eq, notInArray, sql } from "drizzle-orm";
import { normaliseKeyword } from "~/lib/search-params";
import { getDb } from "../../db/client";
import { searchHistory } from "../../db/schema";

/**
 * Search history (spec §4, §9): a submitted non-empty keyword goes on top, a keyword searched again
 * moves to the top (compared case-insensitively, so there are no duplicates), the latest 5 are
 * shown newest first, and 'Hapus Semua' empties it. Signed-in users keep it here; guests keep the
 * same list in a cookie (../search-history-cookie.ts), using the list functions below.
 */
export const HISTORY_SIZE = 5;

const lowerKeyword = sql`lower(${searchHistory.keyword})`;

/** The user's latest keywords, newest first. */
export async function listSearchHistory(userId: number): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ keyword: searchHistory.keyword })
    .from(searchHistory)
    .where(eq(searchHistory.userId, userId))
    .orderBy(desc(searchHistory.searchedAt))
    .limit(HISTORY_SIZE);
  return rows.map((r) => r.keyword);
}

/** Puts a keyword on top of the user's history; an empty keyword is ignored. Returns the new list. */
export async function recordSearch(userId: number, rawKeyword: string): Promise<string[]> {
  const keyword = normaliseKeyword(rawKeyword);
  if (!keyword) return listSearchHistory(userId);
  const db = await getDb();
  await db.transaction(async (tx) => {
    // Delete-then-insert moves an existing keyword to the top, spelled the way it was last typed.
    await tx.delete(searchHistory).where(and(eq(searchHistory.userId, userId), eq(lowerKeyword, keyword.toLowerCase())));
    // A concurrent request for the same keyword may insert first: then its row is as good as ours.
    // clock_timestamp(): two searches in the same millisecond still get distinct, ordered times.
    await tx
      .insert(searchHistory)
      .values({ userId, keyword, searchedAt: sql`clock_timestamp()` })
      .onConflictDoNothing();
    // Only the shown entries are worth keeping.
    const latest = tx
      .select({ keyword: lowerKeyword })
      .from(searchHistory)
      .where(eq(searchHistory.userId, userId))
      .orderBy(desc(searchHistory.searchedAt))
      .limit(HISTORY_SIZE);
    await tx.delete(searchHistory).where(and(eq(searchHistory.userId, userId), notInArray(lowerKeyword, latest)));
  });
  return listSearchHistory(userId);
}

/** 'Hapus Semua'. */
export async function clearSearchHistory(userId: number): Promise<void> {
  const db = await getDb();
  await db.delete(searchHistory).where(eq(searchHistory.userId, userId));
}

/**
 * Adds a guest's history (newest first, as stored in the cookie) to the user's own, e.g. the
 * first time they search after logging in. Keywords the user already has keep their place; the
 * guest's others go on top, as the most recent searches.
 */
export async function mergeSearchHistory(userId: number, guestKeywords: string[]): Promise<string[]> {
  const own = new Set((await listSearchHistory(userId)).map((k) => k.toLowerCase()));
  // Oldest first, so the guest's newest keyword ends up on top: it is the most recent search.
  const missing = guestKeywords.filter((k) => !own.has(normaliseKeyword(k).toLowerCase())).reverse();
  for (const keyword of missing) await recordSearch(userId, keyword);
  return listSearchHistory(userId);
}

/** The same rule on a plain list (the guest's cookie): keyword on top, no case-insensitive duplicates, 5 kept. */
export function pushKeyword(history: readonly string[], rawKeyword: string): string[] {
  const keyword = normaliseKeyword(rawKeyword);
  const clean = cleanHistory(history);
  if (!keyword) return clean;
  return [keyword, ...clean.filter((k) => k.toLowerCase() !== keyword.toLowerCase())].slice(0, HISTORY_SIZE);
}

/** Whatever a cookie held, as a valid history: strings only, normalised, de-duplicated, at most 5. */
export function cleanHistory(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const list: string[] = [];
  for (const item of value.slice(0, 50)) {
    const keyword = normaliseKeyword(item);
    if (!keyword || seen.has(keyword.toLowerCase())) continue;
    seen.add(keyword.toLowerCase());
    list.push(keyword);
    if (list.length === HISTORY_SIZE) break;
  }
  return list;
}
