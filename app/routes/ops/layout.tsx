import { Form, NavLink, Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { ToastRegion } from "~/components/toast-region";
import type { RootData } from "~/lib/root-data";
import type { RouteHandle } from "~/lib/route-handle";
import { requireStaff, SECOND_FACTOR_PATH } from "~/.server/http/ops-access";
import { hasRole } from "~/lib/staff-roles";
import opsStyles from "./ops.css?url";

// The back office's own layout (issue 17): desktop first, a plain header with the screens and the
// sign-out, its own stylesheet (never loaded by buyers' pages). Every /ops request passes this
// middleware: no operator role → 404; the second factor not passed → /ops/2fa.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ url, context }, next) => {
    requireStaff(context, undefined, { secondFactor: url.pathname !== SECOND_FACTOR_PATH });
    return next();
  },
];

export const handle: RouteHandle = { ownToasts: true };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: opsStyles }];

export function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireStaff(context, undefined, { secondFactor: url.pathname !== SECOND_FACTOR_PATH });
  const may = (role: Parameters<typeof hasRole>[1]) => hasRole(operator.roles, role);
  // The menu lists only the screens this person's roles open (the others answer 404).
  return {
    email: operator.email,
    checked: operator.secondFactorPassed,
    menu: { pesanan: may("pesanan"), keuangan: may("keuangan"), katalog: may("katalog"), pegawai: may("pegawai"), admin: may("admin") },
  };
}

export default function OpsLayout({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  return (
    <div className="ops-shell">
      <header className="ops-header">
        <a href="/ops" className="ops-brand">
          Back Office <span>Toko Pegawai PLN</span>
        </a>
        {loaderData.checked ? (
          <nav className="ops-nav" aria-label="Menu back office">
            <NavLink to="/ops" end>
              Antrean
            </NavLink>
            {loaderData.menu.pesanan ? <NavLink to="/ops/search">Cari Pesanan</NavLink> : null}
            {loaderData.menu.keuangan ? <NavLink to="/ops/withdrawals">Penarikan Saldo</NavLink> : null}
            {loaderData.menu.keuangan ? <NavLink to="/ops/refunds">Pengembalian Dana</NavLink> : null}
            {loaderData.menu.keuangan ? <NavLink to="/ops/finance">Keuangan</NavLink> : null}
            {loaderData.menu.katalog ? <NavLink to="/ops/catalogue">Katalog</NavLink> : null}
            {loaderData.menu.pegawai ? <NavLink to="/ops/employees">Pegawai</NavLink> : null}
            {loaderData.menu.admin ? <NavLink to="/ops/staff">Staf</NavLink> : null}
            {loaderData.menu.admin ? <NavLink to="/ops/settings">Pengaturan</NavLink> : null}
            {loaderData.menu.keuangan ? <NavLink to="/ops/messages">Pesan</NavLink> : null}
          </nav>
        ) : null}
        <div className="ops-account">
          <span className="ops-email">{loaderData.email}</span>
          <Form method="post" action="/logout" reloadDocument>
            <button type="submit" className="ops-link-button">
              Keluar
            </button>
          </Form>
        </div>
      </header>
      <main className="ops-main">
        {/* Toasts in the page's flow, above its forms: never over a field (issue 25). */}
        <ToastRegion toast={root?.toast ?? null} inline />
        <Outlet />
      </main>
    </div>
  );
}
