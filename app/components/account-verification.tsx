import { Form, useRouteLoaderData } from "react-router";
import type { RootData } from "~/lib/root-data";
import { Modal } from "./modal";
import { SubmitButton } from "./submit-button";

/**
 * What /home shows for `?verificationCode=…`: a confirmation step that posts the code (spec §2 Home,
 * DESIGN §9: one-time links act on POST), and, after success, the activation modal.
 */
export function VerificationPrompt({ code }: { code: string }) {
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="verify-title">
        <h2 id="verify-title">Aktivasi Akun</h2>
        <p>Tekan tombol di bawah untuk mengaktifkan akun Anda.</p>
        <Form method="post" action="/verify-account" replace>
          <input type="hidden" name="verificationCode" value={code} />
          <SubmitButton className="btn btn-primary btn-block">Aktifkan Akun</SubmitButton>
        </Form>
        <a className="btn btn-outline btn-block" href="/home">
          Nanti Saja
        </a>
      </div>
    </div>
  );
}

export function AccountActivatedModal() {
  return (
    <Modal title="Akun berhasil diaktivasi!" closeLabel="Mulai Belanja" closeHref="/home">
      <p>Sekarang Anda dapat mulai bertransaksi di Toko Pegawai PLN.</p>
    </Modal>
  );
}

/**
 * An activation link opened again once the account is active: not an error. A guest is offered the
 * login, everyone the shop.
 */
export function AccountAlreadyActiveModal() {
  const signedIn = !!(useRouteLoaderData("root") as RootData | undefined)?.user;
  return (
    <Modal
      title="Akun sudah aktif"
      closeLabel="Mulai Belanja"
      closeHref="/home"
      secondary={signedIn ? undefined : { label: "Login", href: "/login" }}
    >
      <p>Akun Anda sudah aktif. {signedIn ? "Anda dapat langsung bertransaksi." : "Silakan login untuk mulai bertransaksi."}</p>
    </Modal>
  );
}

/** Spec §4: registration ends in a modal telling the user to activate the account by e-mail. */
export function RegisteredModal() {
  return (
    <Modal title="Registrasi Berhasil!" closeLabel="OK" closeHref="/home">
      <p>Silakan cek email Anda untuk aktivasi akun. Setelah akun aktif, Anda dapat mulai bertransaksi.</p>
    </Modal>
  );
}
