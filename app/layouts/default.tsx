import { useMatches } from "react-router";
import { BottomTabs } from "~/components/bottom-tabs";
import { TopBar } from "~/components/top-bar";
import { backOf, hasTabs, titleOf } from "~/lib/route-handle";
import { PageOutlet } from "~/components/page-outlet";

/** Spec §2 default layout: back arrow and the route's title; the bottom tabs when the route asks. */
export default function DefaultLayout() {
  const matches = useMatches();
  const tabs = hasTabs(matches);
  return (
    <div className={tabs ? "app-shell with-tabs" : "app-shell"}>
      <TopBar title={titleOf(matches)} back={backOf(matches) ?? "/home"} />
      <main className="page">
        <PageOutlet />
      </main>
      {tabs ? <BottomTabs /> : null}
    </div>
  );
}
