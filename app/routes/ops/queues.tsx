import type { Route } from "./+types/queues";
import { requireStaff } from "~/.server/http/ops-access";
import {
  DASHBOARD_DAYS,
  formatAge,
  incentiveDecisions,
  LOW_STOCK_LIMIT,
  lowStock,
  ordersByStatus,
  ordersPerDay,
  queueSummaries,
  topProducts,
} from "~/.server/store/back-office";
import { openIncidentSummary } from "~/.server/store/payments";
import { refundCounts } from "~/.server/store/refunds";
import { formatRupiah } from "~/lib/money";
import { REFUND_STATE_NAMES } from "~/lib/refunds";
import type { RouteHandle } from "~/lib/route-handle";
import { hasRole } from "~/lib/staff-roles";
import { bothWidths, dailyColumns, dailyRupiahLine, dayLabel, labelledRows } from "./charts.server";
import { Chart, DataTable } from "./charts";

// /ops: the back office's home for every staff member: the queues their roles work on ('Pesanan':
// the order queues; 'Keuangan': the withdrawals, the refunds waiting for finance's transfer and the
// open payment incidents, so a finance clerk's home shows their work — issue 43), each with how
// many wait and how long the oldest has waited; below, how the store did in the last 30 days (WIB), each figure for the roles that
// may see its data (decision 0051): orders, revenue, statuses and top products for 'Pesanan' and
// 'Keuangan'; incentive decisions for 'Pesanan'; low stock for 'Pesanan' and 'Katalog'.
export const handle: RouteHandle = { title: "Antrean Back Office" };

export async function loader({ context }: Route.LoaderArgs) {
  const staff = requireStaff(context);
  const now = new Date();
  const may = (role: Parameters<typeof hasRole>[1]) => hasRole(staff.roles, role);
  const mayWork = (key: string) => may(key === "penarikan" ? "keuangan" : "pesanan");
  const seesSales = may(["pesanan", "keuangan"]);
  const [queues, days, statuses, incentives, top, stock, refundStates, incidents] = await Promise.all([
    queueSummaries(),
    seesSales ? ordersPerDay() : null,
    seesSales ? ordersByStatus() : null,
    may("pesanan") ? incentiveDecisions() : null,
    seesSales ? topProducts() : null,
    may(["pesanan", "katalog"]) ? lowStock() : null,
    may("keuangan") ? refundCounts() : null,
    may("keuangan") ? openIncidentSummary() : null,
  ]);
  const card = (key: string, title: string, href: string, count: number, oldest: Date | null, amount?: number) => ({
    key,
    title,
    count,
    href,
    oldest: oldest ? formatAge(oldest, now) : null,
    amount: amount ? formatRupiah(amount) : null,
  });
  const finance = [];
  // 'Sedang Diproses' is the state in which a refund waits for finance (a transfer to the buyer's
  // account, or the gateway's refund); the other open states wait for the buyer.
  if (refundStates) {
    // A manual transfer's refund waits first for finance to find its money on the bank statement
    // (decision 0068). No amount on it: nothing is received until finance confirms what arrived.
    const funds = refundStates["awaiting-funds"];
    finance.push(
      card("konfirmasi-dana", REFUND_STATE_NAMES["awaiting-funds"], "/ops/refunds?state=awaiting-funds", funds.count, funds.since),
    );
    const { count, amount, since } = refundStates.processing;
    finance.push(
      card("pengembalian", `Pengembalian Dana ${REFUND_STATE_NAMES.processing}`, "/ops/refunds?state=processing", count, since, amount),
    );
  }
  if (incidents) finance.push(card("insiden", "Insiden Pembayaran", "/ops/refunds#insiden", incidents.count, incidents.since));
  return {
    queues: [
      ...queues
        .filter((q) => mayWork(q.key))
        .map((q) => card(q.key, q.title, q.key === "penarikan" ? "/ops/withdrawals" : `/ops/queue/${q.key}`, q.count, q.oldest)),
      ...finance,
    ],
    sales: days
      ? {
          ordersChart: bothWidths((w) =>
            dailyColumns(
              days.map((d) => ({ day: d.day, value: d.orders })),
              w,
            ),
          ),
          revenueChart: bothWidths((w) =>
            dailyRupiahLine(
              days.map((d) => ({ day: d.day, value: d.paidRevenue })),
              w,
            ),
          ),
          days: days.map((d) => ({ label: dayLabel(d.day), orders: d.orders, paidRevenue: formatRupiah(d.paidRevenue) })),
          totals: {
            orders: days.reduce((n, d) => n + d.orders, 0),
            paidRevenue: formatRupiah(days.reduce((n, d) => n + d.paidRevenue, 0)),
          },
        }
      : null,
    statuses: statuses
      ? {
          chart: bothWidths((w) =>
            labelledRows(
              statuses.map((s) => ({ label: s.name, value: s.count })),
              w,
            ),
          ),
          rows: statuses.map((s) => [s.name, String(s.count)] as [string, string]),
        }
      : null,
    incentives: incentives
      ? {
          chart: bothWidths((w) =>
            labelledRows(
              [
                { label: "Disetujui", value: incentives.approved },
                { label: "Ditolak", value: incentives.rejected },
                { label: "Menunggu", value: incentives.waiting },
              ],
              w,
            ),
          ),
          rows: [
            ["Disetujui", String(incentives.approved)],
            ["Ditolak", String(incentives.rejected)],
            ["Menunggu", String(incentives.waiting)],
          ] as [string, string][],
        }
      : null,
    top: top
      ? {
          chart: bothWidths((w) =>
            labelledRows(
              top.map((p) => ({ label: p.title, value: p.orders })),
              w,
            ),
          ),
          rows: top.map((p) => ({ title: p.title, orders: p.orders, revenue: formatRupiah(p.revenue) })),
        }
      : null,
    stock,
    days: DASHBOARD_DAYS,
    lowStockLimit: LOW_STOCK_LIMIT,
  };
}

