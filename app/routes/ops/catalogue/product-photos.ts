import { redirect } from "react-router";
import type { Route } from "./+types/product-photos";
import { readForm } from "~/.server/http/request";
import { opsNotFound, requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { addProductPhotos } from "~/.server/store/catalogue";
import { parseId } from "~/lib/ids";

// POST /ops/catalogue/products/{id}/photos (issue 26 item 2): 'Foto Produk', several at once. Its own
// path, so only this form gets the larger body limit (request-guards.ts). The answer is the product
// page again, with what happened as its message.

export function loader({ params }: Route.LoaderArgs) {
  const productId = parseId(params.id);
  if (productId === null) throw opsNotFound();
  throw redirect(`/ops/catalogue/products/${productId}#foto`);
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const productId = parseId(params.id);
  if (productId === null) throw opsNotFound();
  const form = await readForm(request);
  const files = form.getAll("photos").filter((f): f is File => typeof f !== "string");
  const result = await addProductPhotos(operator.id, productId, files);
  flash(
    context,
    "toast",
    result.ok ? { type: "success", message: `${result.added} foto ditambahkan.` } : { type: "danger", message: result.message },
  );
  throw redirect(`/ops/catalogue/products/${productId}#foto`);
}
