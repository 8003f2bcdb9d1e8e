import crypto from "node:crypto";
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import { getDb } from "../../db/client";
import { otpCodes, users } from "../../db/schema";
import { countSmsSent } from "../../metrics";
import { awaitFirstTry, enqueueMessage } from "../messages";
import { hitRateLimit, RATE_LIMITS } from "../people";

// The one-time code of BRI-CERIA (paylater) (spec §3 OTP, §5 OTP, §8, §9; issue 7): 4 digits sent by
// SMS to the buyer's phone, valid 30 minutes, a new one only after a cooldown, at most 5 tries per 15
// minutes (a rate limit in the database, so it holds across instances). A right code yields a
// secret (the spec's secretId) that creating the paylater order consumes, once.

export const OTP_LENGTH = 4;
export const OTP_VALIDITY_MS = 30 * 60 * 1000;
/** The wait before another code may be sent (decision 0020). */
export const OTP_RESEND_COOLDOWN_MS = 60 * 1000;
/**
 * How long the request waits for the SMS's first try: long enough for the provider's answer (an
 * unknown number is told at once), short enough that an outage only delays the code (the queue
 * keeps trying) and the buyer sees it is on its way.
 */
export const OTP_FIRST_TRY_WAIT_MS = 8_000;

export const OTP_WRONG = "Kode OTP tidak sesuai";
export const PHONE_NOT_REGISTERED = "Nomor Telephone tak terdaftar";
export const OTP_EXPIRED = "Kode OTP sudah kedaluwarsa. Silakan kirim ulang kode.";
export const OTP_NOT_REQUESTED = "Kode OTP belum dikirim. Silakan kirim kode terlebih dahulu.";
export const OTP_PHONE_INVALID = "Nomor HP tidak valid.";
export const OTP_PHONE_NOT_INDONESIAN = "Kode OTP hanya dapat dikirim ke nomor HP Indonesia (+62 atau 08).";
export const OTP_ACCOUNT_NOT_VERIFIED = "Aktivasi akun Anda terlebih dahulu untuk menerima kode OTP.";
export const otpSmsTooMany = (minutes: number) => `Terlalu banyak permintaan kode OTP. Coba lagi dalam ${minutes} menit.`;
export const otpTooManyTries = (minutes: number) => `Terlalu banyak percobaan kode OTP. Coba lagi dalam ${minutes} menit.`;
export const otpResendWait = (seconds: number) => `Kode OTP baru dapat dikirim ulang dalam ${seconds} detik.`;

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
const sha256 = (value: string) => crypto.createHash("sha256").update(value).digest("hex");

/** The code is hashed with a random salt kept beside it ("salt$hash"): the table never holds a code. */
function hashCode(userId: number, code: string, salt = crypto.randomBytes(16).toString("hex")) {
  return `${salt}$${sha256(`${salt}:${userId}:${code}`)}`;
}
function codeMatches(userId: number, code: string, stored: string) {
  const [salt] = stored.split("$");
  if (!salt) return false;
  const a = Buffer.from(hashCode(userId, code, salt));
  const b = Buffer.from(stored);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export type OtpState = { phone: string; sentAt: Date; expiresAt: Date; resendAvailableAt: Date; verified: boolean };

/** The user's current code (when it was sent, until when it is valid, when another may be sent). */
export async function getOtpState(userId: number): Promise<OtpState | null> {
  if (!isId(userId)) return null;
  const db = await getDb();
  const [row] = await db.select().from(otpCodes).where(eq(otpCodes.userId, userId));
  if (!row) return null;
  return {
    phone: row.phone,
    sentAt: row.sentAt,
    expiresAt: row.expiresAt,
    resendAvailableAt: row.resendAvailableAt,
    verified: row.verifiedAt !== null,
  };
}

export type OtpRequestResult =
  | { ok: true; phone: string; expiresAt: Date; resendAvailableAt: Date }
  | {
      ok: false;
      code: "NOT_EXIST" | "COOLDOWN" | "INVALID_PHONE" | "NOT_VERIFIED" | "TOO_MANY";
      message: string;
      resendAvailableAt?: Date;
      retryAfterSeconds?: number;
    };

/**
 * An Indonesian mobile number as the SMS is sent to it (0812…), from +62 812…, 62812… or 0812…;
 * null for any other country (issue 35: SMS pumping sends paid traffic to premium numbers abroad).
 */
export function indonesianMobile(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  const national = digits.startsWith("62") ? `0${digits.slice(2)}` : digits;
  return /^08\d{8,12}$/.test(national) ? national : null;
}

/** Whether the account may be sent a code: verified (an unverified account is anyone's e-mail). */
async function isVerified(userId: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ verifiedAt: users.verifiedAt }).from(users).where(eq(users.id, userId));
  return Boolean(row?.verifiedAt);
}

