import { useLocation } from "react-router";
import { TopBar } from "~/components/top-bar";
import { backTarget } from "~/lib/back-link";
import { PageOutlet } from "~/components/page-outlet";

/**
 * Spec §2 store-header layout (product detail): back arrow and the store name. Back returns where
 * the reader came from: the browser's history with JavaScript, the card's `?from=` list without.
 */
export default function StoreLayout() {
  const location = useLocation();
  return (
    <div className="app-shell">
      <TopBar title="Detail Produk" back={backTarget(location.search)} backInHistory />
      <main className="page page-flush">
        <PageOutlet />
      </main>
    </div>
  );
}
