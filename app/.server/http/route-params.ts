import { data } from "react-router";
import { parseId } from "~/lib/ids";

// An order's id in a buyer or back-office URL (/payment/:id, /transaction-detail/:id, /ops/order/:id,
// /checkout?selesai=…), and the 404 page for ids that name no order of the reader (issue 34: these
// were written three times). An id is what the orders table's integer column can hold.

/** The 404 page (an unknown id, or an order that is not the reader's: both look the same). */
export function notFound(): never {
  throw data("Not Found", { status: 404 });
}

/** The order id in `raw`, or null when it cannot be one. */
export function parseOrderId(raw: string | null | undefined): number | null {
  return parseId(raw);
}

/** The order id of a route parameter; anything else is the 404 page. */
export function orderIdOf(raw: string | undefined): number {
  return parseOrderId(raw) ?? notFound();
}
