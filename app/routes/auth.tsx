import { redirect } from "react-router";
import type { Route } from "./+types/auth";

// Spec §2: /auth redirects to /login (keeping a redirect query, if any).
export const loader = ({ url }: Route.LoaderArgs) => redirect(`/login${url.search}`);
