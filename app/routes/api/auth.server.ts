import { ApiError, defineArea, invalid, limit, limitMail, MESSAGES, ok, readJson, validate } from "~/.server/http/api";
import { object, TOKEN_DATA, USER_SCHEMA } from "~/.server/http/api-shapes";
import { checkCredentials } from "~/.server/http/auth";
import {
  checkResetSecret,
  LINK_REQUEST_MESSAGES,
  registerUser,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  verifyAccount,
} from "~/.server/store/people";
import { RATE_LIMITS } from "~/.server/store/people";
import { createSession, getSessionUser, revokeSession } from "~/.server/store/people";
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from "~/lib/schemas/account";
import { parseId } from "~/lib/ids";

// Spec §7 Auth (/api/v1/auth): the same rules, limits and messages as /login, /register,
// /send-email, /forgot-password and the activation link, answering a bearer token instead of a cookie.

/** The one answer for known and unknown addresses alike (DESIGN §9, as /send-email). */
const RESET_LINK_SENT = "Jika email Anda terdaftar, tautan untuk mengatur ulang kata sandi telah dikirim ke email Anda.";
const REGISTERED = "Pendaftaran berhasil. Silakan periksa email Anda untuk aktivasi akun.";
const INVALID_SECRET = "Mohon maaf, link reset password anda tidak valid.";

/** Login and register answer the spec's `data: { user, tokenType, token }`. */
async function tokenAnswer(userId: number, message: string, status = 200) {
  const token = await createSession(userId, "api");
  const user = await getSessionUser(token, "api");
  if (!user) throw new ApiError(401, MESSAGES.unauthorized);
  return ok({ user: { email: user.email, fullname: user.fullname, verified: user.verified }, tokenType: "Bearer", token }, message, status);
}

