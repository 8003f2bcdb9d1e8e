import { asc, count, eq, ne, and } from "drizzle-orm";
import { getDb } from "../../db/client";
import { catalogueAudit, categories, cities, products } from "../../db/schema";
import { CSV_FORMULA, looksLikeFormula } from "../../csv";
import { cachedRead as cached, catalogueWrite } from "./version";

// Categories and cities (issue 26 item 6): added, renamed, reordered; one in use by a product cannot
// be deleted (the product would lose it): a category can be hidden from the buyers' filters instead.

export type TaxonomyKind = "kategori" | "kota";
export type TaxonomyItem = { id: number; name: string; hidden: boolean; products: number };

const table = (kind: TaxonomyKind) =>
  kind === "kategori"
    ? { t: categories, name: categories.title, position: categories.position, ref: products.categoryId }
    : { t: cities, name: cities.name, position: cities.position, ref: products.cityId };

export async function listTaxonomy(kind: TaxonomyKind): Promise<TaxonomyItem[]> {
  const db = await getDb();
  const { t, name, position, ref } = table(kind);
  const rows = await db.select({ id: t.id, name, position }).from(t).orderBy(asc(position), asc(name));
  const used = await db.select({ id: ref, n: count() }).from(products).groupBy(ref);
  const hidden =
    kind === "kategori"
      ? new Map((await db.select({ id: categories.id, hidden: categories.hidden }).from(categories)).map((c) => [c.id, c.hidden]))
      : new Map<number, boolean>();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    hidden: hidden.get(r.id) ?? false,
    products: used.find((u) => u.id === r.id)?.n ?? 0,
  }));
}

export const nameMessage = (kind: TaxonomyKind, name: string): string | null => {
  const label = kind === "kategori" ? "Nama Kategori" : "Nama Kota";
  if (!name) return `${label} tidak boleh kosong.`;
  if (name.length > 80) return `${label} maksimal 80 karakter.`;
  if (looksLikeFormula(name)) return CSV_FORMULA;
  return null;
};

export type TaxonomyChange =
  | { intent: "add"; name: string }
  | { intent: "rename"; id: number; name: string }
  | { intent: "up" | "down" | "hide" | "show" | "delete"; id: number };

/** One change of the list; a refusal says why (Indonesian). */
export async function changeTaxonomy(
  operatorId: number,
  kind: TaxonomyKind,
  change: TaxonomyChange,
): Promise<{ ok: true } | { ok: false; message: string; field?: "name" }> {
  const { t, name: nameColumn, position, ref } = table(kind);
  const label = kind === "kategori" ? "Kategori" : "Kota";
  if (change.intent === "add" || change.intent === "rename") {
    const name = change.name.trim();
    const problem = nameMessage(kind, name);
    if (problem) return { ok: false, message: problem, field: "name" };
    const db = await getDb();
    const [same] = await db
      .select({ id: t.id })
      .from(t)
      .where(change.intent === "rename" ? and(eq(nameColumn, name), ne(t.id, change.id)) : eq(nameColumn, name));
    if (same) return { ok: false, message: `${label} dengan nama itu sudah ada.`, field: "name" };
  }
  return catalogueWrite(async (tx) => {
    const rows = await tx.select({ id: t.id, name: nameColumn }).from(t).orderBy(asc(position), asc(nameColumn)).for("update");
    if (change.intent === "add") {
      if (kind === "kategori") await tx.insert(categories).values({ title: change.name.trim(), position: rows.length });
      else await tx.insert(cities).values({ name: change.name.trim(), position: rows.length });
      await tx.insert(catalogueAudit).values({ operatorId, action: `${kind}-ditambah`, detail: change.name.trim() });
      return { ok: true as const };
    }
    const index = rows.findIndex((r) => r.id === change.id);
    if (index < 0) return { ok: false as const, message: `${label} tidak ditemukan.` };
    const item = rows[index]!;
    switch (change.intent) {
      case "rename":
        if (kind === "kategori") await tx.update(categories).set({ title: change.name.trim() }).where(eq(categories.id, item.id));
        else await tx.update(cities).set({ name: change.name.trim() }).where(eq(cities.id, item.id));
        break;
      case "hide":
      case "show":
        if (kind !== "kategori") return { ok: false as const, message: "Kota tidak dapat disembunyikan." };
        await tx
          .update(categories)
          .set({ hidden: change.intent === "hide" })
          .where(eq(categories.id, item.id));
        break;
      case "delete": {
        const [{ n }] = (await tx.select({ n: count() }).from(products).where(eq(ref, item.id))) as [{ n: number }];
        if (n > 0)
          return {
            ok: false as const,
            message:
              kind === "kategori"
                ? `Kategori ${item.name} masih dipakai ${n} produk dan tidak dapat dihapus. Sembunyikan saja.`
                : `Kota ${item.name} masih dipakai ${n} produk dan tidak dapat dihapus.`,
          };
        await tx.delete(t).where(eq(t.id, item.id));
        break;
      }
      case "up":
      case "down": {
        rows.splice(index, 1);
        rows.splice(change.intent === "up" ? Math.max(0, index - 1) : Math.min(rows.length, index + 1), 0, item);
        for (const [p, r] of rows.entries()) {
          if (kind === "kategori") await tx.update(categories).set({ position: p }).where(eq(categories.id, r.id));
          else await tx.update(cities).set({ position: p }).where(eq(cities.id, r.id));
        }
        break;
      }
    }
    await tx.insert(catalogueAudit).values({
      operatorId,
      action: `${kind}-${change.intent}`,
      detail: item.name + (change.intent === "rename" ? ` → ${change.name.trim()}` : ""),
    });
    return { ok: true as const };
  });
}

// ————————————————————————————————————————————— the buyers' lists (read through the cache)

/** Spec §7 GET /api/v1/product/categories. */
export function listCategories(): Promise<{ id: number; title: string }[]> {
  return cached("categories", async () =>
    (await getDb())
      .select({ id: categories.id, title: categories.title })
      .from(categories)
      .where(eq(categories.hidden, false))
      .orderBy(asc(categories.position), asc(categories.id)),
  );
}

/** Spec §7 GET /api/v1/product/cities: the cities products ship from. */
export function listCities(): Promise<{ id: number; name: string }[]> {
  return cached("cities", async () =>
    (await getDb())
      .select({ id: cities.id, name: cities.name })
      .from(cities)
      .orderBy(asc(cities.position), asc(cities.name), asc(cities.id)),
  );
}
