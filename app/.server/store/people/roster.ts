import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { companies, rosterEntries, users } from "../../db/schema";
import { CSV_FORMULA, csvReadError, looksLikeFormula, openCsv, rowMessage } from "../../csv";
import { recordAudit } from "./operators";

// The employee roster (issue 27, DESIGN §6 "People and roles"): each company's employees from its HR
// export, keyed by (company, NIP). A company with at least one entry is "on the roster": only its
// active employees register (one account per entry) and only they get the employee promo; a
// company without entries works as before, its accounts 'Belum terverifikasi HR'. An employee who
// leaves is 'nonaktif', never deleted: their account keeps its history and open orders.
// Long module: the import (preview, apply), the single edits and the standing rules read one
// roster table under one set of rules; split, each part would repeat them.

export const NIP_NOT_ON_ROSTER = "NIP tidak terdaftar sebagai pegawai aktif di perusahaan ini.";
export const NIP_ALREADY_LINKED = "NIP ini sudah terhubung dengan akun lain. Hubungi admin.";
export const NOT_ACTIVE_EMPLOYEE = "Akun Anda tidak lagi terdaftar sebagai pegawai aktif. Hubungi admin.";

/**
 * Where an account stands with its company's roster: 'active' (linked to an active entry),
 * 'inactive' (its entry is 'nonaktif', or its company has a roster the account is not on),
 * 'no-roster' (its company has loaded none). The one rule checkout asks (employee promo, new
 * checkouts); an unknown account is 'inactive'.
 */
export type EmployeeStanding = "active" | "inactive" | "no-roster";

export async function employeeStanding(userId: number, db?: Executor): Promise<EmployeeStanding> {
  if (!Number.isSafeInteger(userId) || userId <= 0 || userId > 2_147_483_647) return "inactive";
  const [row] = await queryRows<{ standing: EmployeeStanding }>(
    db ?? (await getDb()),
    sql`select coalesce(
          (select case r.status when 'aktif' then 'active' else 'inactive' end from roster_entries r where r.user_id = u.id),
          case when exists (select 1 from roster_entries r where r.company_id = u.company_id) then 'inactive' else 'no-roster' end
        ) as standing
        from users u where u.id = ${userId}`,
  );
  return row?.standing ?? "inactive";
}

/** How the back office names a standing (accounts of companies without a roster: 'Belum terverifikasi HR'). */
export const STANDING_LABELS: Record<EmployeeStanding | "unlisted", string> = {
  active: "Terverifikasi HR",
  inactive: "Nonaktif",
  unlisted: "Tidak ada di daftar pegawai",
  "no-roster": "Belum terverifikasi HR",
};

// ————————————————————————————————————————————— registration

export type RosterCheck = { ok: true; entryId: number | null } | { ok: false; field: "nip"; message: string };

/**
 * The roster's word on a registration (or an admin's change of NIP/company): for a company with a
 * roster, the NIP must be an active entry not linked to another account. `entryId` is the entry to
 * link (null: the company has no roster). The link itself is `linkRosterEntry`, in the caller's
 * transaction, which decides races.
 */
export async function checkRosterForRegistration(db: Executor, companyId: number, nip: string, userId?: number): Promise<RosterCheck> {
  const [entry] = await db
    .select({ id: rosterEntries.id, status: rosterEntries.status, userId: rosterEntries.userId })
    .from(rosterEntries)
    .where(and(eq(rosterEntries.companyId, companyId), eq(rosterEntries.nip, nip.trim())));
  if (!entry) {
    const [any] = await db.select({ id: rosterEntries.id }).from(rosterEntries).where(eq(rosterEntries.companyId, companyId)).limit(1);
    return any ? { ok: false, field: "nip", message: NIP_NOT_ON_ROSTER } : { ok: true, entryId: null };
  }
  if (entry.status !== "aktif") return { ok: false, field: "nip", message: NIP_NOT_ON_ROSTER };
  if (entry.userId !== null && entry.userId !== userId) return { ok: false, field: "nip", message: NIP_ALREADY_LINKED };
  return { ok: true, entryId: entry.id };
}

