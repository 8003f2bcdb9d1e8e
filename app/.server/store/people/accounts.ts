import { hash, verify } from "@node-rs/argon2";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { accountTokens, companies, users } from "../../db/schema";
import { env } from "../../env";
import { defineMail, enqueueMessage, renderEmail } from "../messages";
import { checkRosterForRegistration } from "./roster";
import { type LinkRoute, linkRouteFor, openLinkRequest } from "./roster-requests";
import { hashToken, randomToken, revokeAllSessions } from "./sessions";

/** Waiting time between two verification e-mails (spec §9). */
export const RESEND_WAIT_MS = 60 * 60 * 1000;
const VERIFY_LINK_HOURS = 72;
const RESET_LINK_HOURS = 1;

// Argon2id with the library's defaults (memory 19 MiB, 2 passes): OWASP's baseline.
const hashPassword = (password: string) => hash(password);

// Checked when the e-mail is unknown, so both answers take the same time.
let dummyHash: Promise<string> | undefined;

export type Result<T = undefined> =
  ({ ok: true } & (T extends undefined ? unknown : { value: T })) | { ok: false; message: string; field?: string };

/** The companies offered at registration (hidden ones are not). */
export async function listCompanies() {
  const db = await getDb();
  return db.select().from(companies).where(eq(companies.hidden, false)).orderBy(asc(companies.id));
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The part of the e-mail before '@' (spec §3: username derived from the e-mail). */
export function usernameFromEmail(email: string) {
  return normaliseEmail(email).split("@")[0] ?? "";
}

export type RegisterInput = { fullname: string; phoneNo: string; nip: string; companyId: number; email: string; password: string };

/**
 * Creates an unverified account and queues its activation e-mail. Where the company has a roster,
 * the NIP must be an active entry not linked yet (else an error on `nip`), and the new account asks
 * for it in the same transaction: no link yet (decision 0069), `rosterLink` says how it is confirmed
 * (by the work e-mail or by an operator). For an e-mail that has an account
 * already, nothing is created: that address gets a "you already have an account" e-mail instead and
 * the caller answers exactly as for a new account (`userId: null`), so registering does not tell
 * who has an account (issue 11). Both paths hash the password: they take the same time.
 */
export async function registerUser(input: RegisterInput): Promise<Result<{ userId: number | null; rosterLink: LinkRoute | null }>> {
  const db = await getDb();
  const company = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.id, input.companyId), eq(companies.hidden, false)))
    .limit(1);
  if (!company.length) return { ok: false, field: "companyId", message: "Perusahaan tidak boleh kosong." };
  const email = normaliseEmail(input.email);
  const fullname = input.fullname.trim();
  const nip = input.nip.trim();
  const passwordHash = await hashPassword(input.password);
  // Where the company has loaded its roster, only its active employees register, one account each.
  const roster = await checkRosterForRegistration(db, input.companyId, nip);
  if (!roster.ok) return roster;
  // Worked out for both answers (a new account, an e-mail that has one): they must read the same.
  const rosterLink = roster.entryId === null ? null : await linkRouteFor(db, roster.entryId, fullname);
  const created = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(users)
      .values({
        fullname,
        username: usernameFromEmail(email),
        email,
        phoneNo: input.phoneNo,
        nip,
        companyId: input.companyId,
        passwordHash,
        // No wait yet: spec §4 starts the hour after a resend, so 'Kirim Ulang' is offered at once.
        resendAvailableAt: null,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const user = inserted[0];
    if (user && roster.entryId !== null && rosterLink) await openLinkRequest(tx, user.id, roster.entryId, rosterLink);
    // The e-mail is a job of the mail queue (issue 28), rendered when it is sent, created in this
    // transaction: both answers create one, and a crash never leaves an account without its e-mail.
    if (user) await enqueueMessage(tx, "mail", { kind: "verification", userId: user.id });
    else await enqueueMessage(tx, "mail", { kind: "already-registered", email });
    return user ?? null;
  });
  return { ok: true, value: { userId: created?.id ?? null, rosterLink } };
}

