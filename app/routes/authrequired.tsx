import { Link } from "react-router";
import type { Route } from "./+types/authrequired";
import { safeRedirect } from "~/lib/safe-redirect";
import type { RouteHandle } from "~/lib/route-handle";

// Reached by tapping Profil or Transaksi as a guest: the tabs stay, so the guest can go on shopping.
export const handle: RouteHandle = { title: "Masuk Diperlukan", tabs: true };

/** Where the guard sends anonymous users; the login link carries the intended path on. */
export function loader({ url }: Route.LoaderArgs) {
  const target = url.searchParams.get("redirect");
  return { redirect: target ? safeRedirect(target) : null };
}

export default function AuthRequired({ loaderData }: Route.ComponentProps) {
  const loginHref = loaderData.redirect ? `/login?redirect=${encodeURIComponent(loaderData.redirect)}` : "/login";
  return (
    <section className="center-panel">
      <h2>Halo, PLNers!</h2>
      <p>Silakan masuk terlebih dahulu untuk melanjutkan.</p>
      <Link className="btn btn-primary btn-block" to={loginHref}>
        Login
      </Link>
      <p className="muted">
        Belum punya akun? <Link to="/register">Daftar</Link>
      </p>
    </section>
  );
}
