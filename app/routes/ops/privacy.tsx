import type { Route } from "./+types/privacy";
import { requireStaff } from "~/.server/http/ops-access";
import { formatWhen } from "~/.server/store/back-office";
import { ACCESS_ITEM_LABELS, listPersonalDataAccess } from "~/.server/store/privacy";
import type { RouteHandle } from "~/lib/route-handle";

// /ops/privacy ('Log Akses Data Pribadi', admins, issue 35): every opening of a buyer's full NIK or
// KTP photo, newest first, filterable by operator and by buyer (parts of the e-mail, or the buyer's
// name). A GET form, so the filter is the address; 'Unduh CSV' exports the same filter.

const TITLE = "Log Akses Data Pribadi";
export const handle: RouteHandle = { title: `${TITLE} · Back Office` };

const text = (url: URL, name: string) => (url.searchParams.get(name) ?? "").trim().slice(0, 200);

export async function loader({ context, url }: Route.LoaderArgs) {
  requireStaff(context, "admin");
  const filter = { operator: text(url, "operator"), buyer: text(url, "buyer") };
  const beforeText = url.searchParams.get("before") ?? "";
  const before = /^[1-9]\d{0,9}$/.test(beforeText) && Number(beforeText) <= 2_147_483_647 ? Number(beforeText) : undefined;
  const { entries, nextBefore } = await listPersonalDataAccess(filter, before);
  const params = new URLSearchParams();
  if (filter.operator) params.set("operator", filter.operator);
  if (filter.buyer) params.set("buyer", filter.buyer);
  const more = new URLSearchParams(params);
  if (nextBefore !== null) more.set("before", String(nextBefore));
  return {
    filter,
    entries: entries.map((e) => ({ ...e, at: formatWhen(e.at), itemLabel: ACCESS_ITEM_LABELS[e.item] })),
    exportHref: `/ops/privacy/export${params.size ? `?${params}` : ""}`,
    moreHref: nextBefore === null ? null : `/ops/privacy?${more}`,
  };
}

export default function PrivacyLog({ loaderData }: Route.ComponentProps) {
  const { filter, entries, exportHref, moreHref } = loaderData;
  return (
    <>
      <h1>{TITLE}</h1>
      <p className="ops-muted">Setiap pembukaan NIK lengkap atau foto KTP pembeli oleh staf tercatat di sini (UU No. 27/2022).</p>
      <form method="get" action="/ops/privacy" className="ops-card ops-search ops-form">
        <div>
          <label htmlFor="operator">Operator (email)</label>
          <input type="search" id="operator" name="operator" defaultValue={filter.operator} />
        </div>
        <div>
          <label htmlFor="buyer">Pembeli (email atau nama)</label>
          <input type="search" id="buyer" name="buyer" defaultValue={filter.buyer} />
        </div>
        <div>
          <button type="submit" className="ops-btn">
            Tampilkan
          </button>
        </div>
      </form>
      <p>
        <a href={exportHref} className="ops-btn" data-testid="privacy-export" download>
          Unduh CSV
        </a>
      </p>
      {entries.length === 0 ? (
        <p className="ops-muted" data-testid="privacy-empty">
          Belum ada akses yang tercatat.
        </p>
      ) : (
        <div className="ops-table-wrap">
          <table className="ops-table" data-testid="privacy-log">
            <thead>
              <tr>
                <th scope="col">Waktu</th>
                <th scope="col">Operator</th>
                <th scope="col">Pembeli</th>
                <th scope="col">Pesanan</th>
                <th scope="col">Data</th>
                <th scope="col">Alamat IP</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{e.at}</td>
                  <td>{e.operatorEmail}</td>
                  <td>
                    {e.buyerName} ({e.buyerEmail})
                  </td>
                  <td>
                    <a href={`/ops/orders/${e.orderId}`}>{e.invoiceId}</a>
                  </td>
                  <td>{e.itemLabel}</td>
                  <td>{e.clientAddress}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {moreHref ? (
        <p>
          <a href={moreHref}>Muat lebih banyak</a>
        </p>
      ) : null}
    </>
  );
}
