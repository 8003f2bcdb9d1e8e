import { Form, redirect } from "react-router";
import type { Route } from "./+types/employee-confirm";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { confirmRosterMatch, rosterMatchFor } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";
import { safeRedirect } from "~/lib/safe-redirect";

// /konfirmasi-pegawai (issue 35): after sign-in, an employee whose company loaded its roster after
// they registered confirms that the roster's entry with their NIP and name is theirs. A roster
// import never links accounts by itself (store/people/roster-links.ts); 'Nanti saja' goes on
// without it (the account stays without the employee promo until linked here or by an operator).

export const handle: RouteHandle = { title: "Konfirmasi Data Pegawai" };

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const next = safeRedirect(url.searchParams.get("redirect"), "/home");
  const match = await rosterMatchFor(user.id);
  if (!match) throw redirect(next);
  return { next, nip: match.nip, companyName: match.companyName };
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await readForm(request);
  const next = safeRedirect(String(form.get("redirect") ?? ""), "/home");
  if (form.get("intent") === "confirm") {
    const linked = await confirmRosterMatch(user.id);
    flash(context, "toast", {
      type: linked ? "success" : "danger",
      message: linked ? "Akun Anda terhubung dengan data pegawai." : "Data pegawai tidak dapat dihubungkan. Hubungi admin.",
    });
  }
  throw redirect(next);
}

export default function EmployeeConfirm({ loaderData }: Route.ComponentProps) {
  const { next, nip, companyName } = loaderData;
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
