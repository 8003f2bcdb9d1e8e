import { data, Form, Link } from "react-router";
import type { Route } from "./+types/employee-confirm-email";
import { readForm } from "~/.server/http/request";
import { confirmLinkByCode, LINK_CODE_INVALID, linkRequestByCode } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";

// /konfirmasi-pegawai/email?kode=… (issue 45 item 11, decision 0069): the link sent to the work
// e-mail on the roster. Opening it changes nothing (mail scanners open links too): the page names
// the account that asked and 'Ya, Hubungkan' (a POST) links it. No sign-in: the work mailbox is the
// proof, and it may be read on another device.

export const handle: RouteHandle = { title: "Konfirmasi Data Pegawai" };

export async function loader({ url }: Route.LoaderArgs) {
  const code = (url.searchParams.get("kode") ?? "").slice(0, 200);
  const request = code ? await linkRequestByCode(code) : null;
  return { code, request, invalid: LINK_CODE_INVALID };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const result = await confirmLinkByCode(String(form.get("kode") ?? ""));
  if (!result.ok) return data({ linked: false, error: result.message }, { status: 409 });
  return { linked: true, error: null };
}

export default function EmployeeConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { code, request } = loaderData;
  if (actionData?.linked)
    return (
      <section className="card" data-testid="employee-confirm-email">
        <p role="status">Akun berhasil terhubung dengan data pegawai. Harga dan promo pegawai kini berlaku untuk akun tersebut.</p>
        <Link to="/login" className="btn btn-primary btn-block">
          Login
        </Link>
      </section>
    );
  if (actionData?.error || !request)
    return (
      <section className="card" data-testid="employee-confirm-email">
        <p role="alert">{actionData?.error ?? loaderData.invalid}</p>
        <Link to="/home" className="btn btn-outline btn-block">
          Ke Beranda
        </Link>
      </section>
    );
  return (
    <section className="card" data-testid="employee-confirm-email">
      <p>
        Akun <strong>{request.accountEmail}</strong> meminta dihubungkan dengan data pegawai <strong>{request.companyName}</strong> NIP{" "}
        <strong>{request.nip}</strong>.
      </p>
      <p className="muted">Hubungkan hanya jika akun itu milik Anda. Jika bukan, tutup halaman ini: data pegawai Anda tidak berubah.</p>
      <Form method="post" className="button-column">
        <input type="hidden" name="kode" value={code} />
        <button type="submit" className="btn btn-primary btn-block">
          Ya, Hubungkan
        </button>
      </Form>
    </section>
  );
}