const area = defineArea("auth", {
  "/login": {
    method: "POST",
    auth: false,
    doc: { summary: "Login: a new bearer token", body: loginSchema, data: TOKEN_DATA, errors: [400, 429] },
    async handle({ request, address }) {
      const { email, password } = validate(await readJson(request), loginSchema);
      const checked = await checkCredentials(email, password, address);
      if (!checked.ok)
        throw new ApiError(
          checked.status,
          checked.message,
          checked.status === 400 ? { form: [checked.message] } : undefined,
          checked.retryAfterSeconds ? { "Retry-After": String(checked.retryAfterSeconds) } : undefined,
        );
      return tokenAnswer(checked.userId, "Login berhasil.");
    },
  },
  "/register": {
    method: "POST",
    auth: false,
    doc: {
      summary: "Register an unverified account (an activation e-mail follows)",
      description:
        "`username` is accepted and ignored: it is derived from the e-mail (spec §3). An e-mail that has an account already gets the same answer without a token (no account discovery); that address receives an e-mail saying so. For a company that has loaded its employee roster, the NIP must be an active employee of that company not yet linked to another account: otherwise 400 with `errors.nip` 'NIP tidak terdaftar sebagai pegawai aktif di perusahaan ini.' or 'NIP ini sudah terhubung dengan akun lain. Hubungi admin.' The account is not linked to the roster's entry by registering: it asks for it, and `message` goes on to say how the link is confirmed (a link sent to the work e-mail on the roster, or the HR operator); until then no employee price and no new order.",
      body: registerSchema,
      data: {
        oneOf: [TOKEN_DATA, object({ user: USER_SCHEMA, tokenType: { const: null }, token: { const: null } })],
      },
      success: [201],
      errors: [400, 429],
    },
    async handle({ request, address }) {
      const body = await readJson(request);
      const value = validate(body, registerSchema);
      await limit(
        RATE_LIMITS.register,
        address,
        (minutes) => `Terlalu banyak pendaftaran dari perangkat ini. Coba lagi dalam ${minutes} menit.`,
      );
      const { companyId, matchPassword: _match, ...account } = value;
      const result = await registerUser({ ...account, companyId: parseId(companyId) ?? 0 });
      if (!result.ok) throw invalid({ [result.field ?? "form"]: [result.message] });
      // The roster's entry is asked for, not linked (decision 0069): the message says how it is confirmed.
      const message = result.value.rosterLink ? `${REGISTERED} ${LINK_REQUEST_MESSAGES[result.value.rosterLink]}` : REGISTERED;
      if (result.value.userId === null) {
        return ok(
          {
            user: { email: account.email.trim().toLowerCase(), fullname: account.fullname.trim(), verified: false },
            tokenType: null,
            token: null,
          },
          message,
          201,
        );
      }
      return tokenAnswer(result.value.userId, message, 201);
    },
  },
  "/play-action-with-secret": {
    method: "POST",
    auth: false,
    doc: {
      summary: "Use the secret of an e-mail link",
      description:
        "An activation secret (the `verificationCode` of the link) activates the account: `action` is `verify`. A password-reset secret (the `secretCode` of the link) is only checked, not used up: `action` is `reset-password` with the account's e-mail, for /change-forgotten-password.",
      body: { type: "object", required: ["secret"], properties: { secret: { type: "string", maxLength: 200 } } },
      data: {
        type: "object",
        properties: { action: { enum: ["verify", "reset-password"] }, alreadyActive: { type: "boolean" }, email: { type: "string" } },
      },
      errors: [400],
    },
    async handle({ request }) {
      const body = await readJson(request);
      const secret = typeof body.secret === "string" ? body.secret.trim() : "";
      if (!secret) throw invalid({ secret: ["Kode tidak boleh kosong."] });
      const reset = await checkResetSecret(secret);
      if (reset) return ok({ action: "reset-password", email: reset.email });
      const verified = await verifyAccount(secret);
      if (!verified.ok) throw invalid({ secret: [verified.message] });
      return ok(
        { action: "verify", alreadyActive: verified.value.alreadyActive },
        verified.value.alreadyActive ? "Akun sudah aktif." : "Akun berhasil diaktivasi!",
      );
    },
  },
  "/email-forgot-password": {
    method: "POST",
    auth: false,
    doc: {
      summary: "Send a password-reset link (the same answer for unknown e-mails)",
      body: forgotPasswordSchema,
      data: { type: "null" },
      errors: [400, 429],
    },
    async handle({ request, address }) {
      const { email } = validate(await readJson(request), forgotPasswordSchema);
      await limitMail(
        RATE_LIMITS.forgotPassword,
        address,
        email,
        (minutes) => `Terlalu banyak permintaan. Coba lagi dalam ${minutes} menit.`,
      );
      await requestPasswordReset(email);
      return ok(null, RESET_LINK_SENT);
    },
  },
  "/change-forgotten-password": {
    method: "POST",
    auth: false,
    doc: {
      summary: "Set a new password with the reset link's secret; ends every session and token of the account",
      description: "`secret` (or `secretCode`) is the link's secret; `email` is optional and, when sent, must be the link's account.",
      body: resetPasswordSchema,
      data: { type: "object", properties: { email: { type: "string" } } },
      errors: [400],
    },
    async handle({ request }) {
      const body = await readJson(request);
      const secretCode = body.secretCode ?? body.secret;
      const value = validate({ ...body, secretCode }, resetPasswordSchema);
      const owner = await checkResetSecret(value.secretCode);
      if (!owner || (typeof body.email === "string" && body.email.trim() && body.email.trim().toLowerCase() !== owner.email.toLowerCase()))
        throw invalid({ secret: [INVALID_SECRET] });
      const result = await resetPassword(value.secretCode, value.password);
      if (!result.ok) throw invalid({ secret: [result.message] });
      return ok({ email: result.value.email }, "Kata sandi berhasil diubah. Silakan login kembali.");
    },
  },
  "/resend-email-verification": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Send the activation e-mail again (at most once an hour)",
      description:
        "For the signed-in account (the token's); an `email` in the body is ignored, so the call tells nothing about other addresses.",
      data: { type: "object", properties: { resendAvailableAt: { type: "string", format: "date-time" } } },
      errors: [400, 429],
    },
    async handle({ user, address }) {
      await limitMail(RATE_LIMITS.resend, address, String(user.id), () => "Terlalu banyak permintaan. Coba lagi nanti.");
      const result = await resendVerification(user.id);
      if (!result.ok) throw invalid({ form: [result.message] });
      return ok(
        { resendAvailableAt: result.value.availableAt.toISOString() },
        "Email aktivasi telah dikirim ulang. Silakan periksa email Anda.",
      );
    },
  },
  "/logout": {
    method: "POST",
    auth: true,
    doc: { summary: "Revoke this token", data: { type: "null" } },
    async handle({ token }) {
      await revokeSession(token);
      return ok(null, "Logout berhasil.");
    },
  },
});

export const AUTH_AREA = area;
