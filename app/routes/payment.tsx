import { NotAvailable } from "~/components/not-available";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Pembayaran", back: "/transaction" };

// Built by a later issue; until then the guarded screen exists and says it is not available yet.
export default function Screen() {
  return <NotAvailable what="Pembayaran Pesanan" />;
}
