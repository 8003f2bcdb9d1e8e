import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { asc, eq, gt, inArray, sql } from "drizzle-orm";
import { csvReadError, csvSafeCell, csvUnsafeCell, openCsv, rowMessage } from "../../csv";
import { getDb, type Executor } from "../../db/client";
import { catalogueAudit, categories, cities, products, type ProductStatus } from "../../db/schema";
import { readProductFields, type ProductFieldName, type ProductFields } from "./product-input";
import { changesBetween, productFieldColumns } from "./products-admin";
import { nameMessage } from "./taxonomy";
import { catalogueWrite } from "./version";

// The price list finance sends (issue 26 item 7): one CSV, keyed by `sku`. The preview says what
// would change and which rows are wrong ('Baris 4: …', the header is line 1); 'Terapkan Impor'
// writes every valid row in ONE transaction (a new category or city is created), so applying the
// same file again changes nothing, and records who imported what. The export writes the same
// columns, so export → import changes nothing. Photos are not part of the file.

export const CATALOGUE_COLUMNS = [
  "sku",
  "nama",
  "kategori",
  "harga",
  "diskon",
  "tipe_diskon",
  "stok",
  "kota",
  "kondisi",
  "berat_gram",
  "minimal_pembelian",
  "deskripsi",
  "status",
] as const;
type Column = (typeof CATALOGUE_COLUMNS)[number];
const REQUIRED: Column[] = ["sku", "nama", "kategori", "harga"];

/** Which product field each column fills (kategori and kota are names, resolved separately). */
const FIELD_OF: Partial<Record<Column, ProductFieldName>> = {
  sku: "sku",
  nama: "title",
  harga: "price",
  diskon: "discount",
  tipe_diskon: "discountType",
  stok: "stock",
  kondisi: "condition",
  berat_gram: "weightGram",
  minimal_pembelian: "minimumPurchase",
  deskripsi: "description",
  status: "status",
};

/** Invalid rows listed in the preview; the rest are counted. */
const SHOWN_INVALID = 100;

type Existing = ProductFields & {
  id: number;
  sku: string;
  categoryId: number | null;
  cityId: number | null;
  categoryTitle: string | null;
  cityName: string | null;
};
type ValidRow = { line: number; fields: ProductFields & { sku: string }; category: string; city: string | null };

export type CsvPlan = {
  rows: number;
  added: number;
  changed: number;
  unchanged: number;
  invalid: number;
  /** 'Baris 4: Harga harus lebih dari 0.' (the first SHOWN_INVALID). */
  problems: string[];
  newCategories: string[];
  newCities: string[];
  /** The values read for each row that adds or changes a product (the first SHOWN_ROWS, in file order), issue 38. */
  shown: {
    line: number;
    sku: string;
    name: string;
    price: number;
    discount: number;
    discountType: "v" | "%";
    stock: number;
    condition: "Baru" | "Bekas";
    status: string;
    outcome: "akan ditambah" | "akan diubah";
  }[];
};

/** Rows whose values the preview shows; a bigger file is counted beyond them. */
const SHOWN_ROWS = 200;

/** A cell the export neutralised (csvSafeCell) reads back as it was. */
const unquoted = csvUnsafeCell;

const productColumns = {
  ...productFieldColumns,
  categoryTitle: categories.title,
  cityName: cities.name,
};

async function existingBySku(db: Executor, skus: string[]): Promise<Map<string, Existing>> {
  const found = new Map<string, Existing>();
  for (let i = 0; i < skus.length; i += 1000) {
    const rows = await db
      .select(productColumns)
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .leftJoin(cities, eq(cities.id, products.cityId))
      .where(inArray(products.sku, skus.slice(i, i + 1000)));
    for (const row of rows) found.set(row.sku!, row as Existing);
  }
  return found;
}

/** The file's product fields; an optional column absent from the header keeps the product's value. */
function rawFields(values: Partial<Record<Column, string>>, existing: Existing | undefined): Partial<Record<ProductFieldName, string>> {
  const raw: Partial<Record<ProductFieldName, string>> = {};
  for (const [column, field] of Object.entries(FIELD_OF) as [Column, ProductFieldName][]) {
    const value = values[column];
    if (value !== undefined) raw[field] = unquoted(value);
    else if (existing) raw[field] = String(existing[field as keyof Existing] ?? "");
  }
  return raw;
}

const sameProduct = (a: Existing, b: ValidRow, categoryId: number | undefined, cityId: number | null | undefined) =>
  a.title === b.fields.title &&
  a.price === b.fields.price &&
  a.discount === b.fields.discount &&
  a.discountType === b.fields.discountType &&
  a.stock === b.fields.stock &&
  a.condition === b.fields.condition &&
  a.weightGram === b.fields.weightGram &&
  a.minimumPurchase === b.fields.minimumPurchase &&
  a.description === b.fields.description &&
  a.status === b.fields.status &&
  a.categoryId === (categoryId ?? -1) &&
  a.cityId === (cityId === undefined ? -1 : cityId);

