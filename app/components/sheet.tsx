import { useEffect, useId, useRef } from "react";
import { Link } from "react-router";
import { CloseIcon } from "./icons";

/**
 * A bottom sheet (spec §9: 80 vh for the terms). Rendered by the server when the address asks for it
 * (`?sheet=name`) and closed by a link back (no JavaScript needed). With JavaScript the caller opens
 * and closes it without navigating (`onClose`), Escape closes it, and focus moves into it.
 */
export function Sheet({
  title,
  closeHref,
  onClose,
  children,
  height = "80vh",
}: {
  title: string;
  closeHref: string;
  onClose?: () => void;
  children: React.ReactNode;
  height?: string;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
    document.body.classList.add("has-sheet");
    if (!onClose) return () => document.body.classList.remove("has-sheet");
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && onClose();
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.classList.remove("has-sheet");
    };
  }, [onClose]);
  const close = onClose
    ? (event: React.MouseEvent) => {
        event.preventDefault();
        onClose();
      }
    : undefined;
  return (
    <div className="sheet-layer">
      <Link to={closeHref} replace preventScrollReset className="sheet-backdrop" aria-hidden="true" tabIndex={-1} onClick={close} />
      <div
        ref={panel}
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ height, maxHeight: height }}
      >
        <div className="sheet-header">
          <h2 id={titleId}>{title}</h2>
          <Link to={closeHref} replace preventScrollReset className="icon-button" aria-label="Tutup" onClick={close}>
            <CloseIcon />
          </Link>
        </div>
        <div className="sheet-body sheet-content">{children}</div>
      </div>
    </div>
  );
}
