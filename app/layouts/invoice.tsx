import { useParams } from "react-router";
import { TopBar } from "~/components/top-bar";
import ordersStylesUrl from "~/styles/orders.css?url";
import { PageOutlet } from "~/components/page-outlet";

// The order screens' styles load only on these screens.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/** Spec §2: titled 'Invoice', back to the order's detail. */
export default function InvoiceLayout() {
  const { id } = useParams();
  return (
    <div className="app-shell">
      <TopBar title="Invoice" back={`/transaction-detail/${encodeURIComponent(id ?? "")}`} />
      <main className="page">
        <PageOutlet />
      </main>
    </div>
  );
}