/** Reads and checks the whole file; a file-level problem (size, header, quoting) refuses all of it. */
async function readFile(
  db: Executor,
  content: Buffer | string,
): Promise<
  | { ok: false; message: string }
  | { ok: true; valid: ValidRow[]; problems: string[]; invalid: number; rows: number; existing: Map<string, Existing>; hasCity: boolean }
> {
  const reader = openCsv(content, { columns: CATALOGUE_COLUMNS, required: REQUIRED });
  if (!reader.ok) return reader;
  const parsed: { line: number; values: Partial<Record<Column, string>> }[] = [];
  try {
    for await (const row of reader.rows) parsed.push(row);
  } catch (error) {
    const message = csvReadError(error);
    if (message) return { ok: false, message };
    throw error;
  }
  const existing = await existingBySku(db, [...new Set(parsed.map((r) => unquoted(r.values.sku ?? "").trim()).filter(Boolean))]);
  const valid: ValidRow[] = [];
  const problems: string[] = [];
  let invalid = 0;
  const seen = new Map<string, number>();
  for (const { line, values } of parsed) {
    const sku = unquoted(values.sku ?? "").trim();
    const messages: string[] = [];
    if (!sku) messages.push("SKU tidak boleh kosong.");
    else if (seen.has(sku)) messages.push(`SKU ${sku} sudah ada di baris ${seen.get(sku)}.`);
    const current = sku ? existing.get(sku) : undefined;
    const read = readProductFields(rawFields(values, current));
    if (!read.ok) messages.push(...Object.values(read.errors));
    const category = values.kategori !== undefined ? unquoted(values.kategori).trim() : (current?.categoryTitle ?? "");
    const categoryProblem = category ? nameMessage("kategori", category) : "Kategori tidak boleh kosong.";
    if (categoryProblem) messages.push(categoryProblem);
    const city = values.kota !== undefined ? unquoted(values.kota).trim() || null : (current?.cityName ?? null);
    const cityProblem = city ? nameMessage("kota", city) : null;
    if (cityProblem) messages.push(cityProblem);
    if (sku && !seen.has(sku)) seen.set(sku, line);
    if (messages.length || !read.ok) {
      invalid++;
      if (problems.length < SHOWN_INVALID) problems.push(rowMessage(line, [...new Set(messages)].join(" ")));
      continue;
    }
    valid.push({ line, fields: { ...read.value, sku }, category, city });
  }
  return { ok: true, valid, problems, invalid, rows: parsed.length, existing, hasCity: reader.columns.includes("kota") };
}

async function nameMaps(db: Executor) {
  const [categoryRows, cityRows] = await Promise.all([
    db.select({ id: categories.id, name: categories.title }).from(categories),
    db.select({ id: cities.id, name: cities.name }).from(cities),
  ]);
  return { categoryIds: new Map(categoryRows.map((c) => [c.name, c.id])), cityIds: new Map(cityRows.map((c) => [c.name, c.id])) };
}

function planOf(
  file: Extract<Awaited<ReturnType<typeof readFile>>, { ok: true }>,
  maps: Awaited<ReturnType<typeof nameMaps>>,
): CsvPlan & { toAdd: ValidRow[]; toChange: [Existing, ValidRow][] } {
  const toAdd: ValidRow[] = [];
  const toChange: [Existing, ValidRow][] = [];
  let unchanged = 0;
  for (const row of file.valid) {
    const current = file.existing.get(row.fields.sku);
    if (!current) toAdd.push(row);
    else if (sameProduct(current, row, maps.categoryIds.get(row.category), row.city === null ? null : maps.cityIds.get(row.city)))
      unchanged++;
    else toChange.push([current, row]);
  }
  const newCategories = [...new Set(file.valid.map((r) => r.category).filter((c) => !maps.categoryIds.has(c)))];
  const newCities = [...new Set(file.valid.flatMap((r) => (r.city && !maps.cityIds.has(r.city) ? [r.city] : [])))];
  const shown = [
    ...toAdd.map((row) => ({ row, outcome: "akan ditambah" as const })),
    ...toChange.map(([, row]) => ({ row, outcome: "akan diubah" as const })),
  ]
    .sort((a, b) => a.row.line - b.row.line)
    .slice(0, SHOWN_ROWS)
    .map(({ row, outcome }) => ({
      line: row.line,
      sku: row.fields.sku,
      name: row.fields.title,
      price: row.fields.price,
      discount: row.fields.discount,
      discountType: row.fields.discountType,
      stock: row.fields.stock,
      condition: row.fields.condition,
      status: row.fields.status,
      outcome,
    }));
  return {
    rows: file.rows,
    added: toAdd.length,
    changed: toChange.length,
    unchanged,
    invalid: file.invalid,
    problems: file.problems,
    newCategories,
    newCities,
    shown,
    toAdd,
    toChange,
  };
}

/** The preview: what 'Terapkan Impor' would do with this file. Writes nothing. */
export async function previewCatalogueCsv(content: Buffer | string): Promise<{ ok: true; plan: CsvPlan } | { ok: false; message: string }> {
  const db = await getDb();
  const file = await readFile(db, content);
  if (!file.ok) return file;
  const { toAdd: _a, toChange: _c, ...plan } = planOf(file, await nameMaps(db));
  return { ok: true, plan };
}

