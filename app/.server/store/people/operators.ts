import crypto from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { getDb, type Executor } from "../../db/client";
import { operatorAudit, operatorFactors, operatorRecoveryCodes } from "../../db/schema";
import { hashToken } from "./sessions";

// Operators (issue 17), that is staff of any role (staff.ts): their
// TOTP second factor (RFC 6238: 6 digits, 30 s, SHA-1 as every authenticator app reads it), the ten
// one-time recovery codes, and the audit of what they did.

export const TOTP_ISSUER = "Toko Pegawai PLN";
export const RECOVERY_CODE_COUNT = 10;
export const WRONG_CODE = "Kode salah atau sudah kedaluwarsa.";

function totpFor(secret: string, email: string) {
  return new TOTP({ issuer: TOTP_ISSUER, label: email, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

export type FactorState = { enrolled: false; secret: string; uri: string } | { enrolled: true };

/**
 * The operator's factor: enrolled, or the enrolment in progress with its secret and otpauth:// URI
 * (made on first call and kept, so a reload shows the same QR code until a code confirms it).
 */
export async function getFactorState(userId: number, email: string): Promise<FactorState> {
  const db = await getDb();
  await db
    .insert(operatorFactors)
    .values({ userId, secret: new Secret({ size: 20 }).base32 })
    .onConflictDoNothing({ target: operatorFactors.userId });
  const [factor] = await db.select().from(operatorFactors).where(eq(operatorFactors.userId, userId));
  if (factor!.confirmedAt) return { enrolled: true };
  return { enrolled: false, secret: factor!.secret, uri: totpFor(factor!.secret, email).toString() };
}

/**
 * Accepts a 6-digit code for the stored secret (one step of clock drift either way), once: the
 * step is remembered and an older or equal step is refused, so an overheard code cannot be replayed.
 */
async function acceptTotp(tx: Executor, userId: number, email: string, code: string, mustBeEnrolled: boolean): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const [factor] = await tx.select().from(operatorFactors).where(eq(operatorFactors.userId, userId)).for("update");
  if (!factor || (factor.confirmedAt !== null) !== mustBeEnrolled) return false;
  const now = Date.now();
  const delta = totpFor(factor.secret, email).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return false;
  const step = TOTP.counter({ period: 30, timestamp: now }) + delta;
  if (factor.lastUsedStep !== null && step <= factor.lastUsedStep) return false;
  await tx
    .update(operatorFactors)
    .set({ lastUsedStep: step, confirmedAt: factor.confirmedAt ?? new Date() })
    .where(eq(operatorFactors.userId, userId));
  return true;
}

/** 10 characters from an alphabet without look-alikes, shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const chars = Array.from(crypto.randomBytes(10), (b) => alphabet[b % alphabet.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const recoveryHash = (code: string) => hashToken(code.trim().toLowerCase().replace(/[^a-z0-9]/g, ""));

/**
 * Confirms the enrolment with the first code from the app: the factor becomes active and ten new
 * recovery codes are made (returned once, in plain text, for the page to show; only hashes stay).
 */
export async function confirmEnrolment(userId: number, email: string, code: string): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; message: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (!(await acceptTotp(tx, userId, email, code.trim(), false))) return { ok: false as const, message: WRONG_CODE };
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
    await tx.insert(operatorRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryHash(c) })));
    await recordAudit(tx, userId, "2fa-enrolled");
    return { ok: true as const, recoveryCodes: codes };
  });
}

/** The sign-in's second step: a code from the app, or one unused recovery code (then spent). */
export async function verifySecondFactor(userId: number, email: string, input: string): Promise<{ ok: true; usedRecoveryCode: boolean } | { ok: false; message: string }> {
  const code = input.trim();
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (await acceptTotp(tx, userId, email, code, true)) return { ok: true as const, usedRecoveryCode: false };
    if (code.length >= 10 && code.length <= 20) {
      const [factor] = await tx.select({ confirmedAt: operatorFactors.confirmedAt }).from(operatorFactors).where(eq(operatorFactors.userId, userId));
      if (factor?.confirmedAt) {
        const spent = await tx
          .update(operatorRecoveryCodes)
          .set({ usedAt: new Date() })
          .where(and(eq(operatorRecoveryCodes.userId, userId), eq(operatorRecoveryCodes.codeHash, recoveryHash(code)), isNull(operatorRecoveryCodes.usedAt)))
          .returning({ id: operatorRecoveryCodes.id });
        if (spent.length) return { ok: true as const, usedRecoveryCode: true };
      }
    }
    return { ok: false as const, message: WRONG_CODE };
  });
}

export async function unusedRecoveryCodes(userId: number): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.userId, userId), isNull(operatorRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export type AuditAction =
  | "2fa-enrolled"
  | "2fa-passed"
  | "2fa-recovery-code"
  | "2fa-wrong-code"
  | "2fa-rate-limited"
  | "order-decision"
  | "order-decision-refused"
  | "withdrawal-settled"
  | "withdrawal-refused"
  | "export"
  | "roster-import"
  | "roster-edit"
  | "account-employment"
  | "staff-roles"
  | "settings"
  | "message-resent"
  | "message-resend-refused";

/** One audit row; inside the caller's transaction when given one (a decision and its record commit together). */
export async function recordAudit(
  db: Executor | null,
  operatorId: number,
  action: AuditAction,
  details: { orderId?: number; withdrawalId?: number; detail?: string } = {},
): Promise<void> {
  const executor = db ?? (await getDb());
  await executor.insert(operatorAudit).values({
    operatorId,
    action,
    orderId: details.orderId ?? null,
    withdrawalId: details.withdrawalId ?? null,
    detail: details.detail?.slice(0, 500) ?? null,
  });
}

export async function listAudit(operatorId?: number) {
  const db = await getDb();
  return db
    .select()
    .from(operatorAudit)
    .where(operatorId === undefined ? undefined : eq(operatorAudit.operatorId, operatorId))
    .orderBy(operatorAudit.id);
}
