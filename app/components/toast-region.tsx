import { useEffect, useState } from "react";
import { useLocation, useNavigation } from "react-router";
import { TOAST_HIDE_MS, type Toast } from "~/lib/toast";
import { CloseIcon } from "./icons";

/**
 * Spec §9: bottom, success by default, hidden after 30 s with JavaScript. The close control is a link
 * to this same page: the message was shown once (a flash), so without JavaScript the page comes back
 * without it; with JavaScript it just hides the toast. It also goes as soon as the reader submits a
 * form or leaves (issue 25): a message about what happened before never stays beside the answer to
 * what they did next (an error, say). The back office shows it in the page's flow (`inline`), above
 * its forms, so it never covers a field.
 */
export function ToastRegion({ toast, inline = false }: { toast: Toast | null; inline?: boolean }) {
  const location = useLocation();
  const navigation = useNavigation();
  const [visible, setVisible] = useState<Toast | null>(toast);
  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), TOAST_HIDE_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  useEffect(() => {
    if (navigation.state !== "idle") setVisible(null);
  }, [navigation.state]);
  return (
    <div className={inline ? "toast-region toast-region-inline" : "toast-region"} role="status" aria-live="polite">
      {visible ? (
        <div className={`toast toast-${visible.type}`} data-testid="toast">
          <span className="toast-message">{visible.message}</span>
          <a
            href={location.pathname + location.search}
            className="toast-close"
            aria-label="Tutup pesan"
            data-testid="toast-close"
            onClick={(event) => {
              event.preventDefault();
              setVisible(null);
            }}
          >
            <CloseIcon size={20} />
          </a>
        </div>
      ) : null}
    </div>
  );
}
