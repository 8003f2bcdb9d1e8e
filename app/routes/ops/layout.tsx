import { Form, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireOperator, SECOND_FACTOR_PATH } from "~/.server/http/ops-access";
import opsStyles from "./ops.css?url";

// The back office's own layout (issue 17): desktop first, a plain header with the screens and the
// sign-out, its own stylesheet (never loaded by buyers' pages). Every /ops request passes this
// middleware: no operator role → 404; the second factor not passed → /ops/2fa.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ url, context }, next) => {
    requireOperator(context, { secondFactor: url.pathname !== SECOND_FACTOR_PATH });
    return next();
  },
];

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: opsStyles }];

export function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireOperator(context, { secondFactor: url.pathname !== SECOND_FACTOR_PATH });
  return { email: operator.email, checked: operator.secondFactorPassed };
}

export default function OpsLayout({ loaderData }: Route.ComponentProps) {
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
            <NavLink to="/ops/search">Cari Pesanan</NavLink>
            <NavLink to="/ops/withdrawals">Penarikan Saldo</NavLink>
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
        <Outlet />
      </main>
    </div>
  );
}
