import type { Route } from "./+types/refunds-export";
import { requireStaff } from "~/.server/http/ops-access";
import { recordAudit } from "~/.server/store/people";
import { exportTransferRefundsCsv, exportTransferRefundsXlsx } from "~/.server/store/refunds";

// /ops/refunds/export: the transfer refunds 'Sedang Diproses' for the bank's bulk transfer (issue
// 36), as CSV, or with ?format=xlsx as an Excel workbook whose account numbers keep their leading
// zeros (issue 43: Excel reads a CSV's 002101000123501 as a number).
export async function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireStaff(context, "keuangan");
  const xlsx = url.searchParams.get("format") === "xlsx";
  await recordAudit(null, operator.id, "refund-export");
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
  const name = `pengembalian-dana-${day}`;
  const headers = { "Cache-Control": "private, no-store" };
  if (xlsx)
    return new Response(new Uint8Array(await exportTransferRefundsXlsx()), {
      headers: {
        ...headers,
        "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "Content-Disposition": `attachment; filename="${name}.xlsx"`,
      },
    });
  return new Response(await exportTransferRefundsCsv(), {
    headers: { ...headers, "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}.csv"` },
  });
}
