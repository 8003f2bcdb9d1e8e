import { getFormProps } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/register";
import { requireAnonymous, startSession } from "~/.server/http/auth";
import { clientAddress, readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { LINK_REQUEST_MESSAGES, listCompanies, registerUser } from "~/.server/store/people";
import { hitRateLimit, RATE_LIMITS } from "~/.server/store/people";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FormError, SelectField } from "~/components/field";
import { SubmitButton } from "~/components/submit-button";
import { parseForm, useSchemaForm } from "~/lib/forms";
import type { RouteHandle } from "~/lib/route-handle";
import { keepDigitsOnly, registerSchema } from "~/lib/schemas/account";
import { parseId } from "~/lib/ids";
import { PRIVACY_POLICY_PATH } from "~/lib/privacy";

export const handle: RouteHandle = { title: "Daftar", back: "/login" };

const LABELS = {
  fullname: "Nama Lengkap",
  phoneNo: "Nomor HP",
  nip: "NIP",
  companyId: "Perusahaan",
  email: "Email",
  password: "Kata Sandi",
  matchPassword: "Konfirmasi Kata Sandi",
};

// Passwords are never sent back to the browser.
const HIDDEN_FIELDS = ["password", "matchPassword"];

export async function loader({ context }: Route.LoaderArgs) {
  requireAnonymous(context);
  const companies = await listCompanies();
  return { companies: companies.map((c) => ({ value: String(c.id), label: c.name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAnonymous(context);
  const submission = parseForm(await readForm(request), registerSchema);
  if (submission.status !== "success") {
    return data({ reply: submission.reply({ hideFields: HIDDEN_FIELDS }) }, { status: 400 });
  }
  // Counted per client address, and only for complete forms: typing mistakes cost nothing.
  const limited = await hitRateLimit(RATE_LIMITS.register, clientAddress(request));
  if (!limited.allowed) {
    const minutes = Math.ceil(limited.retryAfterSeconds / 60);
    return data(
      {
        reply: submission.reply({
          formErrors: [`Terlalu banyak pendaftaran dari perangkat ini. Coba lagi dalam ${minutes} menit.`],
          hideFields: HIDDEN_FIELDS,
        }),
      },
      { status: 429 },
    );
  }
  const { companyId, ...account } = submission.value;
  const result = await registerUser({ ...account, companyId: parseId(companyId) ?? 0 });
  if (!result.ok) {
    return data(
      { reply: submission.reply({ fieldErrors: { [result.field ?? ""]: [result.message] }, hideFields: HIDDEN_FIELDS }) },
      { status: 400 },
    );
  }
  // Signed in at once, unverified; /home shows the "check your e-mail" modal and the banner. An
  // e-mail with an account already gets the same modal and redirect, and a mail saying so (store).
  if (result.value.userId !== null) await startSession(context, result.value.userId);
  flash(context, "modal", "registered");
  // The roster's entry is asked for, not linked (decision 0069): how the link is confirmed, told the
  // same way to both answers.
  if (result.value.rosterLink) flash(context, "toast", { type: "info", message: LINK_REQUEST_MESSAGES[result.value.rosterLink] });
  return redirect("/home");
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(registerSchema, { lastResult: actionData?.reply });
  return (
    <section className="auth-card">
      <h2>Buat Akun Baru</h2>
      <p className="muted">Khusus pegawai PLN Group.</p>
      <Form method="post" {...getFormProps(form)}>
        <FormError id={form.errorId} errors={form.errors} />
        <ErrorSummary form={form} labels={LABELS} />
        <Field meta={fields.fullname} label={LABELS.fullname} autoComplete="name" />
        <Field
          meta={fields.phoneNo}
          label={LABELS.phoneNo}
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          placeholder="08xxxxxxxxxx"
          onInput={keepDigitsOnly}
        />
        <Field
          meta={fields.nip}
          label={LABELS.nip}
          autoComplete="off"
          hint="Pastikan NIP yang Anda masukkan benar. NIP hanya dapat diubah oleh admin."
        />
        <SelectField meta={fields.companyId} label={LABELS.companyId} placeholder="Pilih perusahaan" options={loaderData.companies} />
        <Field meta={fields.email} label={LABELS.email} type="email" autoComplete="email" inputMode="email" placeholder="nama@pln.co.id" />
        <Field meta={fields.password} label={LABELS.password} type="password" autoComplete="new-password" />
        <Field meta={fields.matchPassword} label={LABELS.matchPassword} type="password" autoComplete="new-password" />
        <SubmitButton className="btn btn-primary btn-block">Daftar</SubmitButton>
      </Form>
      <p className="muted center">
        Sudah punya akun? <Link to="/login">Login</Link>
      </p>
      <p className="muted center small">
        Data Anda dijaga sesuai <Link to={PRIVACY_POLICY_PATH}>Kebijakan Privasi</Link>.
      </p>
    </section>
  );
}
