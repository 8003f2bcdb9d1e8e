import { Form } from "react-router";
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
export function OrderTable({
  rows,
  rowTestId,
  showStatus = false,
  showWaiting = false,
}: {
  rows: OrderTableRow[];
  rowTestId: string;
  showStatus?: boolean;
  showWaiting?: boolean;
}) {
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

// The back office's form fields (catalogue, roster, staff, settings): label, control, hint and error.

type Common = { name: string; label: string; error?: string; hint?: string };

const describedBy = (id: string, error?: string, hint?: string) =>
  [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;

function Message({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint ? (
        <p className="ops-muted ops-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="ops-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The label, the control and its hint or error, in the back office's field column. */
function FieldFrame({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="ops-field">
      <label htmlFor={id}>{label}</label>
      {children}
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

/** What every control of a field carries: its id and name, and its error and hint for screen readers. */
function controlProps(id: string, name: string, error?: string, hint?: string) {
  return {
    id,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, error, hint),
    className: error ? "is-invalid" : undefined,
  };
}

/** A labelled input with its hint and its error beside it; `id` where one form repeats a name (a row per entry). */
export function InputField({
  name,
  label,
  error,
  hint,
  id = name,
  ...rest
}: Common & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name">) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input type="text" {...controlProps(id, name, error, hint)} {...rest} />
    </FieldFrame>
  );
}

export function TextAreaField({
  name,
  label,
  error,
  hint,
  id = name,
  ...rest
}: Common & Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, "name">) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <textarea {...controlProps(id, name, error, hint)} {...rest} />
    </FieldFrame>
  );
}

export function SelectField({
  name,
  label,
  error,
  hint,
  options,
  defaultValue,
  placeholder,
}: Common & { options: { value: string; label: string }[]; defaultValue?: string; placeholder?: string }) {
  return (
    <FieldFrame id={name} label={label} error={error} hint={hint}>
      <select {...controlProps(name, name, error, hint)} defaultValue={defaultValue}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * 'Unggah CSV' of an import (the catalogue's price list, the employee roster): the file, whatever
 * options the import takes (`children`), the button. Both imports then show their preview.
 */
export function CsvUploadForm({ inputId, children }: { inputId: string; children?: React.ReactNode }) {
  return (
    <Form method="post" encType="multipart/form-data" className="ops-form">
      <input type="hidden" name="intent" value="upload" />
      <label htmlFor={inputId}>File CSV</label>
      <input id={inputId} name="file" type="file" accept=".csv,text/csv" required />
      {children}
      <div>
        <button type="submit" className="ops-btn">
          Unggah CSV
        </button>
      </div>
    </Form>
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
