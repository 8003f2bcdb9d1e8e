import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { accountTokens, users } from "../../db/schema";
import { settleMessages } from "../../testing/messages";
import type { OutboxEntry } from "../messages";
import {
  authenticate,
  checkResetSecret,
  getProfile,
  listCompanies,
  type RegisterInput,
  registerUser,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  updateProfile,
  usernameFromEmail,
  verifyAccount,
} from "./accounts";
import { createSession, getSessionUser } from "./sessions";

// Runs on this file's PGlite, or on a shared PostgreSQL (DATABASE_URL): every account is new.
const uniqueEmail = (prefix = "akun") => `${prefix}-${randomUUID().slice(0, 12)}@example.test`;

let companyId: number;
beforeAll(async () => {
  const companies = await listCompanies();
  companyId = companies[0]!.id;
});

function registration(overrides: Partial<RegisterInput> = {}): RegisterInput {
  return {
    fullname: "Siti Rahma",
    phoneNo: "081234567890",
    nip: "9012345678",
    companyId,
    email: uniqueEmail(),
    password: "rahasia123",
    ...overrides,
  };
}

async function register(overrides: Partial<RegisterInput> = {}) {
  const input = registration(overrides);
  const result = await registerUser(input);
  if (!result.ok) throw new Error(result.message);
  if (result.value.userId === null) throw new Error(`${input.email} has an account already`);
  await settleMessages(); // the activation e-mail is a job of the mail queue
  return { ...input, userId: result.value.userId };
}

/** E-mails sent to an address, newest first, as the demo outbox in DATA_DIR holds them. */
async function mailsTo(email: string): Promise<OutboxEntry[]> {
  await settleMessages();
  const dir = path.join(process.env.DATA_DIR!, "outbox");
  const files = (await fs.readdir(dir).catch(() => [] as string[]))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .reverse();
  const entries = await Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as OutboxEntry));
  return entries.filter((m) => m.to === email.toLowerCase());
}

