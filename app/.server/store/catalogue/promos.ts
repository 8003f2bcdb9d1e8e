import { asc, eq, inArray } from "drizzle-orm";
import { getDb } from "../../db/client";
import { catalogueAudit, productPromos, products, promos } from "../../db/schema";
import { looksLikeFormula, CSV_FORMULA } from "../../csv";
import { wholeNumber, type FieldErrors } from "./product-input";
import { catalogueWrite } from "./version";

// The promos (issue 26 item 4): what the terms sheet lists and the checkout applies. Their kind is
// their data: 'Insentif Pemerintah' (the flag: the checkout asks for the KTP), the employee promo
// (a fixed Rp1.000.000, spec §6) and 'icp' (a fixed Rp250.000) by their amounts (spec §9,
// ~/lib/pricing promoKind). An optional window in WIB bounds when buyers see and get them. A promo
// is attached to products here (by SKU) or on the product's form.

export type PromoField = "title" | "discountType" | "discount" | "description" | "validFrom" | "validUntil" | "skus";

export type OpsPromo = {
  id: number;
  title: string;
  discountType: "v" | "%";
  discount: number;
  description: string;
  incentive: boolean;
  validFrom: Date | null;
  validUntil: Date | null;
  skus: string[];
};

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/** A `datetime-local` value read as WIB (UTC+7, no daylight saving); null when empty; undefined when invalid. */
export function wibDateTime(text: string): Date | null | undefined {
  const value = text.trim();
  if (!value) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const at = Date.UTC(y, mo - 1, d, h, mi) - WIB_OFFSET_MS;
  const check = new Date(at + WIB_OFFSET_MS);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  return new Date(at);
}

/** A date as a `datetime-local` value in WIB. */
export const toWibInput = (date: Date | null) => (date ? new Date(date.getTime() + WIB_OFFSET_MS).toISOString().slice(0, 16) : "");

export async function listPromosForOps(): Promise<OpsPromo[]> {
  const db = await getDb();
  const rows = await db.select().from(promos).orderBy(asc(promos.id));
  const links = rows.length
    ? await db
        .select({ promoId: productPromos.promoId, sku: products.sku })
        .from(productPromos)
        .innerJoin(products, eq(products.id, productPromos.productId))
        .orderBy(asc(products.sku))
    : [];
  return rows.map((p) => ({
    id: p.id,
    title: p.title,
    discountType: p.discountType,
    discount: p.discount,
    description: p.description,
    incentive: p.incentive === 1,
    validFrom: p.validFrom,
    validUntil: p.validUntil,
    skus: links.filter((l) => l.promoId === p.id && l.sku).map((l) => l.sku!),
  }));
}

/** The SKUs a text names: one per line or separated by commas/semicolons. */
const skusOf = (text: string) => [
  ...new Set(
    text
      .split(/[\s,;]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/** Adds or changes a promo (id null: a new one) and sets the products it is attached to. */
export async function savePromo(
  operatorId: number,
  id: number | null,
  fields: Partial<Record<PromoField, string>> & { incentive?: boolean },
): Promise<{ ok: true; id: number } | { ok: false; errors: FieldErrors<PromoField> }> {
  const errors: FieldErrors<PromoField> = {};
  const title = (fields.title ?? "").trim();
  if (!title) errors.title = "Judul Promo tidak boleh kosong.";
  else if (title.length > 120) errors.title = "Judul Promo maksimal 120 karakter.";
  else if (looksLikeFormula(title)) errors.title = CSV_FORMULA;
  const discountType: "v" | "%" | null = fields.discountType === "%" ? "%" : fields.discountType === "v" ? "v" : null;
  if (!discountType) errors.discountType = "Tipe Diskon harus Rp (v) atau %.";
  const discount = wholeNumber(fields.discount ?? "");
  if (discount === null || discount <= 0) errors.discount = "Diskon harus berupa angka bulat lebih dari 0.";
  else if (discountType === "%" && discount > 100) errors.discount = "Diskon persen maksimal 100.";
  const description = (fields.description ?? "").trim();
  if (description.length > 2000) errors.description = "Deskripsi maksimal 2000 karakter.";
  const validFrom = wibDateTime(fields.validFrom ?? "");
  const validUntil = wibDateTime(fields.validUntil ?? "");
  if (validFrom === undefined) errors.validFrom = "Tanggal dan jam tidak valid.";
  if (validUntil === undefined) errors.validUntil = "Tanggal dan jam tidak valid.";
  if (validFrom && validUntil && validUntil <= validFrom) errors.validUntil = "Berlaku Sampai harus setelah Berlaku Dari.";
  const skus = skusOf(fields.skus ?? "");
  const db = await getDb();
  const found = skus.length
    ? await db.select({ id: products.id, sku: products.sku }).from(products).where(inArray(products.sku, skus))
    : [];
  const missing = skus.filter((s) => !found.some((f) => f.sku === s));
  if (missing.length) errors.skus = `SKU tidak ditemukan: ${missing.slice(0, 10).join(", ")}.`;
  if (Object.keys(errors).length) return { ok: false, errors };

  const values = {
    title,
    discountType: discountType!,
    discount: discount!,
    description,
    incentive: fields.incentive ? 1 : 0,
    validFrom: validFrom ?? null,
    validUntil: validUntil ?? null,
  };
  return catalogueWrite(async (tx) => {
    let promoId: number;
    if (id === null) {
      const [row] = (await tx.insert(promos).values(values).returning({ id: promos.id })) as [{ id: number }];
      promoId = row.id;
    } else {
      const updated = await tx.update(promos).set(values).where(eq(promos.id, id)).returning({ id: promos.id });
      if (!updated.length) return { ok: false as const, errors: { title: "Promo tidak ditemukan." } };
      promoId = id;
    }
    await tx.delete(productPromos).where(eq(productPromos.promoId, promoId));
    if (found.length) await tx.insert(productPromos).values(found.map((p) => ({ productId: p.id, promoId })));
    await tx
      .insert(catalogueAudit)
      .values({ operatorId, action: id === null ? "promo-dibuat" : "promo-diubah", detail: `${title} (${found.length} produk)` });
    return { ok: true as const, id: promoId };
  });
}
