import { Link } from "react-router";
import { BackIcon } from "./icons";

/** Back arrow + title (default, invoice, transaction-detail and store layouts). */
export function TopBar({ title, back, children }: { title?: string; back: string; children?: React.ReactNode }) {
  return (
    <header className="top-bar">
      <Link to={back} className="icon-button" aria-label="Kembali">
        <BackIcon />
      </Link>
      {title ? <h1 className="top-bar-title">{title}</h1> : null}
      {children}
    </header>
  );
}
