import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import * as editProfileRoute from "~/routes/edit-profile";
import * as resetRoute from "~/routes/forgot-password";
import * as loginRoute from "~/routes/login";
import * as logoutRoute from "~/routes/logout";
import * as registerRoute from "~/routes/register";
import * as resendRoute from "~/routes/resend-verification";
import * as sendEmailRoute from "~/routes/send-email";
import * as verifyRoute from "~/routes/verify-account";
import { startSession } from "./auth";
import { getDb } from "../db/client";
import { users } from "../db/schema";
import { settleMessages } from "../testing/messages";
import type { OutboxEntry } from "../store/messages";
import { getSessionId, getUser, sessionMiddleware, takeFlash } from "./session";
import { authenticate, getProfile, listCompanies, registerUser } from "../store/people";
import { RATE_LIMITS } from "../store/people";
import { getSessionUser } from "../store/people";

// The account routes as a browser meets them: each request runs through the real session
// middleware and the route's own loader or action, on this file's database (PGlite, or the shared
// PostgreSQL of DATABASE_URL: every account and client address is new).

// `url` is the page address React Router 8 passes beside the raw request (decision 0004).
type Handler = (args: { request: Request; url: URL; context: RouterContextProvider; params: Record<string, string> }) => unknown;
type Reply = { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
type Outcome = { status: number; location: string | null; data: Record<string, unknown> & { reply?: Reply } };

const uniqueEmail = (prefix = "akun") => `${prefix}-${randomUUID().slice(0, 12)}@example.test`;

/** One browser: keeps its cookie between requests and comes from its own client address. */
class Browser {
  cookie = "";
  constructor(readonly address = `10.${randomUUID()}`) {}

  get(handler: Handler, url: string) {
    return this.send(handler, url, "GET");
  }

  post(handler: Handler, url: string, fields: Record<string, string | string[]> | BodyInit, contentType?: string) {
    let body: BodyInit;
    if (typeof fields === "string" || fields instanceof Uint8Array || fields instanceof FormData) body = fields as BodyInit;
    else {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
      body = form;
    }
    return this.send(handler, url, "POST", body, contentType);
  }

  /** What the session holds right now (read without changing it). */
  async session() {
    const { data } = await this.get(({ context }) => ({ user: getUser(context), sid: getSessionId(context) ?? null }), "/home");
    return data as { user: ReturnType<typeof getUser>; sid: string | null };
  }

  /** The flash toast and modal the next page would show. */
  async flashed() {
    const { data } = await this.get(
      ({ context }) => ({ toast: takeFlash(context, "toast") ?? null, modal: takeFlash(context, "modal") ?? null }),
      "/home",
    );
    return data as { toast: { type: string; message: string } | null; modal: string | null };
  }

  private async send(handler: Handler, url: string, method: string, body?: BodyInit, contentType?: string): Promise<Outcome> {
    const headers = new Headers({ "x-client-address": this.address });
    if (this.cookie) headers.set("cookie", this.cookie);
    if (contentType) headers.set("content-type", contentType);
    const request = new Request(new URL(url, "http://store.test"), { method, headers, body });
    const context = new RouterContextProvider();
    let result: unknown;
    const response = await sessionMiddleware({ request, url: new URL(request.url), context, params: {} } as never, async () => {
      try {
        result = await handler({ request, url: new URL(request.url), context, params: {} });
      } catch (thrown) {
        if (!(thrown instanceof Response)) throw thrown;
        result = thrown;
      }
      return new Response(null);
    });
    const setCookie = (response as Response).headers.get("set-cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0]!;
    if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), data: {} };
    if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
      const { data, init } = result as { data: Outcome["data"]; init: ResponseInit | null };
      return { status: init?.status ?? 200, location: null, data };
    }
    return { status: 200, location: null, data: (result ?? {}) as Outcome["data"] };
  }
}

const action = (route: { action: unknown }) => route.action as Handler;
const loader = (route: { loader: unknown }) => route.loader as Handler;

let companyId: string;
beforeAll(async () => {
  companyId = String((await listCompanies())[0]!.id);
});

const registration = (overrides: Record<string, string | string[]> = {}) => ({
  fullname: "Siti Rahma",
  phoneNo: "0812-3456-7890",
  nip: "9012345678",
  companyId,
  email: uniqueEmail(),
  password: "rahasia123",
  matchPassword: "rahasia123",
  ...overrides,
});

