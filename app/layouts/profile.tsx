import { BottomTabs } from "~/components/bottom-tabs";
import { PageOutlet } from "~/components/page-outlet";

/** Spec §2 profile layout: the account page with the bottom tabs. */
export default function ProfileLayout() {
  return (
    <div className="app-shell with-tabs">
      <header className="plain-header">
        <h1 className="top-bar-title">Akun</h1>
      </header>
      <main className="page">
        <PageOutlet />
      </main>
      <BottomTabs />
    </div>
  );
}
