// The catalogue's read cache, below both its readers (store/catalogue/catalogue.ts) and its writers (the demo
// seeding, store/catalogue/catalogue.ts itself): a write invalidates it without importing the store.

/**
 * Catalogue reads are cached in the process: the home page, search results, product details,
 * categories, cities and banners change only when the catalogue is written (demo seeding, product
 * changes, stock and sales on orders), while every page view reads them. Whatever writes catalogue
 * rows calls invalidateCatalogueCache() after the write; view counts (and stock, when shown) are
 * read fresh on every request and never cached. Entries also expire after CACHE_TTL_MS, which
 * bounds how long another instance sharing a PostgreSQL database can show an older catalogue.
 * Cached values are shared between requests: treat them as read-only.
 */
const CACHE_TTL_MS = 30_000;
/** Distinct queries kept (filters and keywords vary); the least recently used goes first. */
const CACHE_LIMIT = 300;
const catalogueCache = new Map<string, { value: Promise<unknown>; expiresAt: number }>();

/** Forget every cached catalogue read: call after any write to products, images, promos, categories, cities or banners. */
export function invalidateCatalogueCache(): void {
  catalogueCache.clear();
}

export function cached<T>(key: string, read: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = catalogueCache.get(key);
  catalogueCache.delete(key);
  if (hit && hit.expiresAt > now) {
    catalogueCache.set(key, hit); // most recently used last
    return hit.value as Promise<T>;
  }
  const value = read();
  const entry = { value, expiresAt: now + CACHE_TTL_MS };
  catalogueCache.set(key, entry);
  if (catalogueCache.size > CACHE_LIMIT) catalogueCache.delete(catalogueCache.keys().next().value!);
  // A failed read is not remembered (unless the cache was cleared meanwhile: then it is gone anyway).
  value.catch(() => {
    if (catalogueCache.get(key) === entry) catalogueCache.delete(key);
  });
  return value;
}
