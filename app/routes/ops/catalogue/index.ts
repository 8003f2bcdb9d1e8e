import { redirect } from "react-router";
import type { Route } from "./+types/index";
import { requireStaff } from "~/.server/http/ops-access";

// /ops/catalogue: the products list is the catalogue's first screen.
export function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "katalog");
  throw redirect("/ops/catalogue/products");
}
