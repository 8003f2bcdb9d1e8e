import { Form, Link, useNavigation } from "react-router";
import { FileField } from "./file-field";
import { Sheet } from "./sheet";
import { MAX_DELIVERY_PROOFS, PROOF_ACCEPT } from "~/lib/photo-files";

// The buyer's order detail's two sheets, drawn by the server when the address asks for them
// (?sheet=cancel, ?sheet=confirm), so both work without JavaScript; each posts to the order's page.

/** 'Apakah kamu yakin…' rendered by the server: 'Ya' posts the cancel, 'Tidak' is a link back. */
export function CancelConfirmation({ closeHref }: { closeHref: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="modal-backdrop">
      <div className="modal" role="alertdialog" aria-modal="true" aria-labelledby="cancel-title" data-testid="cancel-dialog">
        <h2 id="cancel-title">Apakah kamu yakin ingin membatalkan pesanan?</h2>
        <Form method="post" action={closeHref} className="modal-actions" replace>
          <input type="hidden" name="intent" value="cancel" />
          <Link to={closeHref} replace className="btn btn-outline">
            Tidak
          </Link>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            Ya
          </button>
        </Form>
      </div>
    </div>
  );
}

/** The delivery confirmation sheet: a proof photo (or PDF) is required; 'Konfirmasi' finishes the order. */
export function ConfirmArrival({ closeHref, error }: { closeHref: string; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <Sheet title="Konfirmasi Barang Sampai" closeHref={closeHref} height="auto">
      <Form method="post" action={closeHref} encType="multipart/form-data" className="confirm-form" data-testid="confirm-sheet">
        <input type="hidden" name="intent" value="confirm" />
        <p className="warning-note" role="note">
          Pastikan pesanan sudah sampai ke Pembeli
        </p>
        <FileField
          id="bukti"
          label="Foto Bukti Barang Sampai"
          accept={PROOF_ACCEPT}
          multiple
          hint={<>Hingga {MAX_DELIVERY_PROOFS} file, format JPG, JPEG, PNG atau PDF, masing-masing maksimal 2 MB.</>}
          error={error}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          Konfirmasi
        </button>
      </Form>
    </Sheet>
  );
}
