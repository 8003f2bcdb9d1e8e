import { Outlet } from "react-router";
import { BottomTabs } from "~/components/bottom-tabs";

/** Spec §2 profile layout: the account page with the bottom tabs. */
export default function ProfileLayout() {
  return (
    <div className="app-shell with-tabs">
      <header className="plain-header">
        <h1 className="top-bar-title">Akun</h1>
      </header>
      <main className="page">
        <Outlet />
      </main>
      <BottomTabs />
    </div>
  );
}
