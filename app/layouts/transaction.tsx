import { Outlet } from "react-router";
import { BottomTabs } from "~/components/bottom-tabs";
import { TopBar } from "~/components/top-bar";
import ordersStylesUrl from "~/styles/orders.css?url";

// The order screens' styles load only on these screens.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/** Spec §2 transaction layout: back to /home, bottom tabs. */
export default function TransactionLayout() {
  return (
    <div className="app-shell with-tabs">
      <TopBar title="Transaksi" back="/home" />
      <main className="page">
        <Outlet />
      </main>
      <BottomTabs />
    </div>
  );
}
