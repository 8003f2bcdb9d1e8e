import { redirect } from "react-router";

// /ops/catalogue: the products list is the catalogue's first screen.
export function loader() {
  throw redirect("/ops/catalogue/products");
}
