import type { SubmissionResult } from "@conform-to/react";
import { type RouterContextProvider, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { parseForm } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema } from "~/lib/schemas/account";
import { clientAddress, readForm } from "./request";
import { getSessionId, getUser, setSessionId } from "./session";
import { authenticate } from "../store/people";
import { checkRateLimit, hitRateLimit, RATE_LIMITS, resetRateLimit } from "../store/people";
import { createSession, revokeSession } from "../store/people";

type LoginOutcome = { ok: true; userId: number; redirectTo: string } | { ok: false; reply: SubmissionResult<string[]>; status: number };

const WRONG_CREDENTIALS = "Email atau Kata Sandi salah.";

/** remix-auth with the form strategy; it only checks credentials — the session is ours (DESIGN §2). */
export const authenticator = new Authenticator<LoginOutcome>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const submission = parseForm(form, loginSchema);
    if (submission.status !== "success") {
      return { ok: false, reply: submission.reply({ hideFields: ["password"] }), status: 400 };
    }
    const { email, password, redirect: target } = submission.value;
    const checked = await checkCredentials(email, password, clientAddress(request));
    if (!checked.ok)
      return { ok: false, status: checked.status, reply: submission.reply({ formErrors: [checked.message], hideFields: ["password"] }) };
    return { ok: true, userId: checked.userId, redirectTo: safeRedirect(target, "/home") };
  }),
  "form",
);

export type CredentialCheck = { ok: true; userId: number } | { ok: false; status: 400 | 429; message: string; retryAfterSeconds?: number };

/**
 * The login rules of both doors (the form and the JSON API): two limits — attempts per address and
 * e-mail (guessing one account's password), and failures per address over every e-mail (one
 * password tried on many accounts) — then the password; one message for every wrong pair.
 */
export async function checkCredentials(email: string, password: string, address: string): Promise<CredentialCheck> {
  const sprayed = await checkRateLimit(RATE_LIMITS.loginFailures, address);
  const limited = sprayed.allowed ? await hitRateLimit(RATE_LIMITS.login, `${address}|${email}`) : sprayed;
  if (!limited.allowed) {
    const minutes = Math.ceil(limited.retryAfterSeconds / 60);
    return {
      ok: false,
      status: 429,
      message: `Terlalu banyak percobaan masuk. Coba lagi dalam ${minutes} menit.`,
      retryAfterSeconds: limited.retryAfterSeconds,
    };
  }
  const user = await authenticate(email, password);
  if (!user) {
    await hitRateLimit(RATE_LIMITS.loginFailures, address);
    return { ok: false, status: 400, message: WRONG_CREDENTIALS };
  }
  await resetRateLimit(RATE_LIMITS.login, `${address}|${email}`);
  return { ok: true, userId: user.id };
}

/**
 * Checks a login form through remix-auth. The strategy reads the body itself, so it is handed a
 * copy whose body is always a well-formed form (see readForm).
 */
export async function login(request: Request): Promise<LoginOutcome> {
  const form = await readForm(request);
  const headers = new Headers(request.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return authenticator.authenticate("form", new Request(request.url, { method: "POST", headers, body: form }));
}

/** Signs the user in with a fresh session id (rotation), ending the session the browser had. */
export async function startSession(context: Readonly<RouterContextProvider>, userId: number) {
  const previous = getSessionId(context);
  if (previous) await revokeSession(previous);
  setSessionId(context, await createSession(userId));
}

export async function endSession(context: Readonly<RouterContextProvider>) {
  const sid = getSessionId(context);
  if (sid) await revokeSession(sid);
  setSessionId(context, null);
}

/** For loaders and actions of guarded routes: the signed-in user (the guard has already checked). */
export function requireUser(context: Readonly<RouterContextProvider>) {
  const user = getUser(context);
  if (!user) throw redirect("/authrequired");
  return user;
}

/** Spec §6: a signed-in user cannot open /login (or the other auth screens). */
export function requireAnonymous(context: Readonly<RouterContextProvider>) {
  if (getUser(context)) throw redirect("/home");
}
