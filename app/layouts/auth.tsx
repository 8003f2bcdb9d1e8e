import { useMatches } from "react-router";
import { TopBar } from "~/components/top-bar";
import { backOf, titleOf } from "~/lib/route-handle";
import { PageOutlet } from "~/components/page-outlet";
import { StoreLogo } from "~/components/store-logo";

/** Spec §2 auth layout: login, register, forgot and reset password. */
export default function AuthLayout() {
  const matches = useMatches();
  return (
    <div className="app-shell auth-shell">
      <TopBar title={titleOf(matches)} back={backOf(matches) ?? "/home"} />
      <main className="page">
        <div className="auth-logo">
          <StoreLogo size="auth" />
        </div>
        <PageOutlet />
      </main>
    </div>
  );
}