/**
 * Links the entry to the account: one conditional update, so of many registrations racing for one
 * NIP exactly one wins (the others see the entry taken and roll back). False when it was taken.
 */
export async function linkRosterEntry(db: Executor, entryId: number, userId: number): Promise<boolean> {
  const rows = await db
    .update(rosterEntries)
    .set({ userId, updatedAt: new Date() })
    .where(and(eq(rosterEntries.id, entryId), eq(rosterEntries.status, "aktif"), sql`${rosterEntries.userId} is null`))
    .returning({ id: rosterEntries.id });
  return rows.length > 0;
}

// ————————————————————————————————————————————— the CSV import

export const ROSTER_COLUMNS = ["nip", "nama", "perusahaan", "status"] as const;
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

function rowProblem(values: Record<(typeof ROSTER_COLUMNS)[number], string>, companyIds: Map<string, number>): string | null {
  if (Object.values(values).some(looksLikeFormula)) return CSV_FORMULA;
  if (!values.nip) return "NIP tidak boleh kosong.";
  if (values.nip.length > 30) return "NIP maksimal 30 karakter.";
  if (!values.nama) return "Nama tidak boleh kosong.";
  if (values.nama.length > 200) return "Nama maksimal 200 karakter.";
  if (!values.perusahaan) return "Perusahaan tidak boleh kosong.";
  if (!companyIds.has(values.perusahaan.toLowerCase()))
    return `Perusahaan "${values.perusahaan.slice(0, 100)}" tidak ada di daftar perusahaan.`;
  if (!STATUS_VALUES.has(values.status.toLowerCase())) return "Status harus aktif atau nonaktif.";
  return null;
}

/** A PostgreSQL array literal sent as one parameter (both drivers accept it for ::text[] / ::int[]). */
const pgArray = (values: (string | number)[]) =>
  `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`)).join(",")}}`;

type Staged =
  { ok: true; rows: number; problems: { line: number; message: string }[]; problemCount: number } | { ok: false; message: string };

/**
 * Reads the file into a temporary table of the transaction (dropped at its end), batch by batch: the
 * rows never sit in memory all at once, and the comparison with the roster is SQL on indexes.
 */
async function stageRosterFile(tx: Executor, content: string): Promise<Staged> {
  const companyRows = await tx.select({ id: companies.id, name: companies.name }).from(companies);
  const companyIds = new Map(companyRows.map((c) => [c.name.trim().toLowerCase(), c.id]));
  const file = openCsv(content, { columns: ROSTER_COLUMNS, maxBytes: ROSTER_MAX_BYTES, maxRows: ROSTER_MAX_ROWS });
  if (!file.ok) return file;

  await tx.execute(
    sql`create temp table roster_import (line int not null, company_id int not null, nip text not null, name text not null, status text not null) on commit drop`,
  );
  const problems: { line: number; message: string }[] = [];
  let problemCount = 0;
  let rows = 0;
  let batch: { line: number; companyId: number; nip: string; name: string; status: string }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.execute(sql`insert into roster_import select * from unnest(
      ${pgArray(batch.map((r) => r.line))}::int[], ${pgArray(batch.map((r) => r.companyId))}::int[],
      ${pgArray(batch.map((r) => r.nip))}::text[], ${pgArray(batch.map((r) => r.name))}::text[], ${pgArray(batch.map((r) => r.status))}::text[])`);
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
        companyId: companyIds.get(values.perusahaan.toLowerCase())!,
        nip: values.nip,
        name: values.nama,
        status: values.status.toLowerCase(),
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
  return { ok: true, rows, problems: problems.slice(0, PROBLEMS_SHOWN), problemCount };
}

async function countChanges(tx: Executor, options: RosterImportOptions): Promise<Omit<RosterImportCounts, "rows">> {
  const [counts] = await queryRows<{ to_add: number; to_update: number; to_deactivate: number }>(
    tx,
    sql`select
          (select count(*) from roster_import s where not exists (select 1 from roster_entries e where e.company_id = s.company_id and e.nip = s.nip))::int as to_add,
          (select count(*) from roster_import s join roster_entries e on e.company_id = s.company_id and e.nip = s.nip
            where e.name <> s.name or e.status <> s.status)::int as to_update,
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
    const counts = await countChanges(tx, options);
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
    const counts = { rows: staged.rows, ...(await countChanges(tx, options)) };
    await tx.execute(sql`insert into roster_entries (company_id, nip, name, status)
      select company_id, nip, name, status from roster_import
      on conflict (company_id, nip) do update set name = excluded.name, status = excluded.status, updated_at = now()
      where roster_entries.name <> excluded.name or roster_entries.status <> excluded.status`);
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

