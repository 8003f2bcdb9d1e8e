import { Outlet } from "react-router";
import { TopBar } from "~/components/top-bar";

/** Spec §2 store-header layout (product detail): back arrow and the store name. */
export default function StoreLayout() {
  return (
    <div className="app-shell">
      <TopBar title="Detail Produk" back="/home" />
      <main className="page page-flush">
        <Outlet />
      </main>
    </div>
  );
}
