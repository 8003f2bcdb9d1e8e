import { redirect, type RouterContextProvider } from "react-router";
import { getUser } from "./session";
import type { SessionUser } from "../store/people";

// Who may use the back office (issue 17). Anyone without the operator role gets the plain 404 of
// an unknown address, on every /ops page, action, export and image: nothing tells that /ops exists.
// An operator who has not passed the second factor in this session is sent to /ops/2fa.

export const OPS_HOME = "/ops";
export const SECOND_FACTOR_PATH = "/ops/2fa";

export function opsNotFound(): Response {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export type Operator = SessionUser & { role: "operator" };

/** The signed-in operator; throws the 404 (no role) or the redirect to /ops/2fa (factor not passed yet). */
export function requireOperator(context: Readonly<RouterContextProvider>, options: { secondFactor?: boolean } = {}): Operator {
  const user = getUser(context);
  if (!user || user.role !== "operator") throw opsNotFound();
  if ((options.secondFactor ?? true) && !user.secondFactorPassed) throw redirect(SECOND_FACTOR_PATH);
  return user as Operator;
}

/** Operators who passed the second factor: they may open any order's images. */
export function isCheckedOperator(user: SessionUser | null): boolean {
  return !!user && user.role === "operator" && user.secondFactorPassed;
}