defineMail("already-registered", async (data) => {
  const db = await getDb();
  const [user] = await db
    .select({ email: users.email, fullname: users.fullname })
    .from(users)
    .where(eq(sql`lower(${users.email})`, String(data.email)))
    .limit(1);
  if (!user) return null;
  return renderEmail({
    to: user.email,
    subject: "Email Anda Sudah Terdaftar di Toko Pegawai PLN",
    greeting: `Halo ${user.fullname},`,
    lines: [
      "Seseorang (mungkin Anda) mencoba mendaftar di Toko Pegawai PLN dengan email ini, padahal email ini sudah memiliki akun.",
      "Silakan login dengan akun Anda. Jika lupa kata sandi, pilih 'Lupa Kata Sandi?' di halaman login.",
    ],
    button: { label: "Login", link: `${env().appUrl}/login` },
    footer: "Jika bukan Anda yang mencoba mendaftar, abaikan e-mail ini: akun Anda tidak berubah.",
  });
});

async function issueToken(userId: number, purpose: "verify" | "reset", hours: number) {
  const db = await getDb();
  const raw = randomToken();
  await db
    .insert(accountTokens)
    .values({ userId, purpose, tokenHash: hashToken(raw), expiresAt: new Date(Date.now() + hours * 3600 * 1000) });
  return raw;
}

// The activation link is issued when the e-mail is sent (no secret waits in the job table); an
// account activated meanwhile gets none.
defineMail("verification", async (data) => {
  const userId = Number(data.userId);
  const db = await getDb();
  const [user] = await db
    .select({ email: users.email, fullname: users.fullname })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.verifiedAt)));
  if (!user) return null;
  const code = await issueToken(userId, "verify", VERIFY_LINK_HOURS);
  return renderEmail({
    to: user.email,
    subject: "Aktivasi Akun Toko Pegawai PLN",
    greeting: `Halo ${user.fullname},`,
    lines: ["Terima kasih telah mendaftar di Toko Pegawai PLN.", "Segera lakukan aktivasi akun agar Anda dapat mulai bertransaksi."],
    button: { label: "Aktivasi Akun", link: `${env().appUrl}/home?verificationCode=${encodeURIComponent(code)}` },
    footer: `Tautan ini berlaku ${VERIFY_LINK_HOURS} jam. Abaikan e-mail ini jika Anda tidak merasa mendaftar.`,
  });
});

/** Consumes a one-time token: marks it used in the same statement that checks it is still valid. */
async function consumeToken(raw: string, purpose: "verify" | "reset") {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 200) return null;
  const db = await getDb();
  const rows = await db
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(raw)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: accountTokens.userId });
  return rows[0]?.userId ?? null;
}

/**
 * Activates the account of a verification link. A link of an account that is already active (the
 * link used twice, or an older link after a newer one) is not an error for its owner:
 * `alreadyActive` says so.
 */
export async function verifyAccount(code: string): Promise<Result<{ alreadyActive: boolean }>> {
  const userId = await consumeToken(code, "verify");
  const db = await getDb();
  if (!userId) {
    if (await isLinkOfActiveAccount(code)) return { ok: true, value: { alreadyActive: true } };
    return { ok: false, message: "Kode aktivasi tidak valid atau sudah kedaluwarsa." };
  }
  const [before] = await db.select({ verifiedAt: users.verifiedAt }).from(users).where(eq(users.id, userId));
  if (before?.verifiedAt) return { ok: true, value: { alreadyActive: true } };
  await db
    .update(users)
    .set({ verifiedAt: sql`coalesce(${users.verifiedAt}, now())`, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return { ok: true, value: { alreadyActive: false } };
}

/** Whether `code` is a verification link (used or expired) of an account that is active. */
async function isLinkOfActiveAccount(code: string): Promise<boolean> {
  if (typeof code !== "string" || code.length === 0 || code.length > 200) return false;
  const db = await getDb();
  const rows = await db
    .select({ verifiedAt: users.verifiedAt })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(and(eq(accountTokens.tokenHash, hashToken(code)), eq(accountTokens.purpose, "verify")));
  return rows.some((row) => row.verifiedAt !== null);
}

/** Sends a new verification link, at most once per hour (spec §4). */
export async function resendVerification(userId: number): Promise<Result<{ availableAt: Date }>> {
  const db = await getDb();
  const availableAt = new Date(Date.now() + RESEND_WAIT_MS);
  // One conditional update: two quick clicks cannot both send.
  const rows = await db
    .update(users)
    .set({ resendAvailableAt: availableAt })
    .where(
      and(eq(users.id, userId), isNull(users.verifiedAt), sql`(${users.resendAvailableAt} is null or ${users.resendAvailableAt} <= now())`),
    )
    .returning({ email: users.email, fullname: users.fullname });
  const user = rows[0];
  if (!user) {
    const [row] = await db.select({ verifiedAt: users.verifiedAt }).from(users).where(eq(users.id, userId));
    if (row?.verifiedAt) return { ok: false, message: "Akun Anda sudah aktif." };
    return { ok: false, message: "Mohon tunggu sebelum mengirim ulang email aktivasi." };
  }
  await enqueueMessage(db, "mail", { kind: "verification", userId });
  return { ok: true, value: { availableAt } };
}

/** The user for a correct e-mail and password, else null (same answer and time for both failures). */
export async function authenticate(email: string, password: string): Promise<{ id: number } | null> {
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)))
    .limit(1);
  if (!user) {
    dummyHash ??= hashPassword(randomToken());
    await verify(await dummyHash, password).catch(() => false);
    return null;
  }
  const ok = await verify(user.passwordHash, password).catch(() => false);
  return ok ? { id: user.id } : null;
}

