import { formatRupiah } from "~/lib/money";
import { statusTone } from "~/lib/order-status";

// Small pieces the back-office screens share (not a route).

/** Previous / next as plain links, keeping the other query parameters. */
export function Pager({ page, pageCount, search }: { page: number; pageCount: number; search?: string }) {
  if (pageCount <= 1) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(search ?? "");
    params.set("page", String(p));
    return `?${params.toString()}`;
  };
  return (
    <nav className="ops-pager" aria-label="Halaman">
      {page > 1 ? <a href={href(page - 1)}>‹ Sebelumnya</a> : null}
      <span>
        Halaman {page} dari {pageCount}
      </span>
      {page < pageCount ? <a href={href(page + 1)}>Berikutnya ›</a> : null}
    </nav>
  );
}

/** The spec's status name in its colour (§4 status colours). */
export function StatusBadge({ id, name }: { id: number; name: string }) {
  return (
    <span className={`ops-badge tone-${statusTone(id)}`} data-testid="ops-status">
      {name}
    </span>
  );
}

export type OrderTableRow = {
  id: number;
  invoiceId: string;
  statusId?: number;
  statusName?: string;
  buyerName: string;
  buyerEmail: string;
  productTitle: string;
  totalAmount: number;
  /** The purchase date, already formatted (WIB). */
  createdAt: string;
  /** How long the order has waited in its queue, already formatted. */
  waiting?: string;
};

/** Orders as the queues and the search list them: each links to its page. */
export function OrderTable({ rows, rowTestId, showStatus = false, showWaiting = false }: { rows: OrderTableRow[]; rowTestId: string; showStatus?: boolean; showWaiting?: boolean }) {
  return (
    <div className="ops-table-wrap">
      <table className="ops-table">
        <thead>
          <tr>
            <th>Invoice</th>
            {showStatus ? <th>Status</th> : null}
            <th>Pembeli</th>
            <th>Produk</th>
            <th className="num">Total</th>
            <th>Tanggal Pembelian</th>
            {showWaiting ? <th>Menunggu</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((o) => (
            <tr key={o.id} data-testid={rowTestId}>
              <td>
                <a href={`/ops/orders/${o.id}`}>{o.invoiceId}</a>
              </td>
              {showStatus ? (
                <td>
                  <StatusBadge id={o.statusId ?? 0} name={o.statusName ?? ""} />
                </td>
              ) : null}
              <td>
                {o.buyerName}
                <br />
                <span className="ops-muted">{o.buyerEmail}</span>
              </td>
              <td>{o.productTitle}</td>
              <td className="num">{formatRupiah(o.totalAmount)}</td>
              <td>{o.createdAt}</td>
              {showWaiting ? <td>{o.waiting}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A labelled input of a back-office form with its error beside it (issue 27: roster, staff, settings). */
export function OpsInput({ name, label, error, defaultValue, ...rest }: { name: string; label: string; error?: string } & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name">) {
  const id = rest.id ?? `f-${name}`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} defaultValue={defaultValue} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} className={error ? "is-invalid" : undefined} {...rest} />
      {error ? (
        <p className="ops-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The flash/alert of a back-office action: an error in red, a result in blue. */
export function OpsMessage({ error, notice }: { error?: string | null; notice?: string | null }) {
  if (error)
    return (
      <p className="ops-alert" role="alert">
        {error}
      </p>
    );
  if (notice)
    return (
      <p className="ops-notice" role="status">
        {notice}
      </p>
    );
  return null;
}
