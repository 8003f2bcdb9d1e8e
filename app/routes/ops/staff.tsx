import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/staff";
import { requireStaff } from "~/.server/http/ops-access";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { findUserByEmail, listStaff, resetSecondFactorFromOps, setStaffRolesFromOps } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";
import { isStaffRole, STAFF_ROLE_AREAS, STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from "~/lib/staff-roles";
import { InputField, OpsMessage } from "./components";
import { parseId } from "~/lib/ids";

// /ops/staff ('Admin', issue 27): who holds which role; roles granted and revoked per person
// through setStaffRoles (the person's sessions end: their next sign-in passes the second factor
// again). The page never removes the last admin (the CLI, run by whoever holds the server, can).
// Each person's standing ('Aktif', 'Belum aktivasi', 'Belum 2FA') shows beside their name; an admin
// resets a colleague's second factor (a lost phone: audited, they enrol again on their next sign-in).

const TITLE = "Staf dan Peran";
export const handle: RouteHandle = { title: TITLE };

export async function loader({ context }: Route.LoaderArgs) {
  const admin = requireStaff(context);
  return {
    // 'Atur ulang 2FA' only for a colleague with a second factor to reset: someone who never enrolled
    // ('Belum 2FA', 'Belum aktivasi') enrols on their next sign-in anyway (issue 38); never oneself.
    staff: (await listStaff()).map((member) => ({ ...member, resettable: member.standing === "Aktif" && member.id !== admin.id })),
    roles: STAFF_ROLES.map((role) => ({ role, label: STAFF_ROLE_LABELS[role], area: STAFF_ROLE_AREAS[role] })),
  };
}

type ActionData = { error?: string; userId?: number; email?: string; emailError?: string };

const rolesOf = (form: FormData): StaffRole[] => form.getAll("role").filter(isStaffRole);

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireStaff(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  let userId: number;
  if (intent === "reset-2fa") {
    userId = Number(form.get("userId"));
    if (!Number.isSafeInteger(userId) || userId <= 0) return data<ActionData>({ error: "Permintaan tidak valid." }, { status: 400 });
    const reset = await resetSecondFactorFromOps(admin.id, userId);
    if (!reset.ok) return data<ActionData>({ error: reset.message, userId }, { status: 409 });
    flash(context, "toast", {
      type: "success",
      message: "Verifikasi dua langkah diatur ulang. Orang itu mendaftarkan kode baru saat masuk lagi.",
    });
    throw redirect("/ops/staff");
  }
  if (intent === "add") {
    const email = String(form.get("email") ?? "").trim();
    if (!email) return data<ActionData>({ email, emailError: "Email tidak boleh kosong." }, { status: 400 });
    const user = await findUserByEmail(email);
    if (!user)
      return data<ActionData>({ email, emailError: "Tidak ada akun dengan email ini. Orang itu harus mendaftar dulu." }, { status: 400 });
    if (rolesOf(form).length === 0) return data<ActionData>({ email, error: "Pilih minimal satu peran." }, { status: 400 });
    userId = user.id;
  } else if (intent === "save") {
    userId = parseId(form.get("userId")) ?? 0;
    if (!userId) return data<ActionData>({ error: "Permintaan tidak valid." }, { status: 400 });
  } else return data<ActionData>({ error: "Permintaan tidak valid." }, { status: 400 });

  const result = await setStaffRolesFromOps(admin.id, userId, rolesOf(form));
  if (!result.ok) return data<ActionData>({ error: result.message, userId }, { status: 409 });
  flash(context, "toast", {
    type: "success",
    message: result.changed
      ? "Peran disimpan. Sesi orang itu diakhiri; ia masuk lagi dengan kode verifikasi."
      : "Tidak ada perubahan peran.",
  });
  throw redirect("/ops/staff");
}

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const { staff, roles } = loaderData;
  // Who holds which roles: changes with every successful 'Tambah Staf' or 'Simpan'.
  const staffRoster = staff.map((member) => `${member.id}:${member.roles.join("+")}`).join(",");
  return (
    <>
      <h1>{TITLE}</h1>
      <OpsMessage error={actionData?.error} />
      <div className="ops-table-wrap">
        <table className="ops-table">
          <thead>
            <tr>
              <th scope="col">Staf</th>
              <th scope="col">Status</th>
              <th scope="col">Peran</th>
            </tr>
          </thead>
          <tbody>
            {staff.map((member) => (
              <tr key={member.id} data-testid="staff-row">
                <td>
                  {member.fullname}
                  <br />
                  <span className="ops-muted ops-wrap-anywhere">{member.email}</span>
                </td>
                <td>
                  <span className={`ops-badge ops-standing-${member.standing === "Aktif" ? "ok" : "pending"}`} data-testid="staff-standing">
                    {member.standing}
                  </span>
                  {member.resettable ? (
                    <Form method="post" className="ops-staff-reset">
                      <input type="hidden" name="intent" value="reset-2fa" />
                      <input type="hidden" name="userId" value={member.id} />
                      <button type="submit" className="ops-btn ops-btn-secondary">
                        Atur ulang 2FA<span className="ops-sr-only"> {member.email}</span>
                      </button>
                    </Form>
                  ) : null}
                </td>
                <td>
                  <Form method="post" className="ops-inline-form" aria-label={`Peran ${member.email}`}>
                    <input type="hidden" name="intent" value="save" />
                    <input type="hidden" name="userId" value={member.id} />
                    {roles.map(({ role, label }) => (
                      <label key={role} className="ops-check">
                        <input type="checkbox" name="role" value={role} defaultChecked={member.roles.includes(role)} /> {label}
                      </label>
                    ))}
                    <button type="submit" className="ops-btn">
                      Simpan<span className="ops-sr-only"> peran {member.email}</span>
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <section className="ops-card" aria-labelledby="add-staff" style={{ marginTop: 16 }}>
        <h2 id="add-staff">Tambah Staf</h2>
        {/* Emptied after a colleague is added (keyed by who holds which roles), as the page is without
            JavaScript: the e-mail and the ticks left in place invited a second add (issue 38). */}
        <Form method="post" className="ops-form" style={{ maxWidth: 480 }} key={staffRoster}>
          <input type="hidden" name="intent" value="add" />
          <InputField name="email" label="Email akun" type="email" defaultValue={actionData?.email} error={actionData?.emailError} />
          <fieldset className="ops-form" style={{ border: 0, padding: 0 }}>
            <legend>Peran</legend>
            {roles.map(({ role, label, area }) => (
              <label key={role} className="ops-check ops-role-choice">
                <input type="checkbox" name="role" value={role} />
                <span>
                  {label} <span className="ops-muted">— {area}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit" className="ops-btn">
              Tambah Staf
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}
