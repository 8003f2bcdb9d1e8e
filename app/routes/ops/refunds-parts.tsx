import { Form } from "react-router";
import type { OverpaymentFields } from "~/.server/store/refunds";
import { formatRupiah } from "~/lib/money";

// The sections of /ops/refunds beside its refund list (routes/ops/refunds.tsx): the open payment
// incidents at the top and 'Catat Kelebihan Bayar' at the bottom, with the field error they share.

/** 'Catat Kelebihan Bayar' refused: the field errors and what finance typed. */
export type OverpaymentFailure = {
  overpayment: { errors: Partial<Record<OverpaymentFields, string>>; values: Record<OverpaymentFields, string> };
};

/** An open payment incident as the loader gives it (its kind in words, its time written out). */
type IncidentRow = {
  id: number;
  kind: string;
  orderId: number;
  invoiceId: string;
  amount: number | null;
  gateway: string;
  createdAt: string;
};

/**
 * The gateway's reports of money the store did not expect (paid after the order closed, or not the
 * amount asked). Its money is already a refund in the list below; finance checks it and marks it done.
 */
export function Incidents({ incidents }: { incidents: IncidentRow[] }) {
  return (
    <section className="ops-card" id="insiden" aria-labelledby="incidents-heading">
      <h2 id="incidents-heading">Insiden Pembayaran ({incidents.length})</h2>
      {incidents.length === 0 ? (
        <p className="ops-muted">Tidak ada insiden terbuka.</p>
      ) : (
        <>
          <p className="ops-muted">
            Dana dari setiap insiden sudah tercatat sebagai pengembalian dana di daftar di bawah. Tandai selesai setelah diperiksa.
          </p>
          <ul className="ops-incidents" data-testid="payment-incidents">
            {incidents.map((i) => (
              <li key={i.id} data-testid="payment-incident">
                <span>
                  {i.createdAt} · {i.kind} · <a href={`/ops/orders/${i.orderId}`}>{i.invoiceId}</a> ·{" "}
                  {i.amount === null ? "-" : formatRupiah(i.amount)} · {i.gateway}
                </span>
                <Form method="post">
                  <input type="hidden" name="incidentId" value={i.id} />
                  <input type="hidden" name="invoiceId" value={i.invoiceId} />
                  <button type="submit" name="intent" value="resolve-incident" className="ops-btn ops-btn-secondary">
                    Tandai Selesai
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * 'Catat Kelebihan Bayar': the bank statement shows a manual transfer above what its order asked (paid
 * twice, or a wrong amount); finance types the invoice and all that arrived, and the difference
 * becomes a refund 'Menunggu Data Rekening' (decision 0057).
 */
export function OverpaymentForm({ failed }: { failed: OverpaymentFailure["overpayment"] | undefined }) {
  const errors = failed?.errors ?? {};
  return (
    <section className="ops-card" aria-labelledby="overpayment-heading">
      <h2 id="overpayment-heading">Catat Kelebihan Bayar</h2>
      <p className="ops-muted">
        Untuk transfer manual yang dibayar dua kali atau melebihi tagihan: isi seluruh dana yang diterima untuk pesanan itu. Selisihnya
        dikembalikan ke pembeli.
      </p>
      <Form method="post" className="ops-form" data-testid="overpayment-form">
        <input type="hidden" name="intent" value="overpayment" />
        <label htmlFor="overpayment-invoice">Nomor Invoice</label>
        <input
          type="text"
          id="overpayment-invoice"
          name="invoiceId"
          maxLength={100}
          defaultValue={failed?.values.invoiceId ?? ""}
          aria-invalid={errors.invoiceId ? true : undefined}
          aria-describedby={errors.invoiceId ? "overpayment-invoice-error" : undefined}
        />
        <FieldError id="overpayment-invoice-error" message={errors.invoiceId} />
        <label htmlFor="overpayment-amount">Jumlah Diterima (Rp)</label>
        <input
          type="text"
          inputMode="numeric"
          id="overpayment-amount"
          name="amountReceived"
          maxLength={30}
          defaultValue={failed?.values.amountReceived ?? ""}
          aria-invalid={errors.amountReceived ? true : undefined}
          aria-describedby={errors.amountReceived ? "overpayment-amount-error" : undefined}
        />
        <FieldError id="overpayment-amount-error" message={errors.amountReceived} />
        <button type="submit" className="ops-btn">
          Catat Kelebihan Bayar
        </button>
      </Form>
    </section>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="ops-error" id={id}>
      {message}
    </p>
  ) : null;
}