// ————————————————————————————————————————————— the roster page

export const ROSTER_PAGE_SIZE = 50;
export type RosterRow = { id: number; nip: string; name: string; status: "aktif" | "nonaktif"; accountEmail: string | null };
export type CompanyRoster = { id: number; name: string; active: number; inactive: number };

/** Every company with its roster's size (0 and 0: no roster). */
export async function listCompanyRosters(): Promise<CompanyRoster[]> {
  const rows = await queryRows<CompanyRoster>(
    await getDb(),
    sql`select c.id, c.name,
          (select count(*) from roster_entries r where r.company_id = c.id and r.status = 'aktif')::int as active,
          (select count(*) from roster_entries r where r.company_id = c.id and r.status = 'nonaktif')::int as inactive
        from companies c order by c.id`,
  );
  return rows;
}

/** One page of a company's roster, by NIP; `q` finds a NIP by its start or a name by any part. */
export async function listRoster(companyId: number, q: string, page: number): Promise<{ rows: RosterRow[]; total: number }> {
  const db = await getDb();
  const term = q
    .trim()
    .slice(0, 100)
    .replace(/[\\%_]/g, (c) => `\\${c}`);
  const where = and(
    eq(rosterEntries.companyId, companyId),
    term ? or(ilike(rosterEntries.nip, `${term}%`), ilike(rosterEntries.name, `%${term}%`)) : undefined,
  );
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(rosterEntries)
    .where(where);
  const rows = await db
    .select({
      id: rosterEntries.id,
      nip: rosterEntries.nip,
      name: rosterEntries.name,
      status: rosterEntries.status,
      accountEmail: users.email,
    })
    .from(rosterEntries)
    .leftJoin(users, eq(users.id, rosterEntries.userId))
    .where(where)
    .orderBy(asc(rosterEntries.nip))
    .limit(ROSTER_PAGE_SIZE)
    .offset((Math.max(1, page) - 1) * ROSTER_PAGE_SIZE);
  return { rows, total };
}

export const ROSTER_ENTRY_NOT_FOUND = "Data pegawai tidak ditemukan.";

/** 'Simpan' on one entry (name, status) or its 'Nonaktifkan'; audited. */
export async function updateRosterEntry(
  operatorId: number,
  entryId: number,
  change: { name?: string; status?: "aktif" | "nonaktif" },
): Promise<{ ok: true } | { ok: false; field?: "name"; message: string }> {
  const name = change.name?.trim();
  if (name !== undefined && (name.length === 0 || name.length > 200))
    return { ok: false, field: "name", message: name ? "Nama maksimal 200 karakter." : "Nama tidak boleh kosong." };
  if (name !== undefined && looksLikeFormula(name)) return { ok: false, field: "name", message: CSV_FORMULA };
  const db = await getDb();
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(rosterEntries)
      .set({ ...(name !== undefined ? { name } : {}), ...(change.status ? { status: change.status } : {}), updatedAt: new Date() })
      .where(eq(rosterEntries.id, entryId))
      .returning({ nip: rosterEntries.nip, companyId: rosterEntries.companyId, status: rosterEntries.status });
    const row = rows[0];
    if (!row) return { ok: false as const, message: ROSTER_ENTRY_NOT_FOUND };
    await recordAudit(tx, operatorId, "roster-edit", {
      detail: `perusahaan ${row.companyId}, NIP ${row.nip}: ${name !== undefined ? `nama "${name}", ` : ""}status ${row.status}`,
    });
    return { ok: true as const };
  });
}

