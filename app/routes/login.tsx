import { getFormProps } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/login";
import { login, requireAnonymous, startSession } from "~/.server/http/auth";
import { rosterMatchFor } from "~/.server/store/people";
import { flash } from "~/.server/http/session";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FormError } from "~/components/field";
import { SubmitButton } from "~/components/submit-button";
import { useSchemaForm } from "~/lib/forms";
import type { RouteHandle } from "~/lib/route-handle";
import { safeRedirect } from "~/lib/safe-redirect";
import { DATA_EXPORT_LOGIN_REASON, isDataExportLanding } from "~/lib/data-export-link";
import { loginSchema } from "~/lib/schemas/account";

export const handle: RouteHandle = { title: "Login" };

const LABELS = { email: "Email", password: "Kata Sandi" };

export function loader({ context, url }: Route.LoaderArgs) {
  requireAnonymous(context);
  const target = url.searchParams.get("redirect");
  return { redirect: target ? safeRedirect(target) : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAnonymous(context);
  const outcome = await login(request);
  if (!outcome.ok) return data({ reply: outcome.reply }, { status: outcome.status });
  await startSession(context, outcome.userId);
  flash(context, "toast", { type: "success", message: "Login berhasil. Selamat datang!" });
  // Issue 35: an employee whose company loaded its roster after they registered confirms the link.
  if (await rosterMatchFor(outcome.userId)) return redirect(`/konfirmasi-pegawai?redirect=${encodeURIComponent(outcome.redirectTo)}`);
  return redirect(outcome.redirectTo);
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(loginSchema, { lastResult: actionData?.reply });
  return (
    <section className="auth-card">
      <h2>Masuk ke Akun Anda</h2>
      {/* Reached from the e-mailed 'Unduh Data Saya' link: why it asks to sign in (issue 43 item 2). */}
      {isDataExportLanding(loaderData.redirect) ? (
        <p className="auth-reason" data-testid="login-reason">
          {DATA_EXPORT_LOGIN_REASON}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <FormError id={form.errorId} errors={form.errors} />
        <ErrorSummary form={form} labels={LABELS} />
        <input type="hidden" name="redirect" value={loaderData.redirect} />
        <Field
          meta={fields.email}
          label={LABELS.email}
          type="email"
          autoComplete="username"
          inputMode="email"
          placeholder="nama@pln.co.id"
        />
        <Field meta={fields.password} label={LABELS.password} type="password" autoComplete="current-password" />
        <p className="align-end">
          <Link to="/send-email">Lupa Kata Sandi?</Link>
        </p>
        <SubmitButton className="btn btn-primary btn-block">Login</SubmitButton>
      </Form>
      <p className="muted center">
        Belum punya akun? <Link to="/register">Daftar</Link>
      </p>
    </section>
  );
}
