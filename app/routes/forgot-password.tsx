import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/forgot-password";
import { endSession } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { checkResetSecret, resetPassword } from "~/.server/store/people";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FormError } from "~/components/field";
import { SubmitButton } from "~/components/submit-button";
import { parseForm, useSchemaForm } from "~/lib/forms";
import type { RouteHandle } from "~/lib/route-handle";
import { resetPasswordSchema } from "~/lib/schemas/account";

export const handle: RouteHandle = { title: "Atur Ulang Kata Sandi", back: "/login" };

const LABELS = { password: "Kata Sandi", matchPassword: "Konfirmasi Kata Sandi" };

const HIDDEN_FIELDS = ["password", "matchPassword"];

/** The link from the e-mail: /forgot-password?secretCode=…. Looking does not use the link up. */
export async function loader({ url }: Route.LoaderArgs) {
  const secretCode = url.searchParams.get("secretCode") ?? "";
  const owner = await checkResetSecret(secretCode);
  if (!owner) return data({ valid: false as const }, { status: 400 });
  return { valid: true as const, email: owner.email, secretCode };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await readForm(request), resetPasswordSchema);
  if (submission.status !== "success") {
    return data({ reply: submission.reply({ hideFields: HIDDEN_FIELDS }) }, { status: 400 });
  }
  const result = await resetPassword(submission.value.secretCode, submission.value.password);
  if (!result.ok) {
    // Used or expired meanwhile: the loader now renders the 'INVALID!' page.
    return data({ reply: submission.reply({ formErrors: [result.message], hideFields: HIDDEN_FIELDS }) }, { status: 400 });
  }
  // Every session of the account has ended; this browser starts over at the login page too.
  await endSession(context);
  flash(context, "modal", "password-reset");
  return redirect("/login");
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.valid) return <InvalidLink />;
  return <ResetForm email={loaderData.email} secretCode={loaderData.secretCode} reply={actionData?.reply} />;
}

function ResetForm({ email, secretCode, reply }: { email: string; secretCode: string; reply?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(resetPasswordSchema, { lastResult: reply });
  return (
    <section className="auth-card">
      <h2>Atur Ulang Kata Sandi</h2>
      <p className="muted">
        Buat kata sandi baru untuk <strong data-testid="reset-email">{email}</strong>.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormError id={form.errorId} errors={form.errors} />
        <ErrorSummary form={form} labels={LABELS} />
        <input type="hidden" name="secretCode" value={secretCode} />
        {/* Lets password managers store the new password for the right account. */}
        <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
        <Field meta={fields.password} label={LABELS.password} type="password" autoComplete="new-password" />
        <Field meta={fields.matchPassword} label={LABELS.matchPassword} type="password" autoComplete="new-password" />
        <SubmitButton className="btn btn-primary btn-block">Simpan Kata Sandi</SubmitButton>
      </Form>
    </section>
  );
}

/** Spec §8: a bad, used or expired reset link. */
function InvalidLink() {
  return (
    <section className="center-panel">
      <h2 className="invalid-title">INVALID!</h2>
      <p>Mohon maaf, link reset password anda tidak valid.</p>
      <Link className="btn btn-primary btn-block" to="/send-email">
        Kirim Ulang Tautan
      </Link>
      <Link className="btn btn-outline btn-block" to="/login">
        Kembali ke Login
      </Link>
    </section>
  );
}
