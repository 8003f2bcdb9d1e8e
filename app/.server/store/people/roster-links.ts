import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { companies, rosterEntries, users } from "../../db/schema";
import { recordAudit } from "./operators";
import { linkRosterEntry } from "./roster";
import { type LinkRoute, linkRouteFor, nameKey, openLinkRequest, settleLinkRequests } from "./roster-requests";

// Which account a roster entry belongs to (issue 35, the review's "roster squatting"). A roster
// import never links an account by itself: whoever registered first with a company and a NIP could
// be a stranger who typed someone else's NIP, and linking them would give them the employee promo
// and lock the real employee out ('NIP ini sudah terhubung dengan akun lain'). Nor does knowing the
// NIP and the name (issue 45 item 11, decision 0069): registering with a free entry's NIP, or
// 'Ya, Hubungkan' on /konfirmasi-pegawai at the next sign-in (verified account, the roster's name),
// only opens a request (roster-requests.ts), confirmed from the work e-mail or by an operator. An
// operator also links one of the candidate accounts on the roster page ('Hubungkan') and undoes a
// link made by mistake ('Putuskan': the entry is released); links and releases are audited.

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
    await settleLinkRequests(tx, entryId, userId, ["email", "petugas"], "terhubung", operatorId);
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
    await settleLinkRequests(tx, entryId, before.userId, ["terhubung"], "dilepas", operatorId);
    await recordAudit(tx, operatorId, "roster-unlink", {
      detail: `perusahaan ${row.companyId}, NIP ${row.nip}: akun ${before.userId} diputus`,
    });
    return { ok: true as const };
  });
}

export type RosterMatch = { entryId: number; nip: string; companyName: string };

/**
 * The entry the signed-in employee may ask for at sign-in: their company has a roster, their account
 * is verified, on no entry and without an open request, and a free active entry has their NIP and
 * their name and was never asked for by this account (a refused or released request is not offered
 * again). Null otherwise.
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
           and not exists (select 1 from roster_link_requests q
                            where q.user_id = u.id and (q.entry_id = r.id or q.state in ('email', 'petugas')))
         limit 1`,
  );
  return row ?? null;
}

/**
 * 'Ya, Hubungkan': the employee asks for the entry `rosterMatchFor` found, checked again; no link
 * yet. Which way it is confirmed, or null when there is nothing to ask for.
 */
export async function requestRosterMatch(userId: number): Promise<LinkRoute | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const match = await rosterMatchFor(userId, tx);
    if (!match) return null;
    const [user] = await tx.select({ fullname: users.fullname }).from(users).where(eq(users.id, userId));
    const route = await linkRouteFor(tx, match.entryId, user!.fullname);
    await openLinkRequest(tx, userId, match.entryId, route);
    return route;
  });
}
