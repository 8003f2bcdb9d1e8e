import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/accounts";
import { requireStaff } from "~/.server/http/ops-access";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { changeAccountEmployment, findAccountsForOps, listAllCompanies, STANDING_LABELS } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";
import { hasRole } from "~/lib/staff-roles";
import { InputField, OpsMessage } from "../components";
import { parseId } from "~/lib/ids";

// /ops/accounts ('Pegawai', issue 27): buyer accounts found by e-mail or NIP with where each stands
// with its company's roster ('Belum terverifikasi HR' where the company loaded none). Changing an
// account's NIP or company is the admin's (spec: "only the admin can change it"), checked against
// the roster like a registration, and audited.

const TITLE = "Akun Pembeli";
export const handle: RouteHandle = { title: TITLE };

export async function loader({ context, url }: Route.LoaderArgs) {
  const staff = requireStaff(context);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const isAdmin = hasRole(staff.roles, "admin");
  return {
    q,
    accounts: (await findAccountsForOps(q)).map((a) => ({ ...a, standingLabel: STANDING_LABELS[a.standing] })),
    companies: isAdmin ? (await listAllCompanies()).map((c) => ({ id: c.id, name: c.name })) : null,
  };
}

type ActionData = { userId: number; errors: { nip?: string; companyId?: string; form?: string }; nip: string; companyId: string };

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireStaff(context);
  const form = await readForm(request);
  const userId = parseId(form.get("userId")) ?? 0;
  const nip = String(form.get("nip") ?? "");
  const companyId = String(form.get("companyId") ?? "");
  if (!userId) return data<ActionData>({ userId: 0, errors: { form: "Permintaan tidak valid." }, nip, companyId }, { status: 400 });
  const result = await changeAccountEmployment(admin.id, userId, { companyId: parseId(companyId) ?? 0, nip });
  if (!result.ok)
    return data<ActionData>(
      { userId, errors: result.field ? { [result.field]: result.message } : { form: result.message }, nip, companyId },
      { status: 400 },
    );
  flash(context, "toast", { type: "success", message: "NIP dan perusahaan akun disimpan." });
  throw redirect(`/ops/accounts${new URL(request.url).search}`);
}

export default function Accounts({ loaderData, actionData }: Route.ComponentProps) {
  const { q, accounts, companies } = loaderData;
  return (
    <>
      <p>
        <a href="/ops/employees">‹ Daftar Pegawai</a>
      </p>
      <h1>{TITLE}</h1>
      <form method="get" className="ops-card ops-inline-form">
        <label htmlFor="accounts-q">E-mail atau NIP</label>
        <input id="accounts-q" type="search" name="q" defaultValue={q} maxLength={100} />
        <button type="submit" className="ops-btn ops-btn-secondary">
          Cari
        </button>
      </form>
      <OpsMessage error={actionData && !actionData.userId ? actionData.errors.form : null} />
      {q && accounts.length === 0 ? <p className="ops-card">Tidak ada akun yang cocok.</p> : null}
      {accounts.map((a) => {
        const failed = actionData?.userId === a.id ? actionData : null;
        return (
          <section key={a.id} className="ops-card" data-testid="account-card" aria-label={a.email}>
            <dl className="ops-facts">
              <dt>Nama</dt>
              <dd>{a.fullname}</dd>
              <dt>E-mail</dt>
              <dd>{a.email}</dd>
              <dt>NIP</dt>
              <dd>{a.nip}</dd>
              <dt>Perusahaan</dt>
              <dd>{a.companyName}</dd>
              <dt>Status HR</dt>
              <dd data-testid="account-standing">{a.standingLabel}</dd>
            </dl>
            {companies ? (
              <Form method="post" className="ops-form" style={{ marginTop: 12, maxWidth: 420 }}>
                <input type="hidden" name="userId" value={a.id} />
                <OpsMessage error={failed?.errors.form} />
                <InputField
                  name="nip"
                  id={`nip-${a.id}`}
                  label="NIP"
                  defaultValue={failed?.nip ?? a.nip}
                  error={failed?.errors.nip}
                  maxLength={30}
                />
                <label htmlFor={`company-${a.id}`}>Perusahaan</label>
                <select id={`company-${a.id}`} name="companyId" defaultValue={failed?.companyId ?? String(a.companyId)}>
                  {companies.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
                {failed?.errors.companyId ? <p className="ops-error">{failed.errors.companyId}</p> : null}
                <div>
                  <button type="submit" className="ops-btn">
                    Simpan NIP dan Perusahaan
                  </button>
                </div>
              </Form>
            ) : null}
          </section>
        );
      })}
    </>
  );
}
