import { AccountActivatedModal } from "./account-verification";

/**
 * Modals announced by an action before its redirect (flash "modal"), shown by the root on the page
 * the user lands on — with or without JavaScript.
 */
export function FlashModal({ name }: { name: string | null }) {
  switch (name) {
    case "account-activated":
      return <AccountActivatedModal />;
    default:
      return null;
  }
}