async function registeredAccount() {
  const input = {
    fullname: "Siti Rahma",
    phoneNo: "081234567890",
    nip: "9012345678",
    companyId: Number(companyId),
    email: uniqueEmail(),
    password: "rahasia123",
  };
  const result = await registerUser(input);
  if (!result.ok || result.value.userId === null) throw new Error(`could not register ${input.email}`);
  return { ...input, userId: result.value.userId };
}

async function signedIn(account?: { email: string; password: string }) {
  const { email, password } = account ?? (await registeredAccount());
  const browser = new Browser();
  const outcome = await browser.post(action(loginRoute), "/login", { email, password });
  expect(outcome.status).toBe(302);
  await browser.flashed(); // the welcome toast has been seen
  return browser;
}

const RESET_SUBJECT = "Atur Ulang Kata Sandi Toko Pegawai PLN";

/** The newest e-mail to an address (with that subject) in the outbox; waits a little, as reset mail is sent in the background. */
async function newestMailTo(email: string, subject?: string, timeoutMs = 5000): Promise<OutboxEntry | null> {
  const dir = path.join(process.env.DATA_DIR!, "outbox");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await fs.readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .reverse();
    for (const f of files) {
      const entry = JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as OutboxEntry;
      if (entry.to === email.toLowerCase() && (!subject || entry.subject === subject)) return entry;
    }
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("login", () => {
  it("gives the same answer for an unknown e-mail and a wrong password, and never echoes the password", async () => {
    const { email } = await registeredAccount();
    const browser = new Browser();
    const wrongPassword = await browser.post(action(loginRoute), "/login", { email, password: "salah-sandi-1" });
    const unknownEmail = await browser.post(action(loginRoute), "/login", { email: uniqueEmail("tidak-ada"), password: "salah-sandi-1" });
    for (const outcome of [wrongPassword, unknownEmail]) {
      expect(outcome.status).toBe(400);
      expect(outcome.data.reply!.error).toEqual({ "": ["Email atau Kata Sandi salah."] });
      expect(outcome.data.reply!.initialValue).not.toHaveProperty("password");
    }
    expect((await browser.session()).user).toBeNull();
  });

  it("signs in, says so, and goes to the page asked for (same site only)", async () => {
    const { email, password, userId } = await registeredAccount();
    const browser = new Browser();
    const outcome = await browser.post(action(loginRoute), "/login", {
      email: email.toUpperCase(),
      password,
      redirect: "/transaction?status=200",
    });
    expect(outcome).toMatchObject({ status: 302, location: "/transaction?status=200" });
    expect((await browser.session()).user).toMatchObject({ id: userId, email, verified: false });
    expect(await browser.flashed()).toEqual({ toast: { type: "success", message: "Login berhasil. Selamat datang!" }, modal: null });

    const other = new Browser();
    expect(await other.post(action(loginRoute), "/login", { email, password, redirect: "//evil.example/x" })).toMatchObject({
      location: "/home",
    });
  });

  it.each([
    ["a JSON body", '{"email":"a@b.co","password":"x"}', "application/json"],
    ["plain text", "hello", "text/plain"],
    ["a broken multipart body", "garbage", "multipart/form-data; boundary=xyz"],
  ])("answers %s with the form's messages, not a failure", async (_, body, contentType) => {
    const outcome = await new Browser().post(action(loginRoute), "/login", body, contentType);
    expect(outcome.status).toBe(400);
    expect(outcome.data.reply!.error).toEqual({ email: ["Email tidak boleh kosong."], password: ["Kata Sandi tidak boleh kosong."] });
  });

  it("sends a signed-in user from /login to /home", async () => {
    const browser = await signedIn();
    expect(await browser.get(loader(loginRoute), "/login")).toMatchObject({ status: 302, location: "/home" });
  });
});

describe("sessions", () => {
  it("start with a new id at every sign-in; the id the browser had before is revoked", async () => {
    const { userId } = await registeredAccount();
    const browser = await signedIn();
    const before = (await browser.session()).sid!;
    expect(await getSessionUser(before)).not.toBeNull();

    await browser.get(async ({ context }) => startSession(context, userId), "/login");
    const after = await browser.session();
    expect(after.sid).not.toBe(before);
    expect(after.user!.id).toBe(userId);
    expect(await getSessionUser(before)).toBeNull();
  });

  it("end at logout, on the server too: the old cookie is worthless", async () => {
    const browser = await signedIn();
    const { sid } = await browser.session();
    const stolenCookie = browser.cookie;
    expect(await browser.post(action(logoutRoute), "/logout", {})).toMatchObject({ status: 302, location: "/login" });
    expect((await browser.session()).user).toBeNull();
    expect(await getSessionUser(sid!)).toBeNull();

    const thief = new Browser();
    thief.cookie = stolenCookie;
    expect((await thief.session()).user).toBeNull();
  });
});

describe("rate limits", () => {
  async function backdateWindow(name: string, subject: string, seconds: number) {
    const db = await getDb();
    await db.execute(
      sql`update rate_limits set window_start = window_start - ${`${seconds} seconds`}::interval where key = ${`${name}:${subject.toLowerCase()}`}`,
    );
  }

  it("refuse the 11th login attempt for an address and e-mail, counting each pair apart, until the window passes", async () => {
    const { email, password } = await registeredAccount();
    const browser = new Browser();
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await browser.post(action(loginRoute), "/login", { email, password: "salah-sandi-1" })).status).toBe(400);
    }
    const refused = await browser.post(action(loginRoute), "/login", { email, password });
    expect(refused.status).toBe(429);
    expect(refused.data.reply!.error![""]![0]).toMatch(/^Terlalu banyak percobaan masuk\. Coba lagi dalam \d+ menit\.$/);
    expect((await browser.session()).user).toBeNull();

    // Another e-mail from the same address, and the same e-mail from another address, still count from zero.
    expect((await browser.post(action(loginRoute), "/login", { email: uniqueEmail(), password: "x" })).status).toBe(400);
    expect((await new Browser().post(action(loginRoute), "/login", { email, password })).status).toBe(302);

    await backdateWindow("login", `${browser.address}|${email}`, 15 * 60 + 1);
    expect((await browser.post(action(loginRoute), "/login", { email, password })).status).toBe(302);
  });

  it("refuse logins from an address after 50 failures over any e-mails (one password sprayed over many accounts)", async () => {
    const { email, password } = await registeredAccount();
    const sprayer = new Browser();
    for (let n = 1; n <= 50; n++) {
      expect((await sprayer.post(action(loginRoute), "/login", { email: uniqueEmail("semprot"), password: "Rahasia123!" })).status).toBe(
        400,
      );
    }
    const refused = await sprayer.post(action(loginRoute), "/login", { email, password });
    expect(refused.status).toBe(429);
    expect(refused.data.reply!.error![""]![0]).toMatch(/^Terlalu banyak percobaan masuk\. Coba lagi dalam \d+ menit\.$/);
    expect((await sprayer.session()).user).toBeNull();
    // Other addresses are not affected; the window passes.
    expect((await new Browser().post(action(loginRoute), "/login", { email, password })).status).toBe(302);
    await backdateWindow("login-failed", sprayer.address, 15 * 60 + 1);
    expect((await sprayer.post(action(loginRoute), "/login", { email, password })).status).toBe(302);
  });

  it("refuses registrations past the limit from one address (incomplete forms do not count)", async () => {
    const browser = new Browser();
    expect((await browser.post(action(registerRoute), "/register", registration({ fullname: "" }))).status).toBe(400);
    for (let n = 1; n <= RATE_LIMITS.register.limit; n++) {
      const signup = new Browser(browser.address);
      expect((await signup.post(action(registerRoute), "/register", registration())).status).toBe(302);
    }
    const sixth = registration();
    const refused = await browser.post(action(registerRoute), "/register", sixth);
    expect(refused.status).toBe(429);
    expect(refused.data.reply!.error![""]![0]).toMatch(/^Terlalu banyak pendaftaran dari perangkat ini\. Coba lagi dalam \d+ menit\.$/);
    expect(refused.data.reply!.initialValue).toMatchObject({ fullname: "Siti Rahma", email: sixth.email });
    expect(await authenticate(sixth.email, sixth.password)).toBeNull();

    expect((await new Browser().post(action(registerRoute), "/register", sixth)).status).toBe(302);
    await backdateWindow("register", browser.address, 3600 + 1);
    expect((await browser.post(action(registerRoute), "/register", registration())).status).toBe(302);
  });

  it("refuse the 6th reset e-mail for an address and e-mail", async () => {
    const { email } = await registeredAccount();
    const browser = new Browser();
    for (let n = 1; n <= 5; n++) expect((await browser.post(action(sendEmailRoute), "/send-email", { email })).status).toBe(302);
    const refused = await browser.post(action(sendEmailRoute), "/send-email", { email });
    expect(refused.status).toBe(429);
    expect(refused.data.reply!.error![""]![0]).toMatch(/^Terlalu banyak permintaan\. Coba lagi dalam \d+ menit\.$/);
    expect((await browser.post(action(sendEmailRoute), "/send-email", { email: uniqueEmail() })).status).toBe(302);
  });
});

