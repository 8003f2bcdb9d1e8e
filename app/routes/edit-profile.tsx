import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/edit-profile";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { getProfile, updateProfile } from "~/.server/store/people";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FormError } from "~/components/field";
import { SubmitButton } from "~/components/submit-button";
import { parseForm, useSchemaForm } from "~/lib/forms";
import type { RouteHandle } from "~/lib/route-handle";
import { editProfileSchema, keepDigitsOnly } from "~/lib/schemas/account";

export const handle: RouteHandle = { title: "Ubah Profil", back: "/profile" };

const LABELS = { fullname: "Nama Lengkap", phoneNo: "Nomor HP" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const profile = await getProfile(user.id);
  if (!profile) throw data("Not Found", { status: 404 });
  return { fullname: profile.fullname, phoneNo: profile.phoneNo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const submission = parseForm(await readForm(request), editProfileSchema);
  if (submission.status !== "success") {
    return data({ reply: submission.reply() }, { status: 400 });
  }
  await updateProfile(user.id, submission.value);
  flash(context, "toast", { type: "success", message: "Profil berhasil diperbarui." });
  return redirect("/profile");
}

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(editProfileSchema, { lastResult: actionData?.reply, defaultValue: loaderData });
  return (
    <section className="card">
      <Form method="post" {...getFormProps(form)}>
        <FormError id={form.errorId} errors={form.errors} />
        <ErrorSummary form={form} labels={LABELS} />
        <Field meta={fields.fullname} label={LABELS.fullname} autoComplete="name" />
        <Field meta={fields.phoneNo} label={LABELS.phoneNo} type="tel" inputMode="numeric" autoComplete="tel" onInput={keepDigitsOnly} />
        <SubmitButton className="btn btn-primary btn-block">Simpan</SubmitButton>
      </Form>
    </section>
  );
}
