import type { Route } from "./+types/order-ktp";
import { opsNotFound, requireStaff } from "~/.server/http/ops-access";
import { clientAddress } from "~/.server/http/request";
import { parseOrderId } from "~/.server/http/route-params";
import { openOrderKtp } from "~/.server/store/privacy";

// /ops/orders/:id/ktp (issue 35): an order's KTP photo, only for the staff who decide incentives
// (and admins), and every fetch is one row of the personal-data access log. Not cached anywhere, so
// each opening reaches the server and is recorded.

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const operator = requireStaff(context, "pesanan");
  const orderId = parseOrderId(params.id);
  if (orderId === null) return opsNotFound();
  const photo = await openOrderKtp({ operatorId: operator.id, clientAddress: clientAddress(request) }, orderId);
  if (!photo) return opsNotFound();
  return new Response(photo.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": photo.contentType,
      "Content-Length": String(photo.bytes.byteLength),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Content-Disposition": "inline",
    },
  });
}
