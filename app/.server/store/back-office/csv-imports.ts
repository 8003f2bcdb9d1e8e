import { randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, ne } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { csvImports } from "../../db/schema";

// Uploaded CSV files waiting between their preview and 'Terapkan Impor' (the catalogue's price list,
// the HR roster). The route stages the file, shows the preview its domain computes from it, and on
// 'Terapkan Impor' hands the same text to its domain's apply, then marks it applied here. Unapplied
// files are forgotten after a day.

// "foto-zip": the catalogue's photo ZIP (issue 38), kept as base64 text like the CSV files.
export type CsvImportKind = "katalog" | "pegawai" | "foto-zip";
export type StagedCsvImport = {
  id: string;
  kind: CsvImportKind;
  fileName: string;
  content: string;
  createdAt: Date;
  appliedAt: Date | null;
  summary: string | null;
  /** The preview kept at upload (JSON), if the domain kept one. */
  preview: string | null;
};

const KEEP_MS = 24 * 60 * 60 * 1000;

/** Keeps an uploaded file for its preview; returns its id (random: it is in the preview's form). */
export async function stageCsvImport(
  kind: CsvImportKind,
  operatorId: number,
  fileName: string,
  content: string,
  preview?: string,
): Promise<string> {
  const db = await getDb();
  await db.delete(csvImports).where(and(isNull(csvImports.appliedAt), lt(csvImports.createdAt, new Date(Date.now() - KEEP_MS))));
  const id = randomUUID();
  await db.insert(csvImports).values({ id, kind, operatorId, fileName: fileName.slice(0, 200) || "import.csv", content, preview });
  return id;
}

/** The operator's own staged file of that kind, or null (unknown, someone else's, another kind). */
export async function getStagedCsvImport(id: string, kind: CsvImportKind, operatorId: number): Promise<StagedCsvImport | null> {
  if (typeof id !== "string" || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      id: csvImports.id,
      kind: csvImports.kind,
      fileName: csvImports.fileName,
      content: csvImports.content,
      createdAt: csvImports.createdAt,
      appliedAt: csvImports.appliedAt,
      summary: csvImports.summary,
      preview: csvImports.preview,
    })
    .from(csvImports)
    .where(and(eq(csvImports.id, id), eq(csvImports.kind, kind), eq(csvImports.operatorId, operatorId)));
  return row ?? null;
}

/**
 * Marks a staged file applied with what it did; false when it already was (a second 'Terapkan Impor').
 * Given the transaction that applies the file, the mark is undone with it when the apply fails.
 */
export async function markCsvImportApplied(id: string, summary: string, tx?: Executor): Promise<boolean> {
  const db = tx ?? (await getDb());
  const rows = await db
    .update(csvImports)
    // Applied, the file (names, NIPs, prices) is kept no longer: its summary is the record (issue 35).
    .set({ appliedAt: new Date(), summary: summary.slice(0, 1000), content: "", preview: null })
    .where(and(eq(csvImports.id, id), isNull(csvImports.appliedAt)))
    .returning({ id: csvImports.id });
  return rows.length > 0;
}

/** Empties the files of imports applied before this version kept only their summary; returns how many. */
export async function forgetAppliedImportFiles(): Promise<number> {
  const db = await getDb();
  const rows = await db
    .update(csvImports)
    .set({ content: "" })
    .where(and(isNotNull(csvImports.appliedAt), ne(csvImports.content, "")))
    .returning({ id: csvImports.id });
  return rows.length;
}
