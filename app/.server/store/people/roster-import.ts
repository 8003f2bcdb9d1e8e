import { sql } from "drizzle-orm";
import { z } from "zod/mini";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { companies } from "../../db/schema";
import { CSV_FORMULA, csvReadError, looksLikeFormula, openCsv, rowMessage } from "../../csv";
import { recordAudit } from "./operators";

// The roster's CSV import (issue 27, decision 0052): a company's employees from its HR export,
// previewed, then applied in one transaction keyed by (company, NIP). An import links no account
// (roster-links.ts).

/** The file's columns; 'email_kantor' (the employee's work e-mail, where a link is confirmed) is optional. */
export const ROSTER_COLUMNS = ["nip", "nama", "perusahaan", "status", "email_kantor"] as const;
const REQUIRED_COLUMNS = ["nip", "nama", "perusahaan", "status"] as const;
const workEmail = z.string().check(z.maxLength(254), z.email());
/**
 * The roster's file limits: the largest company of the group has some 50,000 employees; 120,000
 * rows of ~65 bytes fit in 9 MB, under the 10 MB upload body limit with the form around it.
 */
export const ROSTER_MAX_ROWS = 120_000;
export const ROSTER_MAX_BYTES = 9 * 1024 * 1024;
/** Invalid rows listed in a preview (the count says how many there are in all). */
const PROBLEMS_SHOWN = 200;
/** Rows sent to the database per statement while staging. */
const STAGE_BATCH = 5_000;

export type RosterImportOptions = { deactivateMissing: boolean };
export type RosterImportCounts = { rows: number; toAdd: number; toUpdate: number; toDeactivate: number; companies: string[] };
export type RosterImportPreview =
  ({ ok: true } & RosterImportCounts & { problems: string[]; problemCount: number }) | { ok: false; message: string };

const STATUS_VALUES = new Set(["aktif", "nonaktif"]);

function rowProblem(values: Partial<Record<(typeof ROSTER_COLUMNS)[number], string>>, companyIds: Map<string, number>): string | null {
  if (Object.values(values).some(looksLikeFormula)) return CSV_FORMULA;
  if (!values.nip) return "NIP tidak boleh kosong.";
  if (values.nip.length > 30) return "NIP maksimal 30 karakter.";
  if (!values.nama) return "Nama tidak boleh kosong.";
  if (values.nama.length > 200) return "Nama maksimal 200 karakter.";
  if (!values.perusahaan) return "Perusahaan tidak boleh kosong.";
  if (!companyIds.has(values.perusahaan.toLowerCase()))
    return `Perusahaan "${values.perusahaan.slice(0, 100)}" tidak ada di daftar perusahaan.`;
  if (!STATUS_VALUES.has(values.status!.toLowerCase())) return "Status harus aktif atau nonaktif.";
  if (values.email_kantor && !workEmail.safeParse(values.email_kantor).success) return "Email kantor tidak valid.";
  return null;
}