/** Whether `password` is the account's own (asked again before 'Hapus Akun'). */
export async function checkPassword(userId: number, password: string): Promise<boolean> {
  const db = await getDb();
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user || !password) return false;
  return verify(user.passwordHash, password).catch(() => false);
}

/**
 * Queues a reset link for `email`. The job is created whatever the address (the worker looks the
 * account up and sends nothing without one), so neither the answer nor its timing tells whether
 * the account exists.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await enqueueMessage(await getDb(), "mail", { kind: "password-reset", email: normaliseEmail(email) });
}

defineMail("password-reset", async (data) => {
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, email: users.email, fullname: users.fullname })
    .from(users)
    .where(eq(sql`lower(${users.email})`, String(data.email)))
    .limit(1);
  if (!user) return null;
  const secret = await issueToken(user.id, "reset", RESET_LINK_HOURS);
  return renderEmail({
    to: user.email,
    subject: "Atur Ulang Kata Sandi Toko Pegawai PLN",
    greeting: `Halo ${user.fullname},`,
    lines: ["Kami menerima permintaan untuk mengatur ulang kata sandi akun Anda."],
    button: { label: "Atur Ulang Kata Sandi", link: `${env().appUrl}/forgot-password?secretCode=${encodeURIComponent(secret)}` },
    footer: `Tautan ini berlaku ${RESET_LINK_HOURS} jam dan hanya dapat dipakai sekali. Abaikan e-mail ini jika Anda tidak memintanya.`,
  });
});

/** The e-mail a reset link belongs to, when the link is still usable (does not consume it). */
export async function checkResetSecret(secret: string): Promise<{ email: string } | null> {
  if (typeof secret !== "string" || secret.length === 0 || secret.length > 200) return null;
  const db = await getDb();
  const [row] = await db
    .select({ email: users.email })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(secret)),
        eq(accountTokens.purpose, "reset"),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Sets a new password from a reset link and ends every session of that user. */
export async function resetPassword(secret: string, password: string): Promise<Result<{ email: string }>> {
  const userId = await consumeToken(secret, "reset");
  if (!userId) return { ok: false, message: "Mohon maaf, link reset password anda tidak valid." };
  const db = await getDb();
  const [user] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  await revokeAllSessions(userId);
  return { ok: true, value: { email: user!.email } };
}

export async function getProfile(userId: number) {
  const db = await getDb();
  const [row] = await db
    .select({ fullname: users.fullname, phoneNo: users.phoneNo, email: users.email, nip: users.nip, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  return row ?? null;
}

export async function updateProfile(userId: number, input: { fullname: string; phoneNo: string }) {
  const db = await getDb();
  await db
    .update(users)
    .set({ fullname: input.fullname.trim(), phoneNo: input.phoneNo, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Operator command: mark an account verified without the e-mail link. */
export async function markVerified(email: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(users)
    .set({ verifiedAt: sql`coalesce(${users.verifiedAt}, now())` })
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function listUsers() {
  const db = await getDb();
  return db
    .select({
      id: users.id,
      email: users.email,
      fullname: users.fullname,
      nip: users.nip,
      companyName: companies.name,
      roles: sql<string>`coalesce((select string_agg(r.role, ',' order by r.role) from staff_roles r where r.user_id = ${users.id}), '')`,
      verifiedAt: users.verifiedAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .orderBy(asc(users.id));
}