/** The hourly SMS caps: per account, per client address, for the whole store (RATE_LIMITS.otpSms*). */
async function smsAllowance(userId: number, address: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  for (const [rule, subject] of [
    [RATE_LIMITS.otpSmsAccount, `user:${userId}`],
    [RATE_LIMITS.otpSmsAddress, address],
    [RATE_LIMITS.otpSmsGlobal, "all"],
  ] as const) {
    const limited = await hitRateLimit(rule, subject);
    if (!limited.allowed) return limited;
  }
  return { allowed: true, retryAfterSeconds: 0 };
}

/**
 * Sends a new 4-digit code to `phone` (replacing the user's earlier one) unless the cooldown of the
 * last one is still running. The claim is one conditional upsert, so two quick presses send one SMS.
 * In the sandbox a number ending in 0000 answers NOT_EXIST: 'Nomor Telephone tak terdaftar'.
 * Only to a verified account, only to an Indonesian number, within the hourly caps per account,
 * per client `address` and for the store (issue 35: SMS pumping); the caller checks that a
 * BRI-CERIA payment is open (the payment screens, the API's otp/request).
 */
export async function requestOtp(userId: number, phone: string, now = new Date(), address = "local"): Promise<OtpRequestResult> {
  const raw = typeof phone === "string" ? phone.replace(/\D/g, "") : "";
  if (!isId(userId) || raw.length < 10 || raw.length > 15) return { ok: false, code: "INVALID_PHONE", message: OTP_PHONE_INVALID };
  // Kept as given (the order's buyer phone is compared with it when the secret is used).
  const digits = raw;
  if (!indonesianMobile(raw)) return { ok: false, code: "INVALID_PHONE", message: OTP_PHONE_NOT_INDONESIAN };
  if (!(await isVerified(userId))) return { ok: false, code: "NOT_VERIFIED", message: OTP_ACCOUNT_NOT_VERIFIED };
  const db = await getDb();
  const code = String(crypto.randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, "0");
  const expiresAt = new Date(now.getTime() + OTP_VALIDITY_MS);
  const resendAvailableAt = new Date(now.getTime() + OTP_RESEND_COOLDOWN_MS);
  const fresh = {
    phone: digits,
    codeHash: hashCode(userId, code),
    expiresAt,
    sentAt: now,
    resendAvailableAt,
    verifiedAt: null,
    secretHash: null,
    consumedAt: null,
  };
  // Counted before the claim: a refused cooldown press costs nothing, but a cap is never passed by racing.
  const cooling = await getOtpState(userId);
  if (!cooling || cooling.resendAvailableAt <= now) {
    const allowance = await smsAllowance(userId, address);
    if (!allowance.allowed)
      return {
        ok: false,
        code: "TOO_MANY",
        message: otpSmsTooMany(Math.ceil(allowance.retryAfterSeconds / 60)),
        retryAfterSeconds: allowance.retryAfterSeconds,
      };
  }
  // The claim and the SMS's job in one transaction (issue 28): a code is never kept without its SMS.
  const jobId = await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(otpCodes)
      .values({ userId, ...fresh })
      .onConflictDoUpdate({ target: otpCodes.userId, set: fresh, setWhere: lte(otpCodes.resendAvailableAt, now) })
      .returning({ userId: otpCodes.userId });
    if (!claimed.length) return null;
    return enqueueMessage(tx, "sms", {
      kind: "sms",
      phone: digits,
      text: `Kode OTP Toko Pegawai PLN Anda: ${code}. Berlaku 30 menit. Jangan berikan kode ini kepada siapa pun.`,
    });
  });
  if (jobId) countSmsSent("otp");
  if (!jobId) {
    const state = await getOtpState(userId);
    const wait = Math.max(1, Math.ceil(((state?.resendAvailableAt.getTime() ?? now.getTime()) - now.getTime()) / 1000));
    return { ok: false, code: "COOLDOWN", message: otpResendWait(wait), resendAvailableAt: state?.resendAvailableAt };
  }
  const first = await awaitFirstTry("sms", jobId, OTP_FIRST_TRY_WAIT_MS);
  if (first.done && "refused" in first.output) {
    // No usable code stays behind, and the number may be corrected and tried again at once.
    await db.delete(otpCodes).where(eq(otpCodes.userId, userId));
    return { ok: false, code: "NOT_EXIST", message: PHONE_NOT_REGISTERED };
  }
  // Sent, or still being tried (a provider outage): the code is on its way either way.
  return { ok: true, phone: digits, expiresAt, resendAvailableAt };
}

