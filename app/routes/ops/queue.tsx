import { data } from "react-router";
import type { Route } from "./+types/queue";
import { requireOperator } from "~/.server/ops-access";
import { formatAge, formatWhen, pageParam } from "~/.server/ops-format";
import { isOrderQueue, listQueue, QUEUES } from "~/.server/store/back-office";
import { formatRupiah } from "~/lib/money";
import type { RouteHandle } from "~/lib/route-handle";
import { Pager } from "./components";

export const handle: RouteHandle = { title: "Antrean Back Office" };

// /ops/queue/:queue: one queue of orders, the one that has waited longest first, paged with links.

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireOperator(context);
  const name = params.queue ?? "";
  if (!isOrderQueue(name)) throw data("Not Found", { status: 404 });
  const page = await listQueue(name, pageParam(url));
  const now = new Date();
  return {
    title: QUEUES[name].title,
    page: page.page,
    pageCount: page.pageCount,
    total: page.total,
    items: page.items.map((o) => ({ ...o, createdAt: formatWhen(o.createdAt), waiting: formatAge(o.waitingSince, now) })),
  };
}

export default function Queue({ loaderData }: Route.ComponentProps) {
  const { title, items, page, pageCount, total } = loaderData;
  return (
    <>
      <p>
        <a href="/ops">‹ Antrean</a>
      </p>
      <h1>
        {title} <span className="ops-muted">({total})</span>
      </h1>
      {items.length === 0 ? (
        <p className="ops-card">Tidak ada pesanan yang menunggu.</p>
      ) : (
        <div className="ops-table-wrap">
          <table className="ops-table">
            <thead>
              <tr>
                <th>Invoice</th>
                <th>Pembeli</th>
                <th>Produk</th>
                <th className="num">Total</th>
                <th>Tanggal Pembelian</th>
                <th>Menunggu</th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.id} data-testid="queue-row">
                  <td>
                    <a href={`/ops/orders/${o.id}`}>{o.invoiceId}</a>
                  </td>
                  <td>
                    {o.buyerName}
                    <br />
                    <span className="ops-muted">{o.buyerEmail}</span>
                  </td>
                  <td>{o.productTitle}</td>
                  <td className="num">{formatRupiah(o.totalAmount)}</td>
                  <td>{o.createdAt}</td>
                  <td>{o.waiting}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} />
    </>
  );
}
