import crypto from "node:crypto";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import type { Executor } from "../../db/client";
import { companies, sessions, users } from "../../db/schema";
import type { StaffRole } from "~/lib/staff-roles";

const SESSION_DAYS = 30;
/** A bearer token of the JSON API lives as long as a web session; logout or a password reset ends it sooner. */
export const API_TOKEN_DAYS = 30;

export type SessionKind = "web" | "api";

export type SessionUser = {
  id: number;
  fullname: string;
  email: string;
  phoneNo: string;
  nip: string;
  companyName: string;
  verified: boolean;
  resendAvailableAt: Date | null;
  /** The bell's badge (issue 28): read with the session, so no page pays a query of its own for it. */
  unreadNotifications: number;
  /** The staff roles (issue 27); empty for a buyer. Anyone with a role is staff ("operator"). */
  roles: StaffRole[];
  // Staff: this session passed the TOTP second factor (issue 17).
  secondFactorPassed: boolean;
};

/** Issue 17: a staff member's session ends after 30 minutes without a request. */
export const OPERATOR_IDLE_MS = 30 * 60 * 1000;
// The last-seen time is written at most this often (not on every request).
const LAST_SEEN_RESOLUTION_MS = 30 * 1000;

export function hashToken(raw: string) {
  return crypto.createHash("sha256").update(raw).digest("hex");
}

export function randomToken() {
  return crypto.randomBytes(32).toString("base64url");
}

/**
 * Creates a session row and returns the raw id for the cookie, or the API's bearer token (`kind`
 * "api"); only its hash is stored.
 */
export async function createSession(userId: number, kind: SessionKind = "web"): Promise<string> {
  const db = await getDb();
  const raw = randomToken();
  const days = kind === "api" ? API_TOKEN_DAYS : SESSION_DAYS;
  await db.insert(sessions).values({
    idHash: hashToken(raw),
    userId,
    kind,
    expiresAt: new Date(Date.now() + days * 24 * 3600 * 1000),
  });
  return raw;
}

/**
 * The signed-in user for a raw session id (or, with kind "api", a bearer token), or null when
 * unknown, expired, revoked or of the other kind: a cookie's id is no bearer token and vice versa.
 */
export async function getSessionUser(raw: string, kind: SessionKind = "web"): Promise<SessionUser | null> {
  if (typeof raw !== "string" || raw.length > 100) return null;
  const db = await getDb();
  const rows = await db
    .select({
      id: users.id,
      fullname: users.fullname,
      email: users.email,
      phoneNo: users.phoneNo,
      nip: users.nip,
      companyName: companies.name,
      verifiedAt: users.verifiedAt,
      resendAvailableAt: users.resendAvailableAt,
      roles: sql<StaffRole[]>`coalesce((select array_agg(r.role order by r.role) from staff_roles r where r.user_id = ${users.id}), '{}')`,
      unreadNotifications: sql<number>`(select count(*)::int from notifications n where n.user_id = ${users.id} and n.read_at is null)`,
      secondFactorAt: sessions.secondFactorAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(eq(sessions.idHash, hashToken(raw)), eq(sessions.kind, kind), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { verifiedAt, secondFactorAt, lastSeenAt, ...rest } = row;
  const now = Date.now();
  const staff = row.roles.length > 0;
  if (staff) {
    // An operator idle for 30 minutes is signed out (the session is revoked, not just forgotten).
    if (now - lastSeenAt.getTime() > OPERATOR_IDLE_MS) {
      await revokeSession(raw);
      return null;
    }
    if (now - lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
      await db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.idHash, hashToken(raw)));
    }
  }
  return { ...rest, verified: verifiedAt !== null, secondFactorPassed: staff && secondFactorAt !== null };
}

/** Marks this session as having passed the operator's second factor. */
export async function markSecondFactorPassed(raw: string) {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ secondFactorAt: new Date(), lastSeenAt: new Date() })
    .where(and(eq(sessions.idHash, hashToken(raw)), isNull(sessions.revokedAt)));
}

export async function revokeSession(raw: string) {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.idHash, hashToken(raw)), isNull(sessions.revokedAt)));
}

/**
 * Ends every session and API token of a user, except the one given (after a password reset; `tx`
 * when a role change does it in its own transaction).
 */
export async function revokeAllSessions(userId: number, exceptRaw?: string, tx?: Executor) {
  const db = tx ?? (await getDb());
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (exceptRaw) conditions.push(ne(sessions.idHash, hashToken(exceptRaw)));
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions));
}
