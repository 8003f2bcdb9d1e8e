import { PageOutlet } from "~/components/page-outlet";

/**
 * Spec §2 search layout. The editable field (back arrow, clear, Enter submits) belongs to each
 * search screen, because /search and /res-search use it differently; this layout is the frame.
 */
export default function SearchLayout() {
  return (
    <div className="app-shell search-shell">
      <PageOutlet />
    </div>
  );
}
