import { redirect } from "react-router";
import type { Route } from "./+types/index";

// /ops/catalogue: the products list is the catalogue's first screen.
export function loader() {
  throw redirect("/ops/catalogue/products");
}
