import { STORE_NAME } from "~/lib/route-handle";

/**
 * The store's logo: its mark (shapes only) and its name as the page's own text. An <img> of an SVG
 * holding <text> made the browser build a separate SVG document and lay out its text on every page
 * load, about 8 ms of the main thread here and 60 ms on the Slow-ID phone (decision 0047).
 * `size`: the header's (34 px high), the error page's (36) or the sign-in screens' (41).
 */
export function StoreLogo({ size = "header" }: { size?: "header" | "error" | "auth" }) {
  return (
    <span className={`store-logo store-logo-${size}`} role="img" aria-label={STORE_NAME}>
      <svg viewBox="0 0 34 34" aria-hidden="true" focusable="false">
        <rect width="34" height="34" rx="8" fill="#0b6fb0" />
        <path d="M19 5l-9 14h6l-2 10 9-14h-6z" fill="#ffd200" />
      </svg>
      <span className="store-logo-name" aria-hidden="true">
        <span>Toko Pegawai</span>
        <span>PLN Group</span>
      </span>
    </span>
  );
}
