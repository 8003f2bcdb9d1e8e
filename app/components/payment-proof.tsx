import { Form } from "react-router";
import { FileField } from "~/components/file-field";
import { Sheet } from "~/components/sheet";
import { splitLastThreeDigits } from "~/lib/payment-pricing";
import { KTP_ACCEPT } from "~/lib/photo-files";

// The manual transfer's parts of the payment page (spec §2 Payment): the exact amount to transfer
// and the sheet that uploads its proof ('Saya sudah bayar').

/** Manual transfer: the unique code is the last 3 digits, highlighted, and must be transferred exactly. */
export function ExactAmount({ total }: { total: number }) {
  const { head, tail } = splitLastThreeDigits(total);
  return (
    <div className="pay-exact" data-testid="exact-amount">
      <p>
        Transfer tepat{" "}
        <strong className="pay-exact-amount">
          {head}
          <mark>{tail}</mark>
        </strong>
      </p>
      <p className="warning-banner" role="note">
        Pastikan jumlah transfer sama persis hingga 3 digit terakhir agar pembayaran Anda dapat diverifikasi.
      </p>
    </div>
  );
}

/** 'Saya sudah bayar': the proof upload, a sheet rendered by the server without JavaScript. */
export function ProofSheet({
  closeHref,
  error,
  busy,
  onClose,
}: {
  closeHref: string;
  error: string | null;
  busy: boolean;
  onClose?: () => void;
}) {
  return (
    <Sheet title="Upload Bukti Pembayaran" closeHref={closeHref} onClose={onClose} height="auto">
      <Form method="post" action={closeHref} encType="multipart/form-data" className="confirm-form" data-testid="proof-sheet" replace>
        <input type="hidden" name="intent" value="mark-paid" />
        <FileField
          id="bukti"
          label="Bukti Pembayaran"
          accept={KTP_ACCEPT}
          hint="Foto atau tangkapan layar bukti transfer, format .jpg, .jpeg atau .png, maksimal 2 MB."
          error={error}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          Kirim Bukti Pembayaran
        </button>
      </Form>
    </Sheet>
  );
}
