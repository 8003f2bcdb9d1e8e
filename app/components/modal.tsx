import { useState } from "react";

/**
 * A modal the server renders open. Without JavaScript its close control is a link (`closeHref`) that
 * reloads the page without it; with JavaScript the same control just hides it.
 */
export function Modal({
  title,
  children,
  closeLabel,
  closeHref,
  secondary,
  labelledBy = "modal-title",
}: {
  title: string;
  children?: React.ReactNode;
  closeLabel: string;
  closeHref: string;
  /** A second way out, a plain link (e.g. 'Login'). */
  secondary?: { label: string; href: string };
  labelledBy?: string;
}) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={labelledBy}>
        <h2 id={labelledBy}>{title}</h2>
        {children}
        <a
          className="btn btn-primary btn-block"
          href={closeHref}
          onClick={(event) => {
            event.preventDefault();
            setOpen(false);
          }}
        >
          {closeLabel}
        </a>
        {secondary ? (
          <a className="btn btn-outline btn-block" href={secondary.href}>
            {secondary.label}
          </a>
        ) : null}
      </div>
    </div>
  );
}
