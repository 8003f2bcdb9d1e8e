import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/employee-confirm";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { LINK_REQUEST_MESSAGES, openLinkRequestOf, requestRosterMatch, rosterMatchFor } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";
import { safeRedirect } from "~/lib/safe-redirect";

// /konfirmasi-pegawai (issues 35, 45): after sign-in, an employee whose company loaded its roster
// after they registered asks to be linked to the roster's entry with their NIP and name. Asking
// links nothing by itself (decision 0069): the link is confirmed from the work e-mail on the roster
// or by the HR operator; this page then says which, for as long as the request waits. 'Nanti saja'
// goes on without it (no employee price until linked).

export const handle: RouteHandle = { title: "Konfirmasi Data Pegawai" };

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const next = safeRedirect(url.searchParams.get("redirect"), "/home");
  const pending = await openLinkRequestOf(user.id);
  if (pending) return { next, nip: pending.nip, companyName: pending.companyName, waiting: LINK_REQUEST_MESSAGES[pending.route] };
  const match = await rosterMatchFor(user.id);
  if (!match) throw redirect(next);
  return { next, nip: match.nip, companyName: match.companyName, waiting: null };
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await readForm(request);
  const next = safeRedirect(String(form.get("redirect") ?? ""), "/home");
  if (form.get("intent") === "confirm") {
    const route = await requestRosterMatch(user.id);
    // The page again: it now says how the request is confirmed.
    if (route) throw redirect(`/konfirmasi-pegawai?redirect=${encodeURIComponent(next)}`);
    flash(context, "toast", { type: "danger", message: "Data pegawai tidak dapat dihubungkan. Hubungi admin." });
  }
  throw redirect(next);
}

export default function EmployeeConfirm({ loaderData }: Route.ComponentProps) {
  const { next, nip, companyName, waiting } = loaderData;
  if (waiting)
    return (
      <section className="card" data-testid="employee-confirm">
        <p>
          Permintaan menghubungkan akun ini dengan data pegawai <strong>{companyName}</strong> NIP <strong>{nip}</strong> sudah kami terima.
        </p>
        <p data-testid="employee-confirm-waiting">{waiting}</p>
        <Link to={next} className="btn btn-primary btn-block">
          Lanjut
        </Link>
      </section>
    );
  return (
    <section className="card" data-testid="employee-confirm">
      <p>
        Data Anda ditemukan di daftar pegawai <strong>{companyName}</strong> dengan NIP <strong>{nip}</strong>. Hubungkan akun ini dengan
        data pegawai tersebut agar Anda mendapat harga dan promo pegawai?
      </p>
      <p className="muted">Jika NIP ini bukan milik Anda, pilih &lsquo;Nanti saja&rsquo; dan hubungi admin.</p>
      <Form method="post" className="button-column">
        <input type="hidden" name="redirect" value={next} />
        <button type="submit" name="intent" value="confirm" className="btn btn-primary btn-block">
          Ya, Hubungkan
        </button>
        <button type="submit" name="intent" value="later" className="btn btn-outline btn-block">
          Nanti saja
        </button>
      </Form>
    </section>
  );
}
