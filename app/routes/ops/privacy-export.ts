import { Readable } from "node:stream";
import type { Route } from "./+types/privacy-export";
import { requireStaff } from "~/.server/http/ops-access";
import { exportPersonalDataAccessCsv } from "~/.server/store/privacy";
import { recordAudit } from "~/.server/store/people";

// /ops/privacy/export?operator=&buyer= (admins, issue 35): the personal-data access log as CSV,
// streamed as it is read, with the page's filter. The export itself is audited like /ops/export.
export async function loader({ context, url }: Route.LoaderArgs) {
  const admin = requireStaff(context, "admin");
  const filter = {
    operator: (url.searchParams.get("operator") ?? "").trim().slice(0, 200),
    buyer: (url.searchParams.get("buyer") ?? "").trim().slice(0, 200),
  };
  await recordAudit(null, admin.id, "export", { detail: `log akses data pribadi ${url.search.slice(0, 280)}` });
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
  return new Response(Readable.toWeb(exportPersonalDataAccessCsv(filter)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="log-akses-data-pribadi-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
