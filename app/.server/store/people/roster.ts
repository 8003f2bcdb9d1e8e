import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { companies, rosterEntries, users } from "../../db/schema";
import { CSV_FORMULA, looksLikeFormula } from "../../csv";
import { recordAudit } from "./operators";

// The employee roster (issue 27, DESIGN §6 "People and roles"): each company's employees from its HR
// export, keyed by (company, NIP). A company with at least one entry is "on the roster": only its
// active employees register (one account per entry) and only they get the employee promo; a
// company without entries works as before, its accounts 'Belum terverifikasi HR'. An employee who
// leaves is 'nonaktif', never deleted: their account keeps its history and open orders.
// The CSV import is roster-import.ts; which account an entry belongs to, roster-links.ts.

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