// ————————————————————————————————————————————— buyer accounts in the back office

export type AccountForOps = {
  id: number;
  email: string;
  fullname: string;
  nip: string;
  companyId: number;
  companyName: string;
  standing: EmployeeStanding | "unlisted";
};

/** Accounts whose e-mail or NIP starts with `q` (at most 20), with where each stands with its roster. */
export async function findAccountsForOps(q: string): Promise<AccountForOps[]> {
  const term = q
    .trim()
    .slice(0, 100)
    .replace(/[\\%_]/g, (c) => `\\${c}`);
  if (!term) return [];
  return queryRows<AccountForOps>(
    await getDb(),
    sql`select u.id, u.email, u.fullname, u.nip, u.company_id as "companyId", c.name as "companyName",
          coalesce(
            (select case r.status when 'aktif' then 'active' else 'inactive' end from roster_entries r where r.user_id = u.id),
            case when exists (select 1 from roster_entries r where r.company_id = u.company_id) then 'unlisted' else 'no-roster' end
          ) as standing
        from users u join companies c on c.id = u.company_id
        where lower(u.email) like lower(${`${term}%`}) or u.nip like ${`${term}%`}
        order by u.email limit 20`,
  );
}

/**
 * The admin's change of an account's NIP or company (spec: "only the admin can change it"): checked
 * against the new company's roster like a registration, the old entry unlinked and the new one
 * linked in one transaction, audited with the before and after.
 */
export async function changeAccountEmployment(
  operatorId: number,
  userId: number,
  change: { companyId: number; nip: string },
): Promise<{ ok: true } | { ok: false; field?: "nip" | "companyId"; message: string }> {
  const nip = change.nip.trim();
  if (!nip) return { ok: false, field: "nip", message: "NIP tidak boleh kosong." };
  if (nip.length > 30) return { ok: false, field: "nip", message: "NIP maksimal 30 karakter." };
  const db = await getDb();
  return db
    .transaction(async (tx) => {
      const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, change.companyId));
      if (!company) return { ok: false as const, field: "companyId" as const, message: "Perusahaan tidak boleh kosong." };
      const [before] = await tx
        .select({ nip: users.nip, companyId: users.companyId })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!before) return { ok: false as const, message: "Akun tidak ditemukan." };
      const check = await checkRosterForRegistration(tx, change.companyId, nip, userId);
      if (!check.ok) return check;
      await tx
        .update(rosterEntries)
        .set({ userId: null, updatedAt: new Date() })
        .where(and(eq(rosterEntries.userId, userId), check.entryId ? sql`${rosterEntries.id} <> ${check.entryId}` : undefined));
      await tx.update(users).set({ nip, companyId: change.companyId, updatedAt: new Date() }).where(eq(users.id, userId));
      if (check.entryId !== null) {
        const [held] = await tx.select({ userId: rosterEntries.userId }).from(rosterEntries).where(eq(rosterEntries.id, check.entryId));
        // Taken since the check by a registration: undo the unlink and the change above.
        if (held?.userId !== userId && !(await linkRosterEntry(tx, check.entryId, userId))) throw new EntryTaken();
      }
      await recordAudit(tx, operatorId, "account-employment", {
        detail: `akun ${userId}: perusahaan ${before.companyId} → ${change.companyId}, NIP ${before.nip} → ${nip}`,
      });
      return { ok: true as const };
    })
    .catch((error: unknown) => {
      if (error instanceof EntryTaken) return { ok: false as const, field: "nip" as const, message: NIP_ALREADY_LINKED };
      throw error;
    });
}

/** Thrown inside a transaction to roll it back when another account took the roster entry first. */
export class EntryTaken extends Error {
  constructor() {
    super("roster entry taken");
  }
}
