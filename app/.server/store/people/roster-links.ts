import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { companies, rosterEntries, users } from "../../db/schema";
import { recordAudit } from "./operators";
import { linkRosterEntry } from "./roster";

// Which account a roster entry belongs to (issue 35, the review's "roster squatting"). A roster
// import never links an account by itself: whoever registered first with a company and a NIP could
// be a stranger who typed someone else's NIP, and linking them would give them the employee promo
// and lock the real employee out ('NIP ini sudah terhubung dengan akun lain'). An entry is linked
//   - at registration (the entry exists and is free: roster.ts checkRosterForRegistration),
//   - by an operator who picks one of the candidate accounts on the roster page ('Hubungkan'),
//   - by the employee on their next sign-in, when their verified account's name is the roster's
//     ('Ya, Hubungkan' on /konfirmasi-pegawai).
// An operator can undo a link made by mistake ('Putuskan'); links and unlinks are audited.

/** An account registered with the entry's company and NIP (the NIP as typed, trimmed). */
const registeredWithEntry = and(eq(users.companyId, rosterEntries.companyId), eq(sql`trim(${users.nip})`, rosterEntries.nip));
/** The account is linked to no entry (an account holds at most one). */
const onNoEntry = (userId: typeof users.id) => sql`not exists (select 1 from roster_entries r where r.user_id = ${userId})`;

export type RosterCandidate = { entryId: number; userId: number; email: string; verified: boolean };

/** Accounts that registered with an unlinked entry's company and NIP and are on no entry: who 'Hubungkan' may pick. */
export async function rosterCandidates(entryIds: readonly number[]): Promise<RosterCandidate[]> {
  if (!entryIds.length) return [];
  const db = await getDb();
  return db
    .select({ entryId: rosterEntries.id, userId: users.id, email: users.email, verified: sql<boolean>`${users.verifiedAt} is not null` })
    .from(rosterEntries)
    .innerJoin(users, registeredWithEntry)
    .where(and(inArray(rosterEntries.id, [...entryIds]), isNull(rosterEntries.userId), onNoEntry(users.id)))
    .orderBy(users.id);
}

export const ROSTER_LINK_REFUSED = "Akun ini tidak dapat dihubungkan: data pegawai atau akunnya sudah berubah. Muat ulang halaman.";

/** 'Hubungkan': the operator links a candidate account to a free active entry of its company and NIP. */
export async function linkRosterAccount(
  operatorId: number,
  entryId: number,
  userId: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [candidate] = await tx
      .select({ companyId: rosterEntries.companyId, nip: rosterEntries.nip })
      .from(rosterEntries)
      .innerJoin(users, and(eq(users.id, userId), registeredWithEntry))
      .where(and(eq(rosterEntries.id, entryId), onNoEntry(users.id)));
    if (!candidate || !(await linkRosterEntry(tx, entryId, userId))) return { ok: false as const, message: ROSTER_LINK_REFUSED };
    await recordAudit(tx, operatorId, "roster-link", { detail: `perusahaan ${candidate.companyId}, NIP ${candidate.nip}: akun ${userId}` });
    return { ok: true as const };
  });
}

/** 'Putuskan': the entry is free again (the account loses the employee standing until linked again); audited. */
export async function unlinkRosterAccount(operatorId: number, entryId: number): Promise<{ ok: true } | { ok: false; message: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ userId: rosterEntries.userId })
      .from(rosterEntries)
      .where(and(eq(rosterEntries.id, entryId), isNotNull(rosterEntries.userId)))
      .for("update");
    if (!before?.userId) return { ok: false as const, message: ROSTER_LINK_REFUSED };
    const [row] = await tx
      .update(rosterEntries)
      .set({ userId: null, updatedAt: new Date() })
      .where(and(eq(rosterEntries.id, entryId), eq(rosterEntries.userId, before.userId)))
      .returning({ companyId: rosterEntries.companyId, nip: rosterEntries.nip });
    if (!row) return { ok: false as const, message: ROSTER_LINK_REFUSED };
    await recordAudit(tx, operatorId, "roster-unlink", {
      detail: `perusahaan ${row.companyId}, NIP ${row.nip}: akun ${before.userId} diputus`,
    });
    return { ok: true as const };
  });
}

export type RosterMatch = { entryId: number; nip: string; companyName: string };

/** Names compared as people write them: case, spaces and punctuation aside. */
const nameKey = (column: SQL) => sql`regexp_replace(lower(${column}), '[^a-z0-9]', '', 'g')`;

/**
 * The entry the signed-in employee may confirm as theirs: their company has a roster, their account
 * is verified and on no entry, and a free active entry has their NIP and their name. Null otherwise.
 */
export async function rosterMatchFor(userId: number, db?: Executor): Promise<RosterMatch | null> {
  const [row] = await queryRows<RosterMatch>(
    db ?? (await getDb()),
    sql`select r.id as "entryId", r.nip, c.name as "companyName"
          from users u
          join roster_entries r on r.company_id = u.company_id and r.nip = trim(u.nip)
          join ${companies} c on c.id = r.company_id
         where u.id = ${userId} and u.verified_at is not null
           and r.status = 'aktif' and r.user_id is null
           and ${nameKey(sql`r.name`)} = ${nameKey(sql`u.fullname`)}
           and not exists (select 1 from roster_entries o where o.user_id = u.id)
         limit 1`,
  );
  return row ?? null;
}

/** 'Ya, Hubungkan': the employee links their account to the entry `rosterMatchFor` found, checked again. */
export async function confirmRosterMatch(userId: number): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const match = await rosterMatchFor(userId, tx);
    return match ? linkRosterEntry(tx, match.entryId, userId) : false;
  });
}
