import { redirect } from "react-router";
import type { Route } from "./+types/auth";

// Spec §2: /auth redirects to /login (keeping a redirect query, if any).
export const loader = ({ request }: Route.LoaderArgs) => redirect(`/login${new URL(request.url).search}`);