describe("register", () => {
  it("signs the new user in, unverified, and lands on /home with the 'check your e-mail' modal", async () => {
    const browser = new Browser();
    const form = registration({ email: uniqueEmail("Baru") });
    expect(await browser.post(action(registerRoute), "/register", form)).toMatchObject({ status: 302, location: "/home" });
    const { user } = await browser.session();
    expect(user).toMatchObject({
      fullname: "Siti Rahma",
      email: form.email.toLowerCase(),
      phoneNo: "081234567890",
      nip: "9012345678",
      verified: false,
    });
    expect(await browser.flashed()).toEqual({ toast: null, modal: "registered" });
    expect((await newestMailTo(form.email))!.subject).toBe("Aktivasi Akun Toko Pegawai PLN");
    // Signed in: the register screen sends them home.
    expect(await browser.get(loader(registerRoute), "/register")).toMatchObject({ status: 302, location: "/home" });
  });

  it("offers the companies of the group", async () => {
    const { data } = await new Browser().get(loader(registerRoute), "/register");
    expect(data.companies).toContainEqual({ value: "1", label: "PT PLN (Persero)" });
  });

  it("answers an e-mail that has an account exactly as a new one (same redirect and modal), creates nothing and tells the owner by e-mail", async () => {
    const { email, userId } = await registeredAccount();
    const newcomer = new Browser();
    const intruder = new Browser();
    const fresh = await newcomer.post(action(registerRoute), "/register", registration());
    const taken = await intruder.post(
      action(registerRoute),
      "/register",
      registration({ email: email.toUpperCase(), fullname: "Orang Lain", password: "sandi-lain-1", matchPassword: "sandi-lain-1" }),
    );
    expect(taken).toEqual(fresh);
    expect(taken).toEqual({ status: 302, location: "/home", data: {} });
    expect(await intruder.flashed()).toEqual(await newcomer.flashed());
    // No account and no session for the intruder; the owner's account is unchanged.
    expect((await intruder.session()).user).toBeNull();
    expect(await authenticate(email, "sandi-lain-1")).toBeNull();
    expect(await authenticate(email, "rahasia123")).toEqual({ id: userId });
    const mail = await newestMailTo(email, "Email Anda Sudah Terdaftar di Toko Pegawai PLN");
    expect(mail!.text).toContain("Halo Siti Rahma,");
  });

  const bad: [string, Record<string, string | string[]>, Record<string, string[]>][] = [
    [
      "missing fields",
      { fullname: "", email: "" },
      { fullname: ["Nama Lengkap tidak boleh kosong."], email: ["Email tidak boleh kosong."] },
    ],
    ["a 1 MB value", { fullname: "x".repeat(1_000_000) }, { fullname: ["Nama Lengkap maksimal 100 karakter."] }],
    [
      "repeated fields",
      { email: ["a@pln.co.id", "b@pln.co.id"], phoneNo: ["0812", "0813"] },
      { email: ["Email tidak boleh kosong."], phoneNo: ["Nomor HP tidak boleh kosong."] },
    ],
    ["a non-numeric company", { companyId: "1 OR 1=1" }, { companyId: ["Perusahaan tidak boleh kosong."] }],
    ["an unknown company", { companyId: "99999" }, { companyId: ["Perusahaan tidak boleh kosong."] }],
    ["letters in the phone number", { phoneNo: "0812abcd7890" }, { phoneNo: ["Nomor HP harus berupa numeric."] }],
    ["a confirmation that differs", { matchPassword: "rahasia321" }, { matchPassword: ["Konfirmasi Kata Sandi anda tidak sesuai."] }],
  ];
  it.each(bad)("answers %s with 400 and the messages", async (_, overrides, errors) => {
    const form = registration(overrides);
    const outcome = await new Browser().post(action(registerRoute), "/register", form);
    expect(outcome.status).toBe(400);
    expect(outcome.data.reply!.error).toEqual(errors);
    expect(await authenticate(typeof form.email === "string" ? form.email : "", "rahasia123")).toBeNull();
  });

  it("answers bytes that are not UTF-8 with 400", async () => {
    const body = Buffer.concat([
      Buffer.from("fullname="),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`&email=`),
      Buffer.from([0xc3]),
      Buffer.from("@pln.co.id"),
    ]);
    const outcome = await new Browser().post(action(registerRoute), "/register", new Uint8Array(body), "application/x-www-form-urlencoded");
    expect(outcome.status).toBe(400);
    expect(outcome.data.reply!.error!.email).toEqual(["Email tidak valid."]);
  });
});

