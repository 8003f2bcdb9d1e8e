import crypto from "node:crypto";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { getDb, type Executor } from "../../db/client";
import { operatorAudit, operatorFactors, operatorRecoveryCodes } from "../../db/schema";
import { giveBackRateLimitHit, hitRateLimit, RATE_LIMITS, resetRateLimit } from "./rate-limits";
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

const recoveryHash = (code: string) =>
  hashToken(
    code
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, ""),
  );

/**
 * Confirms the enrolment with the first code from the app: the factor becomes active and ten new
 * recovery codes are made (returned once, in plain text, for the page to show; only hashes stay).
 */
export async function confirmEnrolment(
  userId: number,
  email: string,
  code: string,
): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; message: string }> {
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
export async function verifySecondFactor(
  userId: number,
  email: string,
  input: string,
): Promise<{ ok: true; usedRecoveryCode: boolean } | { ok: false; message: string }> {
  const code = input.trim();
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (await acceptTotp(tx, userId, email, code, true)) return { ok: true as const, usedRecoveryCode: false };
    if (code.length >= 10 && code.length <= 20) {
      const [factor] = await tx
        .select({ confirmedAt: operatorFactors.confirmedAt })
        .from(operatorFactors)
        .where(eq(operatorFactors.userId, userId));
      if (factor?.confirmedAt) {
        const spent = await tx
          .update(operatorRecoveryCodes)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(operatorRecoveryCodes.userId, userId),
              eq(operatorRecoveryCodes.codeHash, recoveryHash(code)),
              isNull(operatorRecoveryCodes.usedAt),
            ),
          )
          .returning({ id: operatorRecoveryCodes.id });
        if (spent.length) return { ok: true as const, usedRecoveryCode: true };
      }
    }
    return { ok: false as const, message: WRONG_CODE };
  });
}

// ————————————————————————————————————————————— wrong-code limits (issue 25)

/**
 * An address as the wrong-code limits count it: IPv4 as it is, IPv6 as its /64 (one household, one
 * phone on a mobile network: an attacker gets no fresh count per address of the same prefix, and
 * an operator's privacy addresses stay one known address).
 */
export function limitAddress(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Known addresses are remembered this long (a passed second factor from there). */
const KNOWN_ADDRESS_DAYS = 90;

/** Whether the operator passed the second factor from `address` (limitAddress) in the last 90 days. */
async function passedFrom(operatorId: number, address: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: operatorAudit.id })
    .from(operatorAudit)
    .where(
      and(
        eq(operatorAudit.operatorId, operatorId),
        eq(operatorAudit.address, address),
        inArray(operatorAudit.action, ["2fa-passed", "2fa-recovery-code"]),
        gt(operatorAudit.createdAt, sql`now() - ${`${KNOWN_ADDRESS_DAYS} days`}::interval`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Counts an attempt at the second factor from `address` BEFORE its code is looked at, and says
 * whether it may be checked. Each count is one atomic upsert (hitRateLimit) whose answer decides:
 * parallel guesses on a PostgreSQL pool each get their own number, so no more than the limit are
 * ever checked (issue 35: check-then-count let them slip past). Attempts count twice: per account
 * and address (5 per 15 minutes: that address is refused), and per account from every address (10
 * per 15 minutes: then only the addresses the operator passed from before may still try). Someone
 * with an operator's password thus cannot lock the operator out from elsewhere, and guesses from
 * any number of addresses stay bounded by the account's count.
 */
export async function claimSecondFactorAttempt(operatorId: number, address: string): Promise<{ retryAfterSeconds: number } | null> {
  const key = limitAddress(address);
  const fromHere = await hitRateLimit(RATE_LIMITS.secondFactorAddress, `user:${operatorId}:${key}`);
  if (!fromHere.allowed) return fromHere;
  if (await passedFrom(operatorId, key)) return null;
  const overall = await hitRateLimit(RATE_LIMITS.secondFactor, `user:${operatorId}`);
  return overall.allowed ? null : overall;
}

/**
 * The right code from `address`: that address's count starts again, and the account's count gives
 * back this one attempt (it was counted before the check). Only that one: the operator passing must
 * not give someone else's guesses a fresh allowance.
 */
export async function clearWrongSecondFactors(operatorId: number, address: string): Promise<void> {
  await resetRateLimit(RATE_LIMITS.secondFactorAddress, `user:${operatorId}:${limitAddress(address)}`);
  await giveBackRateLimitHit(RATE_LIMITS.secondFactor, `user:${operatorId}`);
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
  | "account-erased"
  | "2fa-enrolled"
  | "2fa-reset"
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
  | "roster-link"
  | "roster-unlink"
  | "roster-link-refused"
  | "account-employment"
  | "staff-roles"
  | "settings"
  | "message-resent"
  | "message-resend-refused"
  | "refund-transferred"
  | "refund-failed"
  | "refund-gateway"
  | "refund-gateway-refused"
  | "refund-refused"
  | "refund-funds-confirmed"
  | "refund-export"
  | "overpayment-recorded"
  | "incident-resolved";

/** One audit row; inside the caller's transaction when given one (a decision and its record commit together). */
export async function recordAudit(
  db: Executor | null,
  operatorId: number,
  action: AuditAction,
  details: { orderId?: number; withdrawalId?: number; detail?: string; address?: string } = {},
): Promise<void> {
  const executor = db ?? (await getDb());
  await executor.insert(operatorAudit).values({
    operatorId,
    action,
    orderId: details.orderId ?? null,
    withdrawalId: details.withdrawalId ?? null,
    detail: details.detail?.slice(0, 500) ?? null,
    address: details.address === undefined ? null : limitAddress(details.address),
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