export type OtpValidateResult = { ok: true; secretId: string } | { ok: false; message: string; retryAfterSeconds?: number };

/**
 * Checks a code. Every try counts against RATE_LIMITS.otp (5 per 15 minutes per user) before the
 * code is looked at, so a right guess after the fifth try is refused too. Right: the secret to
 * create the paylater order with (returned once; only its hash is kept).
 */
export async function validateOtp(userId: number, code: string, now = new Date()): Promise<OtpValidateResult> {
  if (!isId(userId)) return { ok: false, message: OTP_WRONG };
  const limited = await hitRateLimit(RATE_LIMITS.otp, `user:${userId}`);
  if (!limited.allowed)
    return { ok: false, message: otpTooManyTries(Math.ceil(limited.retryAfterSeconds / 60)), retryAfterSeconds: limited.retryAfterSeconds };
  const db = await getDb();
  const [row] = await db.select().from(otpCodes).where(eq(otpCodes.userId, userId));
  if (!row) return { ok: false, message: OTP_NOT_REQUESTED };
  const typed = typeof code === "string" ? code.trim() : "";
  if (!/^\d{4}$/.test(typed) || row.verifiedAt || !codeMatches(userId, typed, row.codeHash)) return { ok: false, message: OTP_WRONG };
  if (row.expiresAt <= now) return { ok: false, message: OTP_EXPIRED };
  const secretId = crypto.randomBytes(24).toString("base64url");
  // Conditional: of two concurrent right answers only one gets a secret.
  const verified = await db
    .update(otpCodes)
    .set({ verifiedAt: now, secretHash: sha256(secretId) })
    .where(and(eq(otpCodes.userId, userId), eq(otpCodes.codeHash, row.codeHash), isNull(otpCodes.verifiedAt)))
    .returning({ userId: otpCodes.userId });
  if (!verified.length) return { ok: false, message: OTP_WRONG };
  return { ok: true, secretId };
}

/**
 * Uses up a validated code's secret for the paylater order (true once; false for a wrong, used or
 * stale one — older than the code's 30 minutes). The phone must be the one the code was sent to.
 */
export async function consumeOtpSecret(userId: number, secretId: string, phone: string, now = new Date()): Promise<boolean> {
  if (!isId(userId) || typeof secretId !== "string" || secretId.length < 16 || secretId.length > 100) return false;
  const db = await getDb();
  const used = await db
    .update(otpCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(otpCodes.userId, userId),
        eq(otpCodes.secretHash, sha256(secretId)),
        eq(otpCodes.phone, phone.replace(/\D/g, "")),
        isNull(otpCodes.consumedAt),
        gt(otpCodes.expiresAt, now),
      ),
    )
    .returning({ userId: otpCodes.userId });
  return used.length === 1;
}