async function linkSentTo(email: string, parameter: "verificationCode" | "secretCode") {
  const [mail] = await mailsTo(email);
  const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in the newest e-mail to ${email}`);
  const value = new URL(link).searchParams.get(parameter);
  if (!value) throw new Error(`no ${parameter} in ${link}`);
  return { link: new URL(link), code: value };
}

async function expireTokensOf(userId: number) {
  const db = await getDb();
  await db
    .update(accountTokens)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(accountTokens.userId, userId));
}

describe("registration", () => {
  it("creates an unverified account, derives the username from the e-mail and mails an activation link", async () => {
    const email = uniqueEmail("Siti.Rahma");
    const { userId } = await register({ email: `  ${email.toUpperCase()} ` });
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({ email: email.toLowerCase(), username: usernameFromEmail(email), verifiedAt: null });
    expect(row!.username).toBe(email.toLowerCase().split("@")[0]);
    // Spec §4: the one-hour wait starts after a resend, not after the registration e-mail (issue 25).
    expect(row!.resendAvailableAt).toBeNull();
    const { link } = await linkSentTo(email, "verificationCode");
    expect(link.pathname).toBe("/home");
    expect((await mailsTo(email))[0]!.subject).toBe("Aktivasi Akun Toko Pegawai PLN");
  });

  it("creates nothing for an e-mail that is already registered (whatever its case), answers as for a new one and tells its owner by e-mail", async () => {
    const { email, userId } = await register();
    expect(await registerUser(registration({ email: email.toUpperCase(), fullname: "Penyusup", password: "sandi-lain-1" }))).toEqual({
      ok: true,
      value: { userId: null, rosterLink: null },
    });
    await settleMessages();
    const db = await getDb();
    const rows = await db
      .select({ id: users.id, fullname: users.fullname })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    expect(rows).toEqual([{ id: userId, fullname: "Siti Rahma" }]);
    expect(await authenticate(email, "sandi-lain-1")).toBeNull();
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe("Email Anda Sudah Terdaftar di Toko Pegawai PLN");
    expect(mail!.text).toContain("Halo Siti Rahma,");
    expect(mail!.text).not.toMatch(/verificationCode|secretCode/);
  });

  it("refuses a company that does not exist", async () => {
    expect(await registerUser(registration({ companyId: 987654321 }))).toEqual({
      ok: false,
      field: "companyId",
      message: "Perusahaan tidak boleh kosong.",
    });
  });
});

describe("account verification", () => {
  it("verifies the account once; the same link again says the account is already active", async () => {
    const { email, userId } = await register();
    const { code } = await linkSentTo(email, "verificationCode");
    const session = await createSession(userId);
    expect((await getSessionUser(session))!.verified).toBe(false);

    expect(await verifyAccount(code)).toEqual({ ok: true, value: { alreadyActive: false } });
    expect((await getSessionUser(session))!.verified).toBe(true);
    // The same link again: the account is active, which is what its owner wanted.
    expect(await verifyAccount(code)).toEqual({ ok: true, value: { alreadyActive: true } });
  });

  it("refuses an expired link and leaves the account unverified", async () => {
    const { email, userId } = await register();
    const { code } = await linkSentTo(email, "verificationCode");
    await expireTokensOf(userId);
    expect((await verifyAccount(code)).ok).toBe(false);
    const db = await getDb();
    const [row] = await db.select({ verifiedAt: users.verifiedAt }).from(users).where(eq(users.id, userId));
    expect(row!.verifiedAt).toBeNull();
  });

  it.each(["", "x".repeat(5000), "not-a-code"])("refuses a made-up code %#", async (code) => {
    expect((await verifyAccount(code)).ok).toBe(false);
  });

  it("resends at once after registering, then only after the one-hour wait, which starts again; never once verified", async () => {
    const { email, userId } = await register();
    const first = await resendVerification(userId);
    expect(first.ok).toBe(true);
    expect(await mailsTo(email)).toHaveLength(2);
    expect(first.ok && first.value.availableAt.getTime()).toBeGreaterThan(Date.now() + 59 * 60 * 1000);
    expect(await resendVerification(userId)).toEqual({ ok: false, message: "Mohon tunggu sebelum mengirim ulang email aktivasi." });
    expect(await mailsTo(email)).toHaveLength(2);

    const db = await getDb();
    await db
      .update(users)
      .set({ resendAvailableAt: sql`now() - interval '1 second'` })
      .where(eq(users.id, userId));
    const resent = await resendVerification(userId);
    expect(resent.ok).toBe(true);
    expect(await mailsTo(email)).toHaveLength(3);
    expect(resent.ok && resent.value.availableAt.getTime()).toBeGreaterThan(Date.now() + 59 * 60 * 1000);
    expect((await resendVerification(userId)).ok).toBe(false);

    // The newest link works (the earlier one too, until it expires).
    const { code } = await linkSentTo(email, "verificationCode");
    expect(await verifyAccount(code)).toEqual({ ok: true, value: { alreadyActive: false } });
    await db.update(users).set({ resendAvailableAt: null }).where(eq(users.id, userId));
    expect(await resendVerification(userId)).toEqual({ ok: false, message: "Akun Anda sudah aktif." });
  });
});

describe("login check", () => {
  it("finds the account for the right e-mail (any case) and password", async () => {
    const { email, password, userId } = await register();
    expect(await authenticate(email.toUpperCase(), password)).toEqual({ id: userId });
  });

  it("gives the same answer for a wrong password and an unknown e-mail", async () => {
    const { email } = await register();
    expect(await authenticate(email, "salah12345")).toBeNull();
    expect(await authenticate(uniqueEmail("tidak-ada"), "salah12345")).toBeNull();
  });
});

describe("password reset", () => {
  it("sends nothing for an unknown e-mail", async () => {
    const email = uniqueEmail("tidak-ada");
    await requestPasswordReset(email);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("mails a link; the new password works, the old one does not, and every session has ended", async () => {
    const { email, password, userId } = await register();
    const phone = await createSession(userId);
    const laptop = await createSession(userId);

    await requestPasswordReset(email.toUpperCase());
    const { link, code } = await linkSentTo(email, "secretCode");
    expect(link.pathname).toBe("/forgot-password");
    // Looking at the link does not use it up.
    expect(await checkResetSecret(code)).toEqual({ email });
    expect(await checkResetSecret(code)).toEqual({ email });

    expect(await resetPassword(code, "baru-rahasia-1")).toEqual({ ok: true, value: { email } });
    expect(await getSessionUser(phone)).toBeNull();
    expect(await getSessionUser(laptop)).toBeNull();
    expect(await authenticate(email, password)).toBeNull();
    expect(await authenticate(email, "baru-rahasia-1")).toEqual({ id: userId });

    // One use only.
    expect(await checkResetSecret(code)).toBeNull();
    expect(await resetPassword(code, "lagi-rahasia-2")).toEqual({
      ok: false,
      message: "Mohon maaf, link reset password anda tidak valid.",
    });
    expect(await authenticate(email, "baru-rahasia-1")).toEqual({ id: userId });
  });

  it("refuses an expired link", async () => {
    const { email, password, userId } = await register();
    await requestPasswordReset(email);
    const { code } = await linkSentTo(email, "secretCode");
    await expireTokensOf(userId);
    expect(await checkResetSecret(code)).toBeNull();
    expect((await resetPassword(code, "baru-rahasia-1")).ok).toBe(false);
    expect(await authenticate(email, password)).toEqual({ id: userId });
  });

  it("does not take a verification code as a reset secret", async () => {
    const { email } = await register();
    const { code } = await linkSentTo(email, "verificationCode");
    expect(await checkResetSecret(code)).toBeNull();
    expect((await resetPassword(code, "baru-rahasia-1")).ok).toBe(false);
  });
});

describe("profile", () => {
  it("reads name, phone, e-mail, NIP and company name, and updates name and phone", async () => {
    const { email, userId } = await register({ fullname: "Siti Rahma", nip: "1234567890" });
    const companies = await listCompanies();
    expect(await getProfile(userId)).toEqual({
      fullname: "Siti Rahma",
      phoneNo: "081234567890",
      email,
      nip: "1234567890",
      companyName: companies[0]!.name,
    });

    await updateProfile(userId, { fullname: "  Siti R. Lestari ", phoneNo: "0899887766554" });
    expect(await getProfile(userId)).toMatchObject({ fullname: "Siti R. Lestari", phoneNo: "0899887766554", nip: "1234567890" });
  });

  it("has nothing for an unknown user", async () => {
    expect(await getProfile(2_000_000_000)).toBeNull();
  });
});
