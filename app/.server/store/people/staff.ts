import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { companies, operatorFactors, operatorRecoveryCodes, staffRoles, users } from "../../db/schema";
import { STAFF_ROLES, type StaffRole } from "~/lib/staff-roles";
import { log } from "../../log";
import { recordAudit } from "./operators";
import { revokeAllSessions } from "./sessions";

// Staff and their roles (issue 27, DESIGN §6): never self-service; granted and revoked by an admin
// in /ops/staff or by the ops CLI. Any change to a person's roles ends all their sessions in the
// same transaction (issue 25 item 6): the next sign-in passes the second factor again, so a revoked
// and re-granted role never revives an old cookie.

/** Who changed a role: `operator:<id>` (the back office) or `ops` (the CLI). */
export type StaffActor = string;

const normaliseEmail = (email: string) => email.trim().toLowerCase();

async function userIdByEmail(email: string): Promise<number | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
  return row?.id ?? null;
}

/** The roles a person holds, in STAFF_ROLES order. */
export async function rolesOf(userId: number): Promise<StaffRole[]> {
  const db = await getDb();
  const rows = await db.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId));
  const held = new Set(rows.map((r) => r.role));
  return STAFF_ROLES.filter((role) => held.has(role));
}

/**
 * Sets exactly `roles` for the person (adds the missing, removes the others) and, when anything
 * changed, ends their sessions, all in one transaction. Returns whether anything changed.
 */
export async function setStaffRoles(userId: number, roles: readonly StaffRole[], actor: StaffActor): Promise<boolean> {
  const db = await getDb();
  return db.transaction((tx) => applyRoles(tx, userId, roles, actor));
}

async function applyRoles(tx: Executor, userId: number, roles: readonly StaffRole[], actor: StaffActor): Promise<boolean> {
  const wanted = STAFF_ROLES.filter((role) => roles.includes(role));
  const current = (await tx.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId)).for("update")).map(
    (r) => r.role,
  );
  const removed = current.filter((role) => !wanted.includes(role));
  const added = wanted.filter((role) => !current.includes(role));
  if (removed.length === 0 && added.length === 0) return false;
  if (removed.length) await tx.delete(staffRoles).where(and(eq(staffRoles.userId, userId), inArray(staffRoles.role, removed)));
  if (added.length)
    await tx
      .insert(staffRoles)
      .values(added.map((role) => ({ userId, role, grantedBy: actor.slice(0, 100) })))
      .onConflictDoNothing();
  await revokeAllSessions(userId, undefined, tx);
  log.info({ userId, added, removed, actor }, "staff: roles changed, sessions ended");
  return true;
}

export const LAST_ADMIN = "Admin terakhir tidak dapat dicabut perannya. Jadikan orang lain Admin terlebih dahulu.";

/**
 * /ops/staff's change of a person's roles (admins only): as setStaffRoles, audited, and never
 * leaving the store without an admin. The admin rows are locked first, so two admins removing each
 * other at once cannot both succeed.
 */
export async function setStaffRolesFromOps(
  operatorId: number,
  userId: number,
  roles: readonly StaffRole[],
): Promise<{ ok: true; changed: boolean } | { ok: false; message: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const admins = (await tx.select({ userId: staffRoles.userId }).from(staffRoles).where(eq(staffRoles.role, "admin")).for("update")).map(
      (r) => r.userId,
    );
    if (admins.includes(userId) && !roles.includes("admin") && admins.length <= 1) return { ok: false as const, message: LAST_ADMIN };
    const held = (await tx.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId))).map((r) => r.role);
    const before = STAFF_ROLES.filter((r) => held.includes(r));
    const changed = await applyRoles(tx, userId, roles, `operator:${operatorId}`);
    if (changed) {
      await recordAudit(tx, operatorId, "staff-roles", {
        detail: `akun ${userId}: ${before.join(",") || "-"} → ${STAFF_ROLES.filter((r) => roles.includes(r)).join(",") || "-"}`,
      });
    }
    return { ok: true as const, changed };
  });
}

/** The account with that e-mail (for 'Tambah Staf'), or null. */
export async function findUserByEmail(email: string): Promise<{ id: number } | null> {
  const id = await userIdByEmail(email);
  return id === null ? null : { id };
}

/** Adds `roles` to what the person holds (CLI `users:grant`); false when no account has that e-mail. */
export async function grantRolesByEmail(email: string, roles: readonly StaffRole[], actor: StaffActor): Promise<boolean> {
  const userId = await userIdByEmail(email);
  if (userId === null) return false;
  await setStaffRoles(userId, [...new Set([...(await rolesOf(userId)), ...roles])], actor);
  return true;
}

