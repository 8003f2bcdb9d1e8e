import { Link, useLocation, useNavigate } from "react-router";
import { BackIcon } from "./icons";

type TopBarProps = {
  title?: string;
  /** Where the back arrow leads (the whole story without JavaScript). */
  back: string;
  /**
   * With JavaScript, the back arrow goes back in the browser's history when the reader came from a
   * page of this site (so a search keeps its filters and its scroll position); `back` otherwise.
   */
  backInHistory?: boolean;
  children?: React.ReactNode;
};

/** Back arrow + title (default, invoice, transaction-detail and store layouts). */
export function TopBar({ title, back, backInHistory = false, children }: TopBarProps) {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <header className="top-bar">
      <Link
        to={back}
        className="icon-button"
        aria-label="Kembali"
        data-testid="back-link"
        onClick={(event) => {
          if (!backInHistory || event.metaKey || event.ctrlKey || event.shiftKey) return;
          // "default": this document was the first page of the visit within the app.
          if (location.key !== "default") {
            event.preventDefault();
            navigate(-1);
          } else if (cameFromThisSite()) {
            event.preventDefault();
            window.history.back();
          }
        }}
      >
        <BackIcon />
      </Link>
      {title ? <h1 className="top-bar-title">{title}</h1> : null}
      {children}
    </header>
  );
}

function cameFromThisSite(): boolean {
  try {
    return document.referrer !== "" && new URL(document.referrer).origin === window.location.origin && window.history.length > 1;
  } catch {
    return false;
  }
}