describe("forgot and reset password", () => {
  it("answers the same for a registered and an unknown e-mail; only the registered one gets a link", async () => {
    const { email } = await registeredAccount();
    const unknown = uniqueEmail("tidak-ada");
    const answers = [];
    for (const address of [email, unknown]) {
      const browser = new Browser();
      answers.push({
        outcome: await browser.post(action(sendEmailRoute), "/send-email", { email: address }),
        flashed: await browser.flashed(),
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({
      outcome: { status: 302, location: "/login", data: {} },
      flashed: {
        toast: {
          type: "success",
          message: "Jika email Anda terdaftar, tautan untuk mengatur ulang kata sandi telah dikirim ke email Anda.",
        },
        modal: null,
      },
    });
    expect(await newestMailTo(email, RESET_SUBJECT)).not.toBeNull();
    await settleMessages();
    expect(await newestMailTo(unknown, undefined, 0)).toBeNull();
  });

  it("answers a known and an unknown e-mail alike: one queued job each, the account looked up only when the e-mail is sent", async () => {
    const { email } = await registeredAccount();
    const unknown = uniqueEmail("tidak-terdaftar");
    for (const address of [email, unknown]) {
      expect(await new Browser().post(action(sendEmailRoute), "/send-email", { email: address })).toMatchObject({
        status: 302,
        location: "/login",
      });
    }
    const db = await getDb();
    const jobs = await db.execute(
      sql`select data->>'email' as email from pgboss.job where name = 'mail' and data->>'kind' = 'password-reset' and data->>'email' in (${email}, ${unknown})`,
    );
    const rows = (Array.isArray(jobs) ? jobs : (jobs as unknown as { rows: { email: string }[] }).rows) as { email: string }[];
    expect(rows.map((r) => r.email).sort()).toEqual([email, unknown].sort());
    await settleMessages();
    expect(await newestMailTo(email, RESET_SUBJECT)).not.toBeNull();
    expect(await newestMailTo(unknown, RESET_SUBJECT, 0)).toBeNull();
  });

  it("asks for a valid e-mail", async () => {
    const browser = new Browser();
    expect((await browser.post(action(sendEmailRoute), "/send-email", {})).data.reply!.error).toEqual({
      email: ["Email tidak boleh kosong."],
    });
    expect((await browser.post(action(sendEmailRoute), "/send-email", { email: "siti" })).data.reply!.error).toEqual({
      email: ["Email tidak valid."],
    });
  });

  it("resets through the link: every session ends, the old password is refused, the link is used up", async () => {
    const account = await registeredAccount();
    const elsewhere = await signedIn(account);
    const browser = await signedIn(account);
    await new Browser().post(action(sendEmailRoute), "/send-email", { email: account.email });
    const link = new URL((await newestMailTo(account.email, RESET_SUBJECT))!.text.match(/https?:\/\/\S+/)![0]);
    const url = link.pathname + link.search;
    const secretCode = link.searchParams.get("secretCode")!;

    expect((await browser.get(loader(resetRoute), url)).data).toEqual({ valid: true, email: account.email, secretCode });

    const mismatch = await browser.post(action(resetRoute), url, {
      secretCode,
      password: "baru-rahasia-1",
      matchPassword: "baru-rahasia-2",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.data.reply!.error).toEqual({ matchPassword: ["Konfirmasi Kata Sandi tidak sama."] });
    expect(mismatch.data.reply!.initialValue).not.toHaveProperty("password");
    const empty = await browser.post(action(resetRoute), url, { secretCode, password: "baru-rahasia-1", matchPassword: "" });
    expect(empty.data.reply!.error).toEqual({ matchPassword: ["Konfirmasi Kata Sandi tidak boleh kosong."] });

    expect(
      await browser.post(action(resetRoute), url, { secretCode, password: "baru-rahasia-1", matchPassword: "baru-rahasia-1" }),
    ).toMatchObject({ status: 302, location: "/login" });
    expect(await browser.flashed()).toEqual({ toast: null, modal: "password-reset" });
    expect((await browser.session()).user).toBeNull();
    expect((await elsewhere.session()).user).toBeNull();
    expect(await authenticate(account.email, account.password)).toBeNull();
    expect((await new Browser().post(action(loginRoute), "/login", { email: account.email, password: "baru-rahasia-1" })).status).toBe(302);

    expect(await browser.get(loader(resetRoute), url)).toMatchObject({ status: 400, data: { valid: false } });
    const again = await browser.post(action(resetRoute), url, { secretCode, password: "lagi-rahasia-2", matchPassword: "lagi-rahasia-2" });
    expect(again.status).toBe(400);
    expect(again.data.reply!.error).toEqual({ "": ["Mohon maaf, link reset password anda tidak valid."] });
  });

  it.each([
    ["no secret", "/forgot-password"],
    ["an empty secret", "/forgot-password?secretCode="],
    ["a made-up secret", "/forgot-password?secretCode=made-up"],
    ["a 5000-character secret", `/forgot-password?secretCode=${"x".repeat(5000)}`],
  ])("shows the invalid-link page for %s", async (_, url) => {
    expect(await new Browser().get(loader(resetRoute), url)).toMatchObject({ status: 400, data: { valid: false } });
  });
});

describe("edit profile", () => {
  it.each([
    [
      { fullname: "", phoneNo: "" },
      { fullname: ["Nama Lengkap tidak boleh kosong."], phoneNo: ["Nomor HP tidak boleh kosong."] },
    ],
    [{ fullname: "Siti", phoneNo: "0812-34x5-6789" }, { phoneNo: ["Nomor HP harus berupa numeric."] }],
    [{ fullname: "Siti", phoneNo: "0812345678" }, { phoneNo: ["Nomor HP minimal 11 digit."] }],
    [{ fullname: "Siti", phoneNo: "081234567890123" }, { phoneNo: ["Nomor HP maksimal 14 digit."] }],
    [{ fullname: ["Siti", "Rahma"], phoneNo: "081234567890" }, { fullname: ["Nama Lengkap tidak boleh kosong."] }],
  ])("refuses %j", async (form, errors) => {
    const account = await registeredAccount();
    const browser = await signedIn(account);
    const outcome = await browser.post(action(editProfileRoute), "/edit-profile", form);
    expect(outcome.status).toBe(400);
    expect(outcome.data.reply!.error).toEqual(errors);
    expect(await getProfile(account.userId)).toMatchObject({ fullname: "Siti Rahma", phoneNo: "081234567890" });
  });

  it("shows the current values, saves new ones and says so", async () => {
    const account = await registeredAccount();
    const browser = await signedIn(account);
    expect((await browser.get(loader(editProfileRoute), "/edit-profile")).data).toEqual({
      fullname: "Siti Rahma",
      phoneNo: "081234567890",
    });
    expect(
      await browser.post(action(editProfileRoute), "/edit-profile", { fullname: " Siti Lestari ", phoneNo: "0899 8877 6655" }),
    ).toMatchObject({
      status: 302,
      location: "/profile",
    });
    expect(await browser.flashed()).toEqual({ toast: { type: "success", message: "Profil berhasil diperbarui." }, modal: null });
    expect(await getProfile(account.userId)).toMatchObject({ fullname: "Siti Lestari", phoneNo: "089988776655", nip: "9012345678" });
  });
});

describe("account activation", () => {
  const VERIFY_SUBJECT = "Aktivasi Akun Toko Pegawai PLN";

  it("activates through the e-mailed code once, with the modal; the link used again says the account is already active", async () => {
    const browser = new Browser();
    const form = registration();
    await browser.post(action(registerRoute), "/register", form);
    await browser.flashed();
    const code = new URL((await newestMailTo(form.email, VERIFY_SUBJECT))!.text.match(/https?:\/\/\S+/)![0]).searchParams.get(
      "verificationCode",
    )!;

    expect(await browser.post(action(verifyRoute), "/verify-account", { verificationCode: code })).toMatchObject({
      status: 302,
      location: "/home",
    });
    expect(await browser.flashed()).toEqual({ toast: null, modal: "account-activated" });
    expect((await browser.session()).user!.verified).toBe(true);

    await browser.post(action(verifyRoute), "/verify-account", { verificationCode: code });
    expect(await browser.flashed()).toEqual({ toast: null, modal: "account-already-active" });
  });

  it.each([{}, { verificationCode: ["a", "b"] }, { verificationCode: "x".repeat(100_000) }])(
    "refuses a bad code %# with a danger toast",
    async (fields) => {
      const browser = new Browser();
      expect(await browser.post(action(verifyRoute), "/verify-account", fields as Record<string, string | string[]>)).toMatchObject({
        status: 302,
        location: "/home",
      });
      expect((await browser.flashed()).toast).toMatchObject({ type: "danger" });
    },
  );

  it("answers a body that is not a form with a danger toast, not a failure", async () => {
    const browser = new Browser();
    expect(await browser.post(action(verifyRoute), "/verify-account", "{}", "application/json")).toMatchObject({
      status: 302,
      location: "/home",
    });
    expect((await browser.flashed()).toast).toMatchObject({ type: "danger" });
  });

  it("resends at once after registering, then only after the wait: a danger toast before, a new e-mail after", async () => {
    const browser = new Browser();
    const form = registration();
    await browser.post(action(registerRoute), "/register", form);
    await browser.flashed();
    await settleMessages();
    const registered = await newestMailTo(form.email, VERIFY_SUBJECT);
    // Spec §4 (issue 25): the wait starts after a resend, so the first one goes at once.
    expect(await browser.post(action(resendRoute), "/resend-verification", { redirectTo: "/detail/3" })).toMatchObject({
      status: 302,
      location: "/detail/3",
    });
    expect((await browser.flashed()).toast).toEqual({
      type: "success",
      message: "Email aktivasi telah dikirim ulang. Silakan periksa email Anda.",
    });
    await settleMessages();
    const first = await newestMailTo(form.email, VERIFY_SUBJECT);
    expect(first!.id).not.toBe(registered!.id);

    expect(await browser.post(action(resendRoute), "/resend-verification", { redirectTo: "/detail/3" })).toMatchObject({
      status: 302,
      location: "/detail/3",
    });
    expect(await browser.flashed()).toEqual({
      toast: { type: "danger", message: "Mohon tunggu sebelum mengirim ulang email aktivasi." },
      modal: null,
    });
    expect((await newestMailTo(form.email, VERIFY_SUBJECT))!.id).toBe(first!.id);

    const db = await getDb();
    await db
      .update(users)
      .set({ resendAvailableAt: sql`now() - interval '1 second'` })
      .where(eq(users.email, form.email.toLowerCase()));
    expect(await browser.post(action(resendRoute), "/resend-verification", { redirectTo: "https://evil.example" })).toMatchObject({
      location: "/home",
    });
    expect((await browser.flashed()).toast).toEqual({
      type: "success",
      message: "Email aktivasi telah dikirim ulang. Silakan periksa email Anda.",
    });
    await settleMessages();
    expect((await newestMailTo(form.email, VERIFY_SUBJECT))!.id).not.toBe(first!.id);
    // The wait starts again (the banner reads it from the session user).
    expect((await browser.session()).user!.resendAvailableAt!.getTime()).toBeGreaterThan(Date.now() + 59 * 60 * 1000);
  });
});
