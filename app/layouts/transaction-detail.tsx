import { useMatches } from "react-router";
import { TopBar } from "~/components/top-bar";
import { statusTone } from "~/lib/order-status";
import ordersStylesUrl from "~/styles/orders.css?url";
import { PageOutlet } from "~/components/page-outlet";
type StatusHandleData = { status?: { id: number; name: string } };

// The order screens' styles load only on these screens.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/** Spec §2: back arrow to /transaction and a status bar coloured by status (§4). */
export default function TransactionDetailLayout() {
  const matches = useMatches();
  const status = (matches[matches.length - 1]?.loaderData as StatusHandleData | undefined)?.status;
  return (
    <div className="app-shell">
      <TopBar title="Detail Transaksi" back="/transaction" />
      {status ? (
        <div className={`status-bar tone-${statusTone(status.id)}`} role="status">
          {status.name}
        </div>
      ) : null}
      <main className="page">
        <PageOutlet />
      </main>
    </div>
  );
}
