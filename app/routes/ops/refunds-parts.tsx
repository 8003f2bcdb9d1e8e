import { Form } from "react-router";
import type { OverpaymentFields } from "~/.server/store/refunds";
import { formatRupiah } from "~/lib/money";
import { InputField } from "./components";

// The sections of /ops/refunds beside its refund list (routes/ops/refunds.tsx): the open payment
// incidents at the top and 'Catat Kelebihan Bayar' at the bottom.

/** 'Catat Kelebihan Bayar' refused: the field errors and what finance typed. */
export type OverpaymentFailure = {
  overpayment: { errors: Partial<Record<OverpaymentFields, string>>; values: Record<OverpaymentFields, string> };
};

/** An open payment incident as the loader gives it (its kind in words, what to check, its time written out). */
type IncidentRow = {
  id: number;
  kind: string;
  check: string;
  orderId: number;
  invoiceId: string;
  amount: number | null;
  gateway: string;
  createdAt: string;
};

/**
 * The gateway's reports of money the store did not expect (paid after the order closed, or not the
 * amount asked: its money is already a refund in the list below), or of a card refund it made after
 * the store had turned it into a bank transfer (decision 0072). Each says what finance checks before
 * marking it done.
 */
export function Incidents({ incidents }: { incidents: IncidentRow[] }) {
  return (
    <section className="ops-card" id="insiden" aria-labelledby="incidents-heading">
      <h2 id="incidents-heading">Insiden Pembayaran ({incidents.length})</h2>
      {incidents.length === 0 ? (
        <p className="ops-muted">Tidak ada insiden terbuka.</p>
      ) : (
        <>
          <p className="ops-muted">Periksa setiap insiden, lalu tandai selesai.</p>
          <ul className="ops-incidents" data-testid="payment-incidents">
            {incidents.map((i) => (
              <li key={i.id} data-testid="payment-incident">
                <span>
                  {i.createdAt} · {i.kind} · <a href={`/ops/orders/${i.orderId}`}>{i.invoiceId}</a> ·{" "}
                  {i.amount === null ? "-" : formatRupiah(i.amount)} · {i.gateway}
                  <br />
                  <span className="ops-muted" data-testid="payment-incident-check">
                    {i.check}
                  </span>
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
        <InputField
          id="overpayment-invoice"
          name="invoiceId"
          label="Nomor Invoice"
          maxLength={100}
          defaultValue={failed?.values.invoiceId ?? ""}
          error={errors.invoiceId}
        />
        <InputField
          id="overpayment-amount"
          name="amountReceived"
          label="Jumlah Diterima (Rp)"
          inputMode="numeric"
          maxLength={30}
          defaultValue={failed?.values.amountReceived ?? ""}
          error={errors.amountReceived}
        />
        <button type="submit" className="ops-btn">
          Catat Kelebihan Bayar
        </button>
      </Form>
    </section>
  );
}
