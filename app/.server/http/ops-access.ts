import { redirect, type RouterContextProvider } from "react-router";
import { flash, getUser } from "./session";
import type { SessionUser } from "../store/people";
import { hasRole, type StaffRole } from "~/lib/staff-roles";

// Who may use the back office (issues 17 and 27). Staff are people with at least one role
// (~/lib/staff-roles). Anyone else gets the plain 404 of an unknown address, on every /ops page,
// action, export and image: nothing tells that /ops exists. A screen or action outside a person's
// roles answers the same 404 (and is not in their menu): the /ops layout's middleware checks the
// area of every request against ~/lib/ops-areas. Staff who have not passed the second factor in
// this session are sent to /ops/2fa. Staff whose account is not activated yet (e-mail not
// verified, issue 38) are sent to /home, where the activation banner offers the e-mail again.

export const OPS_HOME = "/ops";
export const SECOND_FACTOR_PATH = "/ops/2fa";

export function opsNotFound(): Response {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export type Staff = SessionUser;

export const OPS_NEEDS_ACTIVATION = "Aktifkan akun Anda melalui e-mail aktivasi sebelum membuka back office.";

/**
 * The signed-in staff member who may use something needing any of `role` (none: any staff member);
 * throws the 404 (no role, or not this one) or the redirect to /ops/2fa (factor not passed yet).
 * The layout's middleware has checked the request's area (~/lib/ops-areas) before any /ops loader or
 * action runs; they call it without a role to get the person, and with one only for a check finer
 * than the area (an order decision's own role).
 */
export function requireStaff(
  context: Readonly<RouterContextProvider>,
  role?: StaffRole | readonly StaffRole[],
  options: { secondFactor?: boolean } = {},
): Staff {
  const user = getUser(context);
  if (!user || user.roles.length === 0) throw opsNotFound();
  if (!user.verified) {
    flash(context, "toast", { type: "warning", message: OPS_NEEDS_ACTIVATION });
    throw redirect("/home");
  }
  if ((options.secondFactor ?? true) && !user.secondFactorPassed) throw redirect(SECOND_FACTOR_PATH);
  if (role !== undefined && !hasRole(user.roles, role)) throw opsNotFound();
  return user;
}

/** Staff of the orders area who passed the second factor: they may open any order's images (KTP, proofs). */
export function mayOpenOrderImages(user: SessionUser | null): boolean {
  return !!user && user.secondFactorPassed && hasRole(user.roles, "pesanan");
}
