import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { endSession } from "~/.server/http/auth";

/** Logout is a POST (a GET link could be triggered by any page); it ends the session server-side. */
export async function action({ context }: Route.ActionArgs) {
  await endSession(context);
  return redirect("/login");
}

export const loader = () => redirect("/profile");
