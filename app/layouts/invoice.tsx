import { Outlet, useParams } from "react-router";
import { TopBar } from "~/components/top-bar";

/** Spec §2: titled 'Invoice', back to the order's detail. */
export default function InvoiceLayout() {
  const { id } = useParams();
  return (
    <div className="app-shell">
      <TopBar title="Invoice" back={`/transaction-detail/${encodeURIComponent(id ?? "")}`} />
      <main className="page">
        <Outlet />
      </main>
    </div>
  );
}
