import type { Route } from "./+types/search";
import { requireStaff } from "~/.server/http/ops-access";
import { clientAddress } from "~/.server/http/request";
import { formatWhen, pageParam, readOrderSearch } from "~/.server/store/back-office";
import { searchOrders } from "~/.server/store/back-office";
import { listOrderStatuses } from "~/.server/store/orders";
import type { RouteHandle } from "~/lib/route-handle";
import { OrderTable, Pager } from "./components";

// /ops/search: orders by invoice, e-mail, NIK, status and purchase days (WIB), newest first. A GET
// form: the address is the search, so it can be bookmarked and shared. The same criteria export CSV.

export const handle: RouteHandle = { title: "Cari Pesanan · Back Office" };

export async function loader({ url, context, request }: Route.LoaderArgs) {
  const operator = requireStaff(context);
  const statuses = await listOrderStatuses();
  const { input, search, error } = readOrderSearch(
    Object.fromEntries(url.searchParams),
    statuses.map((s) => s.id),
  );
  const searched = [...url.searchParams.keys()].some((k) => k !== "page");
  // A full-NIK search is on the access log (issue 45 item 13): the store records the orders it shows.
  const result = searched
    ? await searchOrders(search, pageParam(url), { operatorId: operator.id, clientAddress: clientAddress(request) })
    : null;
  const exportParams = new URLSearchParams();
  for (const key of ["statusId", "dateFrom", "dateTo"] as const) if (input[key]) exportParams.set(key, input[key]);
  return {
    statuses,
    input,
    error,
    search: url.search,
    exportHref: `/ops/export${exportParams.size ? `?${exportParams}` : ""}`,
    result: result && { ...result, items: result.items.map((o) => ({ ...o, createdAt: formatWhen(o.createdAt) })) },
  };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { statuses, input, error, result } = loaderData;
  return (
    <>
      <h1>Cari Pesanan</h1>
      <form method="get" action="/ops/search" className="ops-card ops-search ops-form">
        <div>
          <label htmlFor="invoice">No. Invoice</label>
          <input type="text" id="invoice" name="invoice" defaultValue={input.invoice} />
        </div>
        <div>
          <label htmlFor="email">Email</label>
          <input type="text" id="email" name="email" defaultValue={input.email} />
        </div>
        <div>
          <label htmlFor="nik">NIK</label>
          <input type="text" id="nik" name="nik" inputMode="numeric" defaultValue={input.nik} />
        </div>
        <div>
          <label htmlFor="statusId">Status</label>
          <select id="statusId" name="statusId" defaultValue={input.statusId}>
            <option value="">Semua status</option>
            {statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.id})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="dateFrom">Tanggal Pembelian Dari</label>
          <input id="dateFrom" name="dateFrom" type="date" defaultValue={input.dateFrom} />
        </div>
        <div>
          <label htmlFor="dateTo">Sampai</label>
          <input id="dateTo" name="dateTo" type="date" defaultValue={input.dateTo} />
        </div>
        <div>
          <button type="submit" className="ops-btn">
            Cari
          </button>
        </div>
      </form>
      {error ? (
        <p className="ops-alert" role="alert">
          {error}
        </p>
      ) : null}
      <p>
        <a href={loaderData.exportHref} className="ops-btn ops-btn-secondary" download>
          Ekspor CSV (status dan tanggal di atas)
        </a>
      </p>
      {result ? (
        result.items.length === 0 ? (
          <p className="ops-card" data-testid="search-none">
            Tidak ada pesanan yang cocok.
          </p>
        ) : (
          <>
            <p className="ops-muted">{result.total} pesanan</p>
            <OrderTable rows={result.items} rowTestId="search-row" showStatus />
            <Pager page={result.page} pageCount={result.pageCount} search={loaderData.search} />
          </>
        )
      ) : null}
    </>
  );
}