export default function Queues({ loaderData }: Route.ComponentProps) {
  const { sales, statuses, incentives, top, stock, days, lowStockLimit } = loaderData;
  return (
    <>
      <h1>Antrean</h1>
      {loaderData.queues.length === 0 ? <p>Tidak ada antrean untuk peran Anda. Pilih menu di atas.</p> : null}
      <ul className="ops-queues">
        {loaderData.queues.map((q) => (
          <li key={q.key}>
            <a className="ops-queue" href={q.href} data-testid={`queue-${q.key}`}>
              <span className="ops-queue-title">{q.title}</span>
              <span className="ops-queue-count" data-testid="queue-count">
                {q.count}
              </span>
              {q.amount ? (
                <span className="ops-queue-amount" data-testid="queue-amount">
                  {q.amount}
                </span>
              ) : null}
              <span className="ops-queue-age">{q.oldest ? `Terlama menunggu: ${q.oldest}` : "Tidak ada yang menunggu"}</span>
            </a>
          </li>
        ))}
      </ul>

      {sales || incentives || stock ? <h2 className="ops-section-title">{days} Hari Terakhir (WIB)</h2> : null}
      <div className="ops-grid ops-dashboard">
        {sales ? (
          <>
            <section className="ops-card" aria-labelledby="orders-per-day">
              <h2 id="orders-per-day">Pesanan per Hari</h2>
              <p className="ops-muted">Total {sales.totals.orders.toLocaleString("id-ID")} pesanan</p>
              <Chart id="orders" title={`Grafik pesanan per hari, ${days} hari terakhir`} charts={sales.ordersChart} />
              <DataTable
                caption="Pesanan per hari"
                head={["Tanggal", "Pesanan"]}
                rows={sales.days.map((d) => [d.label, String(d.orders)])}
              />
            </section>
            <section className="ops-card" aria-labelledby="revenue-per-day">
              <h2 id="revenue-per-day">Pendapatan Dibayar per Hari</h2>
              <p className="ops-muted">Total {sales.totals.paidRevenue}</p>
              <Chart id="revenue" title={`Grafik pendapatan dibayar per hari, ${days} hari terakhir`} charts={sales.revenueChart} />
              <DataTable
                caption="Pendapatan dibayar per hari"
                head={["Tanggal", "Pendapatan"]}
                rows={sales.days.map((d) => [d.label, d.paidRevenue])}
              />
            </section>
          </>
        ) : null}
        {statuses ? (
          <section className="ops-card" aria-labelledby="orders-by-status">
            <h2 id="orders-by-status">Pesanan per Status</h2>
            {statuses.rows.length ? (
              <Chart id="statuses" title="Grafik pesanan per status" charts={statuses.chart} />
            ) : (
              <p>Belum ada pesanan.</p>
            )}
            <DataTable caption="Pesanan per status" head={["Status", "Pesanan"]} rows={statuses.rows} />
          </section>
        ) : null}
        {incentives ? (
          <section className="ops-card" aria-labelledby="incentive-decisions">
            <h2 id="incentive-decisions">Pengajuan Insentif</h2>
            <Chart id="incentives" title="Grafik pengajuan insentif: disetujui, ditolak, menunggu" charts={incentives.chart} />
            <DataTable caption="Pengajuan insentif" head={["Keputusan", "Pengajuan"]} rows={incentives.rows} />
          </section>
        ) : null}
        {top ? (
          <section className="ops-card" aria-labelledby="top-products">
            <h2 id="top-products">10 Produk Terlaris</h2>
            {top.rows.length ? (
              <Chart id="top" title="Grafik 10 produk terlaris menurut jumlah pesanan" charts={top.chart} />
            ) : (
              <p>Belum ada pesanan.</p>
            )}
            <DataTable
              caption="10 produk terlaris"
              head={["Produk", "Pesanan"]}
              rows={top.rows.map((p) => [p.title, `${p.orders} pesanan, ${p.revenue} dibayar`])}
            />
          </section>
        ) : null}
        {stock ? (
          <section className="ops-card" aria-labelledby="low-stock">
            <h2 id="low-stock">Stok Menipis (≤ {lowStockLimit})</h2>
            {stock.length === 0 ? (
              <p>Tidak ada produk dengan stok menipis.</p>
            ) : (
              <table className="ops-table">
                <thead>
                  <tr>
                    <th scope="col">Produk</th>
                    <th scope="col" className="num">
                      Stok
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {stock.map((p) => (
                    <tr key={p.productId} data-testid="low-stock-row">
                      <td>{p.title}</td>
                      <td className="num">{p.stock}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ) : null}
      </div>
    </>
  );
}
