import { getFormProps } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/send-email";
import { clientAddress, readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { requestPasswordReset } from "~/.server/store/people";
import { hitMailRateLimit, RATE_LIMITS } from "~/.server/store/people";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FormError } from "~/components/field";
import { SubmitButton } from "~/components/submit-button";
import { parseForm, useSchemaForm } from "~/lib/forms";
import type { RouteHandle } from "~/lib/route-handle";
import { forgotPasswordSchema } from "~/lib/schemas/account";

export const handle: RouteHandle = { title: "Lupa Kata Sandi", back: "/login" };

const LABELS = { email: "Email" };

/** The one answer for known and unknown addresses alike (DESIGN §9). */
const RESET_LINK_SENT = "Jika email Anda terdaftar, tautan untuk mengatur ulang kata sandi telah dikirim ke email Anda.";

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await readForm(request), forgotPasswordSchema);
  if (submission.status !== "success") {
    return data({ reply: submission.reply() }, { status: 400 });
  }
  const { email } = submission.value;
  const limited = await hitMailRateLimit(RATE_LIMITS.forgotPassword, clientAddress(request), email);
  if (!limited.allowed) {
    const minutes = Math.ceil(limited.retryAfterSeconds / 60);
    return data(
      { reply: submission.reply({ formErrors: [`Terlalu banyak permintaan. Coba lagi dalam ${minutes} menit.`] }) },
      { status: 429 },
    );
  }
  // A job for any address (the worker looks the account up): the answer and its time are the same
  // for known and unknown ones, so they do not tell who has an account.
  await requestPasswordReset(email);
  flash(context, "toast", { type: "success", message: RESET_LINK_SENT });
  return redirect("/login");
}

export default function SendEmail({ actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(forgotPasswordSchema, { lastResult: actionData?.reply });
  return (
    <section className="auth-card">
      <h2>Lupa Kata Sandi?</h2>
      <p className="muted">Masukkan email akun Anda. Kami akan mengirimkan tautan untuk mengatur ulang kata sandi.</p>
      <Form method="post" {...getFormProps(form)}>
        <FormError id={form.errorId} errors={form.errors} />
        <ErrorSummary form={form} labels={LABELS} />
        <Field meta={fields.email} label={LABELS.email} type="email" autoComplete="email" inputMode="email" placeholder="nama@pln.co.id" />
        <SubmitButton className="btn btn-primary btn-block">Kirim</SubmitButton>
      </Form>
      <p className="muted center">
        Ingat kata sandi Anda? <Link to="/login">Login</Link>
      </p>
    </section>
  );
}