/** Takes `roles` away (CLI `users:revoke`); false when no account has that e-mail. */
export async function revokeRolesByEmail(email: string, roles: readonly StaffRole[], actor: StaffActor): Promise<boolean> {
  const userId = await userIdByEmail(email);
  if (userId === null) return false;
  await setStaffRoles(
    userId,
    (await rolesOf(userId)).filter((role) => !roles.includes(role)),
    actor,
  );
  return true;
}

/**
 * `users:grant-operator` (the first admin of a new store: 'admin') / `users:revoke-operator` (every
 * role taken away); false when no account has that e-mail.
 */
export async function setOperatorRole(email: string, operator: boolean): Promise<boolean> {
  return operator ? grantRolesByEmail(email, ["admin"], "ops") : revokeRolesByEmail(email, STAFF_ROLES, "ops");
}

/**
 * Where a staff member stands (issue 38): 'Belum aktivasi' (the e-mail not verified: /ops is
 * refused), 'Belum 2FA' (no confirmed second factor yet: the next sign-in enrols one), 'Aktif'.
 */
export type StaffStanding = "Aktif" | "Belum aktivasi" | "Belum 2FA";
export type StaffMember = {
  id: number;
  email: string;
  fullname: string;
  companyName: string;
  roles: StaffRole[];
  standing: StaffStanding;
};

/** Everyone holding a role, by e-mail, with their standing. */
export async function listStaff(): Promise<StaffMember[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      fullname: users.fullname,
      companyName: companies.name,
      role: staffRoles.role,
      verifiedAt: users.verifiedAt,
      factorConfirmedAt: operatorFactors.confirmedAt,
    })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(operatorFactors, eq(operatorFactors.userId, users.id))
    .orderBy(asc(users.email));
  const byId = new Map<number, StaffMember>();
  for (const { role, verifiedAt, factorConfirmedAt, ...person } of rows) {
    const standing: StaffStanding = !verifiedAt ? "Belum aktivasi" : !factorConfirmedAt ? "Belum 2FA" : "Aktif";
    const member = byId.get(person.id) ?? { ...person, standing, roles: [] };
    member.roles.push(role);
    byId.set(person.id, member);
  }
  return [...byId.values()].map((m) => ({ ...m, roles: STAFF_ROLES.filter((r) => m.roles.includes(r)) }));
}

/** How many people hold 'admin' (the back office never removes the last one; the CLI may). */
export async function countAdmins(): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffRoles)
    .where(eq(staffRoles.role, "admin"));
  return row?.n ?? 0;
}

export const NOT_STAFF = "Orang ini bukan staf.";
export const OWN_FACTOR = "Verifikasi dua langkah Anda sendiri tidak dapat diatur ulang di sini.";
export const NO_FACTOR = "Orang ini belum mendaftarkan verifikasi dua langkah: ia mendaftarkannya saat masuk berikutnya.";

/**
 * An admin resets a colleague's second factor (a lost phone): the factor and the recovery codes go,
 * the person's sessions end, all in one transaction with its audit row; their next sign-in enrols
 * a new factor at /ops/2fa. Never one's own (another admin does it, or the CLI).
 */
export async function resetSecondFactorFromOps(operatorId: number, userId: number): Promise<{ ok: true } | { ok: false; message: string }> {
  if (userId === operatorId) return { ok: false, message: OWN_FACTOR };
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [held] = await tx.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId)).limit(1);
    if (!held) return { ok: false as const, message: NOT_STAFF };
    // Nothing to reset before an enrolment is confirmed (the next sign-in enrols): no audit row
    // claiming a reset, no sessions ended for nothing (issue 38).
    const [factor] = await tx
      .select({ confirmedAt: operatorFactors.confirmedAt })
      .from(operatorFactors)
      .where(eq(operatorFactors.userId, userId))
      .limit(1);
    if (!factor?.confirmedAt) return { ok: false as const, message: NO_FACTOR };
    await tx.delete(operatorFactors).where(eq(operatorFactors.userId, userId));
    await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
    await revokeAllSessions(userId, undefined, tx);
    await recordAudit(tx, operatorId, "2fa-reset", { detail: `akun ${userId}: verifikasi dua langkah diatur ulang` });
    log.info({ userId, operatorId }, "staff: second factor reset, sessions ended");
    return { ok: true as const };
  });
}
