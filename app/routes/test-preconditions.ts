import { Secret, TOTP } from "otpauth";
import { data, type ActionFunctionArgs } from "react-router";
import { readForm } from "~/.server/http/request";
import { testDoorNotFound as notFound, testDoorOpen } from "~/.server/http/test-door";
import { setSessionId } from "~/.server/http/session";
import {
  confirmEnrolment,
  createSession,
  getFactorState,
  grantRolesByEmail,
  listCompanies,
  markSecondFactorPassed,
  markVerified,
  registerUser,
  setOperatorRole,
} from "~/.server/store/people";
import { isStaffRole, type StaffRole } from "~/lib/staff-roles";

/**
 * The end-to-end tests' preconditions (issue 44, decision 0066): POST /__test/account makes an account
 * with the same store functions the doors call (registerUser as /register, markVerified as the
 * activation link, setOperatorRole / grantRolesByEmail as the ops CLI, getFactorState and
 * confirmEnrolment as /ops/2fa, createSession and markSecondFactorPassed as /login and /ops/2fa) and
 * signs the caller in with the cookie the real login sets: a spec drives through the screens only
 * what it is about. No SQL of its own.
 *
 * It exists only on a server started with STORE_TEST_DOOR=1 (http/test-door.ts).
 */

export function loader() {
  return notFound();
}

/**
 * Form fields: email, password, fullname, phone, nip, company (its name), verified ("0": not
 * activated; default activated), roles ("operator": the store's first admin as
 * `users:grant-operator`; else role names separated by spaces, as `users:grant`), factor ("0": staff
 * without an enrolled second factor), session ("0": no session). Answers JSON {userId, totpSecret?}.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!testDoorOpen()) return notFound();
  // The one guarded reader: a body that is not a form is an empty form (400 below), not a 500.
  const form = await readForm(request);
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const email = field("email");
  const companies = await listCompanies();
  const company = field("company") ? companies.find((c) => c.name === field("company")) : companies[0];
  if (!email || !company) return data({ error: "email and a known company are needed" }, { status: 400 });

  const registered = await registerUser({
    fullname: field("fullname") || "Rina Wulandari",
    phoneNo: field("phone") || "081234567890",
    nip: field("nip"),
    companyId: company.id,
    email,
    password: field("password"),
  });
  if (!registered.ok) return data({ error: registered.message }, { status: 400 });
  if (!registered.value.userId) return data({ error: "the e-mail has an account already" }, { status: 409 });
  const userId = registered.value.userId;
  if (field("verified") !== "0") await markVerified(email);

  const roles = field("roles").split(/\s+/).filter(Boolean);
  let totpSecret: string | undefined;
  if (roles.length) {
    if (roles.join() === "operator") await setOperatorRole(email, true);
    else if (roles.every(isStaffRole)) await grantRolesByEmail(email, roles as StaffRole[], "ops");
    else return data({ error: `unknown role in ${roles.join(" ")}` }, { status: 400 });
    if (field("factor") !== "0") {
      const state = await getFactorState(userId, email);
      if (state.enrolled) return data({ error: "factor enrolled already" }, { status: 409 });
      totpSecret = state.secret;
      const code = new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30 }).generate();
      const enrolled = await confirmEnrolment(userId, email, code);
      if (!enrolled.ok) return data({ error: enrolled.message }, { status: 500 });
    }
  }

  if (field("session") !== "0") {
    const sid = await createSession(userId);
    if (totpSecret) await markSecondFactorPassed(sid);
    // The root middleware (sessionMiddleware) writes it as the login's signed cookie.
    setSessionId(context, sid);
  }
  return data({ userId, totpSecret });
}