const BATCH = 500;

/**
 * 'Terapkan Impor': every valid row of the file in one transaction (a refused file writes nothing).
 * New categories and cities first, then new products in batches, then each changed product (its
 * version moves on, so an open edit form is told), one audit row per product and one for the import.
 */
export async function applyCatalogueCsv(
  operatorId: number,
  content: Buffer | string,
  fileName: string,
): Promise<{ ok: true; plan: CsvPlan } | { ok: false; message: string }> {
  return catalogueWrite(async (tx) => {
    const file = await readFile(tx, content);
    if (!file.ok) return file;
    const maps = await nameMaps(tx);
    const plan = planOf(file, maps);
    const categoryCount = maps.categoryIds.size;
    for (const [i, title] of plan.newCategories.entries()) {
      const [row] = (await tx
        .insert(categories)
        .values({ title, position: categoryCount + i })
        .returning({ id: categories.id })) as [{ id: number }];
      maps.categoryIds.set(title, row.id);
    }
    for (const name of plan.newCities) {
      const [row] = (await tx.insert(cities).values({ name }).returning({ id: cities.id })) as [{ id: number }];
      maps.cityIds.set(name, row.id);
    }
    const valuesOf = (row: ValidRow) => ({
      ...row.fields,
      categoryId: maps.categoryIds.get(row.category)!,
      cityId: row.city ? maps.cityIds.get(row.city)! : null,
    });
    for (let i = 0; i < plan.toAdd.length; i += BATCH) {
      const batch = plan.toAdd.slice(i, i + BATCH);
      const inserted = await tx
        .insert(products)
        .values(batch.map((row) => ({ ...valuesOf(row), orderable: 1 })))
        .returning({ id: products.id, sku: products.sku });
      const bySku = new Map(inserted.map((r) => [r.sku, r.id]));
      await tx.insert(catalogueAudit).values(
        batch.map((row) => ({
          productId: bySku.get(row.fields.sku)!,
          operatorId,
          action: "impor-csv",
          detail: `${fileName} baris ${row.line}`,
          changes: createdWith(row),
        })),
      );
    }
    const audits: (typeof catalogueAudit.$inferInsert)[] = [];
    for (const [current, row] of plan.toChange) {
      const values = valuesOf(row);
      await tx
        .update(products)
        // The file's stock as a difference to the stock the plan read: a unit an order reserved
        // since then stays reserved (as the edit form does).
        .set({
          ...values,
          stock: sql`greatest(0, ${products.stock} + ${values.stock - current.stock})`,
          version: sql`${products.version} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(products.id, current.id));
      audits.push({
        productId: current.id,
        operatorId,
        action: "impor-csv",
        detail: `${fileName} baris ${row.line}`,
        changes: changesBetween(current, values),
      });
      if (audits.length >= BATCH) await tx.insert(catalogueAudit).values(audits.splice(0));
    }
    if (audits.length) await tx.insert(catalogueAudit).values(audits);
    await tx.insert(catalogueAudit).values({ operatorId, action: "impor-csv-selesai", detail: `${fileName}: ${importSummary(plan)}` });
    const { toAdd: _a, toChange: _c, ...summary } = plan;
    return { ok: true as const, plan: summary };
  });
}

/** A new product's audit: the fields 'Riwayat' follows (price, stock, status), not the whole row. */
const createdWith = (row: ValidRow) => ({
  price: { before: null, after: row.fields.price },
  stock: { before: null, after: row.fields.stock },
  status: { before: null, after: row.fields.status },
});

/** '12 ditambah, 3 diubah, 40 tidak berubah, 2 baris tidak valid'. */
export const importSummary = (plan: CsvPlan) =>
  `${plan.added} ditambah, ${plan.changed} diubah, ${plan.unchanged} tidak berubah, ${plan.invalid} baris tidak valid`;

async function* exportRows(): AsyncGenerator<(string | number)[]> {
  const db = await getDb();
  let after = 0;
  for (;;) {
    const batch = await db
      .select(productColumns)
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .leftJoin(cities, eq(cities.id, products.cityId))
      .where(gt(products.id, after))
      .orderBy(asc(products.id))
      .limit(BATCH);
    for (const p of batch) {
      yield [
        p.sku ?? "",
        p.title ?? "",
        p.categoryTitle ?? "",
        p.price ?? "",
        p.discount,
        p.discountType,
        p.stock,
        p.cityName ?? "",
        p.condition,
        p.weightGram,
        p.minimumPurchase,
        p.description,
        p.status as ProductStatus,
      ];
    }
    if (batch.length < BATCH) return;
    after = batch.at(-1)!.id;
  }
}

/** The catalogue as CSV, streamed in batches (the import's columns; formula-like cells quoted). */
export function exportCatalogueCsv(): Readable {
  const csv = stringify({ header: true, columns: [...CATALOGUE_COLUMNS], cast: { string: csvSafeCell } });
  return Readable.from(exportRows()).pipe(csv);
}
