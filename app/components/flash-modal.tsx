import { AccountActivatedModal, AccountAlreadyActiveModal, RegisteredModal } from "./account-verification";
import { Modal } from "./modal";

/**
 * Modals announced by an action before its redirect (flash "modal"), shown by the root on the page
 * the user lands on — with or without JavaScript.
 */
export function FlashModal({ name }: { name: string | null }) {
  switch (name) {
    case "account-activated":
      return <AccountActivatedModal />;
    case "account-already-active":
      return <AccountAlreadyActiveModal />;
    case "registered":
      return <RegisteredModal />;
    case "password-reset":
      return <PasswordResetModal />;
    default:
      return null;
  }
}

/** After a password reset (spec §2: reset password ends in a success modal), on /login. */
function PasswordResetModal() {
  return (
    <Modal title="Kata Sandi Berhasil Diubah" closeLabel="Login" closeHref="/login">
      <p>Kata sandi Anda telah diperbarui. Silakan login dengan kata sandi baru Anda.</p>
    </Modal>
  );
}
