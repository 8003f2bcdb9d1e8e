import { useEffect } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { type Toast, TOAST_HIDE_MS } from "~/lib/toast";

// The payment page's copy fields (spec §2 Payment: VA number, total, company code, bill key) and the
// toast their 'Salin' buttons answer with (spec §8).

/** The copy buttons' toast (spec §8), at the bottom like the app's other toasts, hidden after 30 s. */
export function CopyToast({ toast, onClose }: { toast: Toast | null; onClose: () => void }) {
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(onClose, TOAST_HIDE_MS);
    return () => clearTimeout(timer);
  }, [toast, onClose]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toast ? (
        <div className={`toast toast-${toast.type}`} data-testid="copy-toast">
          <span>{toast.message}</span>
          <button type="button" className="toast-close" aria-label="Tutup" onClick={onClose}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** A read-only, selectable field (works without JavaScript) with a copy button once JavaScript runs. */
export function CopyField({
  id,
  label,
  value,
  copyText,
  copied,
  onToast,
}: {
  id: string;
  label: string;
  value: string;
  copyText: string;
  copied: string;
  onToast: (toast: Toast) => void;
}) {
  // Here, not in the page: only the fields draw again when the scripts start.
  const hydrated = useHydrated();
  const copy = async () => {
    try {
      await copyToClipboard(copyText);
      onToast({ type: "success", message: copied });
    } catch (error) {
      onToast({ type: "danger", message: `Gagal menyalin: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field-row">
        <input type="text" id={id} value={value} readOnly onFocus={(event) => event.currentTarget.select()} />
        {hydrated ? (
          <button type="button" className="btn btn-outline btn-small" onClick={copy} aria-label={`Salin ${label}`}>
            Salin
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The Clipboard API where the page may use it (HTTPS, localhost), else the older copy command. */
async function copyToClipboard(text: string) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("browser menolak menyalin");
}
