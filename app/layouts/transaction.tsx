import { BottomTabs } from "~/components/bottom-tabs";
import { TopBar } from "~/components/top-bar";
import ordersStylesUrl from "~/styles/orders.css?url";
import { PageOutlet } from "~/components/page-outlet";

// The order screens' styles load only on these screens.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/** Spec §2 transaction layout: back to /home, bottom tabs. */
export default function TransactionLayout() {
  return (
    <div className="app-shell with-tabs">
      <TopBar title="Transaksi" back="/home" />
      <main className="page">
        <PageOutlet />
      </main>
      <BottomTabs />
    </div>
  );
}
