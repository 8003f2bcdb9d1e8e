import { data } from "react-router";
import type { Route } from "./+types/queue";
import { formatAge, formatWhen, pageParam } from "~/.server/store/back-office";
import { isOrderQueue, listQueue, QUEUES } from "~/.server/store/back-office";
import type { RouteHandle } from "~/lib/route-handle";
import { OrderTable, Pager } from "./components";

export const handle: RouteHandle = { title: "Antrean Back Office" };

// /ops/queue/:queue: one queue of orders, the one that has waited longest first, paged with links.

export async function loader({ params, url }: Route.LoaderArgs) {
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
        <OrderTable rows={items} rowTestId="queue-row" showWaiting />
      )}
      <Pager page={page} pageCount={pageCount} />
    </>
  );
}
