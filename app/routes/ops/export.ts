import { Readable } from "node:stream";
import type { Route } from "./+types/export";
import { requireStaff } from "~/.server/http/ops-access";
import { readOrderSearch } from "~/.server/store/back-office";
import { listOrderStatuses } from "~/.server/store/orders";
import { recordAudit } from "~/.server/store/people";
import { exportOrdersCsv } from "~/.server/store/back-office";

// /ops/export?dateFrom=&dateTo=&statusId= (issue 17): the orders as CSV for finance, streamed as it
// is read (a resource route: no page). The same criteria as /ops/search.
export async function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireStaff(context);
  const statuses = await listOrderStatuses();
  const { search } = readOrderSearch(
    Object.fromEntries(url.searchParams),
    statuses.map((s) => s.id),
  );
  await recordAudit(null, operator.id, "export", { detail: url.search.slice(0, 300) });
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
  return new Response(Readable.toWeb(exportOrdersCsv(search)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="pesanan-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
