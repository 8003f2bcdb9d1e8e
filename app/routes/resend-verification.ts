import { redirect } from "react-router";
import type { Route } from "./+types/resend-verification";
import { clientAddress, readForm } from "~/.server/http/request";
import { flash, getUser } from "~/.server/http/session";
import { resendVerification } from "~/.server/store/people";
import { hitMailRateLimit, RATE_LIMITS } from "~/.server/store/people";
import { safeRedirect } from "~/lib/safe-redirect";

/** 'Kirim Ulang' on the activation banner: sends a new verification e-mail, then back to the page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const back = safeRedirect(form.get("redirectTo"), "/home");
  const user = getUser(context);
  if (!user) return redirect(`/authrequired?redirect=${encodeURIComponent(back)}`);
  const limited = await hitMailRateLimit(RATE_LIMITS.resend, clientAddress(request), String(user.id));
  if (!limited.allowed) {
    flash(context, "toast", { type: "danger", message: "Terlalu banyak permintaan. Coba lagi nanti." });
    return redirect(back);
  }
  const result = await resendVerification(user.id);
  flash(
    context,
    "toast",
    result.ok
      ? { type: "success", message: "Email aktivasi telah dikirim ulang. Silakan periksa email Anda." }
      : { type: "danger", message: result.message },
  );
  return redirect(back);
}

export const loader = () => redirect("/home");
