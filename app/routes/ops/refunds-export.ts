import type { Route } from "./+types/refunds-export";
import { requireStaff } from "~/.server/http/ops-access";
import { recordAudit } from "~/.server/store/people";
import { exportTransferRefundsCsv } from "~/.server/store/refunds";

// /ops/refunds/export: the transfer refunds 'Sedang Diproses' as CSV for the bank's bulk transfer (issue 36).
export async function loader({ context }: Route.LoaderArgs) {
  const operator = requireStaff(context, "keuangan");
  await recordAudit(null, operator.id, "refund-export");
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
  return new Response(await exportTransferRefundsCsv(), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="pengembalian-dana-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
