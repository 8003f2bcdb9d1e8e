import { Form, Link, useNavigation } from "react-router";
import { formatRupiah } from "~/lib/money";
import { type AccountErrors, REFUND_TRANSFER_TIME, type RefundState } from "~/lib/refunds";

// The order detail's 'Pengembalian Dana' block (issue 36): the amount and the state of money going
// back to the buyer, what happens next, the transfer's date, reference and (masked) account once
// done, and the account form ('Nama Bank', 'Nomor Rekening', 'Nama Pemilik Rekening') while the
// store needs one or, until finance acts, to correct what was sent (issue 43 item 5), keeping what was typed.

/** 'Ubah Data Rekening' is the order detail with ?rekening=<refund id>: a link, so it works without JavaScript. */
export const EDIT_ACCOUNT_PARAM = "rekening";

/** A refused account form: the refund it was for, the field messages, and what the buyer typed. */
export type RefundFormData = {
  refundId: number;
  errors: AccountErrors;
  values: Record<"bankName" | "accountNumber" | "accountHolder", string>;
};

export type RefundView = {
  id: number;
  amount: number;
  state: RefundState;
  stateName: string;
  method: "gateway" | "transfer";
  reason: string;
  bankName: string | null;
  accountNumber: string | null;
  accountHolder: string | null;
  transferReference: string | null;
  proofUrl: string | null;
  failureReason: string | null;
  refundedAt: string | null;
  asksForAccount: boolean;
  /** A transfer refund finance has not acted on yet: the buyer may correct the account. */
  correctable: boolean;
  /** The correction form is open (?rekening=<id>). */
  editing: boolean;
};