/** A PostgreSQL array literal sent as one parameter (both drivers accept it for ::text[] / ::int[]). */
const pgArray = (values: (string | number)[]) =>
  `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`)).join(",")}}`;

type Staged =
  | { ok: true; rows: number; problems: { line: number; message: string }[]; problemCount: number; hasWorkEmail: boolean }
  | { ok: false; message: string };

/**
 * Reads the file into a temporary table of the transaction (dropped at its end), batch by batch: the
 * rows never sit in memory all at once, and the comparison with the roster is SQL on indexes.
 */
async function stageRosterFile(tx: Executor, content: string): Promise<Staged> {
  const companyRows = await tx.select({ id: companies.id, name: companies.name }).from(companies);
  const companyIds = new Map(companyRows.map((c) => [c.name.trim().toLowerCase(), c.id]));
  const file = openCsv(content, {
    columns: ROSTER_COLUMNS,
    required: REQUIRED_COLUMNS,
    maxBytes: ROSTER_MAX_BYTES,
    maxRows: ROSTER_MAX_ROWS,
  });
  if (!file.ok) return file;
  const hasWorkEmail = file.columns.includes("email_kantor");

  await tx.execute(
    sql`create temp table roster_import (line int not null, company_id int not null, nip text not null, name text not null, status text not null, work_email text) on commit drop`,
  );
  const problems: { line: number; message: string }[] = [];
  let problemCount = 0;
  let rows = 0;
  let batch: { line: number; companyId: number; nip: string; name: string; status: string; workEmail: string }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.execute(sql`insert into roster_import select * from unnest(
      ${pgArray(batch.map((r) => r.line))}::int[], ${pgArray(batch.map((r) => r.companyId))}::int[],
      ${pgArray(batch.map((r) => r.nip))}::text[], ${pgArray(batch.map((r) => r.name))}::text[], ${pgArray(batch.map((r) => r.status))}::text[],
      ${pgArray(batch.map((r) => r.workEmail))}::text[])`);
    batch = [];
  };
  try {
    for await (const { line, values } of file.rows) {
      rows++;
      const problem = rowProblem(values, companyIds);
      if (problem) {
        if (++problemCount <= PROBLEMS_SHOWN) problems.push({ line, message: problem });
        continue;
      }
      batch.push({
        line,
        companyId: companyIds.get(values.perusahaan!.toLowerCase())!,
        nip: values.nip!,
        name: values.nama!,
        status: values.status!.toLowerCase(),
        workEmail: values.email_kantor?.toLowerCase() ?? "",
      });
      if (batch.length >= STAGE_BATCH) await flush();
    }
  } catch (error) {
    const message = csvReadError(error);
    if (message) return { ok: false, message };
    throw error;
  }
  await flush();
  if (rows === 0) return { ok: false, message: "File CSV tidak berisi data pegawai." };
  await tx.execute(sql`update roster_import set work_email = null where work_email = ''`);
  await tx.execute(sql`create index on roster_import (company_id, nip)`);
  // A NIP twice for one company: every later row is a problem (which one is right is HR's call).
  const duplicates = await queryRows<{ line: number; nip: string; first: number; total: number }>(
    tx,
    sql`select line, nip, first, count(*) over ()::int as total from (
          select line, nip, min(line) over (partition by company_id, nip) as first from roster_import
        ) d where line <> first order by line limit ${PROBLEMS_SHOWN}`,
  );
  for (const d of duplicates) problems.push({ line: d.line, message: `NIP ${d.nip} sudah ada di baris ${d.first}.` });
  problemCount += duplicates[0]?.total ?? 0;
  problems.sort((a, b) => a.line - b.line);
  return { ok: true, rows, problems: problems.slice(0, PROBLEMS_SHOWN), problemCount, hasWorkEmail };
}

/** Whether an entry (e) differs from its row (`row`); a file without 'email_kantor' keeps the entries' work e-mails. */
const rowChanges = (hasWorkEmail: boolean, row: "s" | "excluded") => {
  const r = sql.raw(row);
  return sql`(e.name <> ${r}.name or e.status <> ${r}.status or (${hasWorkEmail} and e.work_email is distinct from ${r}.work_email))`;
};

async function countChanges(tx: Executor, options: RosterImportOptions, hasWorkEmail: boolean): Promise<Omit<RosterImportCounts, "rows">> {
  const [counts] = await queryRows<{ to_add: number; to_update: number; to_deactivate: number }>(
    tx,
    sql`select
          (select count(*) from roster_import s where not exists (select 1 from roster_entries e where e.company_id = s.company_id and e.nip = s.nip))::int as to_add,
          (select count(*) from roster_import s join roster_entries e on e.company_id = s.company_id and e.nip = s.nip
            where ${rowChanges(hasWorkEmail, "s")})::int as to_update,
          (case when ${options.deactivateMissing} then (select count(*) from roster_entries e
            where e.status = 'aktif' and e.company_id in (select distinct company_id from roster_import)
              and not exists (select 1 from roster_import s where s.company_id = e.company_id and s.nip = e.nip)) else 0 end)::int as to_deactivate`,
  );
  const names = await queryRows<{ name: string }>(
    tx,
    sql`select c.name from companies c where c.id in (select distinct company_id from roster_import) order by c.name`,
  );
  return { toAdd: counts!.to_add, toUpdate: counts!.to_update, toDeactivate: counts!.to_deactivate, companies: names.map((n) => n.name) };
}

/** What 'Terapkan Impor' would do with the file: counts per kind of change and every invalid row. Changes nothing. */
export async function previewRosterImport(content: string, options: RosterImportOptions): Promise<RosterImportPreview> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const staged = await stageRosterFile(tx, content);
    if (!staged.ok) return staged;
    const counts = await countChanges(tx, options, staged.hasWorkEmail);
    return {
      ok: true,
      rows: staged.rows,
      ...counts,
      problems: staged.problems.map((p) => rowMessage(p.line, p.message)),
      problemCount: staged.problemCount,
    };
  });
}

export const ROSTER_FIX_ROWS_FIRST = "File masih memiliki baris yang salah. Perbaiki lalu unggah ulang.";

/**
 * Applies the file in one transaction keyed by (company, NIP): new entries added, changed names and
 * statuses updated, with `deactivateMissing` the active entries of the file's companies that the
 * file lacks set 'nonaktif'. No account is linked here (issue 35: the first to register with a NIP
 * may be a stranger): see roster-links.ts. Applying the same file again changes nothing. A file with an
 * invalid row is refused whole (with 'Nonaktifkan…', a skipped row would deactivate its employee).
 */
export async function applyRosterImport(
  content: string,
  options: RosterImportOptions,
  operatorId: number,
): Promise<{ ok: true; counts: RosterImportCounts; summary: string } | { ok: false; message: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const staged = await stageRosterFile(tx, content);
    if (!staged.ok) return staged;
    if (staged.problemCount > 0) return { ok: false, message: ROSTER_FIX_ROWS_FIRST };
    const counts = { rows: staged.rows, ...(await countChanges(tx, options, staged.hasWorkEmail)) };
    const keep = !staged.hasWorkEmail;
    await tx.execute(sql`insert into roster_entries as e (company_id, nip, name, status, work_email)
      select company_id, nip, name, status, work_email from roster_import
      on conflict (company_id, nip) do update set name = excluded.name, status = excluded.status,
        work_email = case when ${keep} then e.work_email else excluded.work_email end, updated_at = now()
      where ${rowChanges(staged.hasWorkEmail, "excluded")}`);
    if (options.deactivateMissing) {
      await tx.execute(sql`update roster_entries e set status = 'nonaktif', updated_at = now()
        where e.status = 'aktif' and e.company_id in (select distinct company_id from roster_import)
          and not exists (select 1 from roster_import s where s.company_id = e.company_id and s.nip = e.nip)`);
    }
    const summary = `${counts.toAdd} ditambah, ${counts.toUpdate} diubah, ${counts.toDeactivate} dinonaktifkan (${counts.companies.join(", ")})`;
    await recordAudit(tx, operatorId, "roster-import", { detail: summary });
    return { ok: true, counts, summary };
  });
}
