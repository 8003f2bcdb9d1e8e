import { useMatches } from "react-router";
import { TopBar } from "~/components/top-bar";
import { backOf, titleOf } from "~/lib/route-handle";
import logoUrl from "~/images/logo.svg?url";
import { PageOutlet } from "~/components/page-outlet";

/** Spec §2 auth layout: login, register, forgot and reset password. */
export default function AuthLayout() {
  const matches = useMatches();
  return (
    <div className="app-shell auth-shell">
      <TopBar title={titleOf(matches)} back={backOf(matches) ?? "/home"} />
      <main className="page">
        <div className="auth-logo">
          <img src={logoUrl} alt="Toko Pegawai PLN" width="160" height="41" />
        </div>
        <PageOutlet />
      </main>
    </div>
  );
}
