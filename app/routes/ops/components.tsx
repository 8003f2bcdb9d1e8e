import { statusTone } from "~/lib/order-status";

// Small pieces the back-office screens share (not a route).

/** Previous / next as plain links, keeping the other query parameters. */
export function Pager({ page, pageCount, search }: { page: number; pageCount: number; search?: string }) {
  if (pageCount <= 1) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(search ?? "");
    params.set("page", String(p));
    return `?${params.toString()}`;
  };
  return (
    <nav className="ops-pager" aria-label="Halaman">
      {page > 1 ? <a href={href(page - 1)}>‹ Sebelumnya</a> : null}
      <span>
        Halaman {page} dari {pageCount}
      </span>
      {page < pageCount ? <a href={href(page + 1)}>Berikutnya ›</a> : null}
    </nav>
  );
}

/** The spec's status name in its colour (§4 status colours). */
export function StatusBadge({ id, name }: { id: number; name: string }) {
  return (
    <span className={`ops-badge tone-${statusTone(id)}`} data-testid="ops-status">
      {name}
    </span>
  );
}
