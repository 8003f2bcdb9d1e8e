import { Outlet, useMatches } from "react-router";
import { TopBar } from "~/components/top-bar";
import { backOf, titleOf } from "~/lib/route-handle";

/** Spec §2 default layout: back arrow and the route's title. */
export default function DefaultLayout() {
  const matches = useMatches();
  return (
    <div className="app-shell">
      <TopBar title={titleOf(matches)} back={backOf(matches) ?? "/home"} />
      <main className="page">
        <Outlet />
      </main>
    </div>
  );
}
