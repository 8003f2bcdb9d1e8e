import { redirect } from "react-router";
import type { Route } from "./+types/verify-account";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { verifyAccount } from "~/.server/store/people";

/**
 * The confirmation step of the e-mail link (/home?verificationCode=…) posts here: links act only on
 * POST because mail scanners open them. Success: the 'Akun berhasil diaktivasi!' modal on a clean
 * /home; a link of an account that is already active: the 'Akun sudah aktif' modal (with a way to
 * log in or shop); failure: a danger toast with the server's message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const code = form.get("verificationCode");
  const result = await verifyAccount(typeof code === "string" ? code : "");
  if (result.ok) flash(context, "modal", result.value.alreadyActive ? "account-already-active" : "account-activated");
  else flash(context, "toast", { type: "danger", message: result.message });
  return redirect("/home");
}

export const loader = () => redirect("/home");