/** 'Pengembalian Dana': the amount, the state, and the account form while the store needs one. */
export function RefundBlock({
  refund,
  banks,
  action,
  failed,
}: {
  refund: RefundView;
  banks: readonly string[];
  action: string;
  failed: RefundFormData | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const id = (field: string) => `refund-${refund.id}-${field}`;
  const errors = failed?.errors ?? {};
  // The form: while the store needs an account, or to correct one (opened, or a refused correction).
  const correcting = refund.correctable && (refund.editing || failed !== null);
  const value = (field: "bankName" | "accountNumber" | "accountHolder") =>
    failed?.values[field] ?? (refund.state === "failed" || correcting ? (refund[field] ?? "") : "");
  const account = `${refund.bankName ?? ""} ${refund.accountNumber ?? ""} a.n. ${refund.accountHolder ?? ""}`;
  return (
    <section className="card refund-block" aria-labelledby={id("heading")} data-testid="refund">
      <h2 id={id("heading")}>Pengembalian Dana</h2>
      <div className="row-between">
        <span className="muted">Jumlah</span>
        <strong data-testid="refund-amount">{formatRupiah(refund.amount)}</strong>
      </div>
      <div className="row-between">
        <span className="muted">Status</span>
        <span className="strong" data-testid="refund-state">
          {refund.stateName}
        </span>
      </div>
      <p className="muted small">{refund.reason}</p>
      {refund.state === "awaiting-funds" ? (
        // What this state means (issue 45 item 2): nothing is owed until finance sees the money.
        <div className="refund-next" data-testid="refund-awaiting-funds">
          <p>
            Tim keuangan sedang mencocokkan transfer Anda dengan mutasi rekening toko. Dana dikembalikan sejumlah yang benar-benar masuk ke
            rekening toko; jumlah di atas adalah tagihan pesanan.
          </p>
          {refund.accountNumber ? (
            <p>
              Data rekening Anda sudah kami terima: <span className="strong">{account}</span>. Setelah dana dikonfirmasi, tim keuangan
              mentransfernya, {REFUND_TRANSFER_TIME}.
            </p>
          ) : (
            <p>Kirim data rekening Anda sekarang, agar dana dapat langsung ditransfer setelah dikonfirmasi.</p>
          )}
          {refund.correctable && !correcting ? (
            <Link
              to={`?${EDIT_ACCOUNT_PARAM}=${refund.id}#${id("heading")}`}
              className="btn btn-outline btn-small"
              preventScrollReset
              data-testid="refund-edit"
            >
              Ubah Data Rekening
            </Link>
          ) : null}
        </div>
      ) : null}
      {refund.state === "not-received" ? (
        <div className="refund-next" data-testid="refund-not-received">
          <p>
            Tim keuangan tidak menemukan dana untuk pesanan ini di rekening toko, sehingga tidak ada dana yang dikembalikan. Jika Anda sudah
            mentransfer, hubungi admin dengan bukti transfer dari bank Anda.
          </p>
          {refund.failureReason ? <p className="field-error">Alasan: {refund.failureReason}</p> : null}
        </div>
      ) : null}
      {refund.state === "processing" ? (
        // What happens next, and who does it: nobody has transferred anything yet (issue 43 item 5).
        <div className="refund-next" data-testid="refund-processing">
          {refund.method === "gateway" ? (
            <p>
              Tim keuangan akan mengembalikan dana ke kartu yang Anda gunakan untuk membayar. Kapan dana tampil di tagihan kartu bergantung
              pada bank penerbit kartu. Anda akan diberi tahu lewat notifikasi dan email.
            </p>
          ) : (
            <>
              <p>
                Data rekening Anda sudah kami terima: <span className="strong">{account}</span>.
              </p>
              <p>
                Tim keuangan akan mentransfer dana ke rekening tersebut, {REFUND_TRANSFER_TIME}. Anda akan diberi tahu lewat notifikasi dan
                email setelah dana ditransfer.
              </p>
            </>
          )}
          {refund.correctable && !correcting ? (
            <Link
              to={`?${EDIT_ACCOUNT_PARAM}=${refund.id}#${id("heading")}`}
              className="btn btn-outline btn-small"
              preventScrollReset
              data-testid="refund-edit"
            >
              Ubah Data Rekening
            </Link>
          ) : null}
        </div>
      ) : null}
      {refund.state === "refunded" ? (
        <dl className="facts" data-testid="refund-done">
          <dt>Tanggal Pengembalian</dt>
          <dd>{refund.refundedAt}</dd>
          <dt>Dikembalikan ke</dt>
          <dd data-testid="refund-account">
            {refund.method === "transfer" && refund.accountNumber ? account : "Kartu yang Anda gunakan untuk membayar"}
          </dd>
          {refund.transferReference ? (
            <>
              <dt>Nomor Referensi Transfer</dt>
              <dd data-testid="refund-reference">{refund.transferReference}</dd>
            </>
          ) : null}
          {refund.proofUrl ? (
            <>
              <dt>Bukti Transfer</dt>
              <dd>
                <a href={refund.proofUrl} target="_blank" rel="noopener">
                  Lihat Bukti Transfer
                </a>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {refund.state === "failed" && refund.failureReason ? (
        <p className="field-error" data-testid="refund-failure">
          Alasan: {refund.failureReason}
        </p>
      ) : null}
      {refund.asksForAccount || correcting ? (
        <Form method="post" action={action} className="refund-form" data-testid="refund-form" preventScrollReset>
          <input type="hidden" name="intent" value="refund-account" />
          <input type="hidden" name="refundId" value={refund.id} />
          <p className="muted small">
            {correcting
              ? "Perbaiki data rekening Anda. Perubahan hanya dapat dilakukan sebelum tim keuangan mentransfer dana."
              : "Kirim data rekening Anda agar dana dapat ditransfer kembali."}
          </p>
          <div className="field">
            <label htmlFor={id("bank")}>Nama Bank</label>
            <select
              id={id("bank")}
              name="bankName"
              defaultValue={value("bankName")}
              aria-invalid={errors.bankName ? true : undefined}
              aria-describedby={errors.bankName ? id("bank-error") : undefined}
            >
              <option value="">Pilih bank</option>
              {banks.map((bank) => (
                <option key={bank} value={bank}>
                  {bank}
                </option>
              ))}
            </select>
            {errors.bankName ? (
              <p className="field-error" id={id("bank-error")} role="alert">
                {errors.bankName}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor={id("number")}>Nomor Rekening</label>
            <input
              type="text"
              id={id("number")}
              name="accountNumber"
              inputMode="numeric"
              autoComplete="off"
              maxLength={30}
              defaultValue={value("accountNumber")}
              aria-invalid={errors.accountNumber ? true : undefined}
              aria-describedby={errors.accountNumber ? id("number-error") : undefined}
            />
            {errors.accountNumber ? (
              <p className="field-error" id={id("number-error")} role="alert">
                {errors.accountNumber}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor={id("holder")}>Nama Pemilik Rekening</label>
            <input
              type="text"
              id={id("holder")}
              name="accountHolder"
              autoComplete="off"
              maxLength={100}
              defaultValue={value("accountHolder")}
              aria-invalid={errors.accountHolder ? true : undefined}
              aria-describedby={errors.accountHolder ? id("holder-error") : undefined}
            />
            {errors.accountHolder ? (
              <p className="field-error" id={id("holder-error")} role="alert">
                {errors.accountHolder}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {correcting ? "Simpan Data Rekening" : "Kirim Data Rekening"}
          </button>
          {correcting ? (
            <Link to={action} className="btn btn-outline btn-block refund-cancel" preventScrollReset>
              Batal
            </Link>
          ) : null}
        </Form>
      ) : null}
    </section>
  );
}
