import { Form, NavLink, Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { ToastRegion } from "~/components/toast-region";
import type { RootData } from "~/lib/root-data";
import type { RouteHandle } from "~/lib/route-handle";
import { sandboxPaysForFree } from "~/.server/env";
import { opsNotFound, requireStaff } from "~/.server/http/ops-access";
import { mayUseArea, opsAreaOf, opsMenu } from "~/lib/ops-areas";
import opsStyles from "./ops.css?url";

// The back office's own layout (issue 17): desktop first, a plain header with the screens and the
// sign-out, its own stylesheet (never loaded by buyers' pages). Every /ops request (page, action,
// export, image) passes this middleware: no staff role → 404; the second factor not passed →
// /ops/2fa; then the area of the address (~/lib/ops-areas) decides: none, or not one of this
// person's roles (for a post: the area's roles for changes) → 404. The menu is drawn from the same table.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, url, context }, next) => {
    const area = opsAreaOf(url.pathname);
    const staff = requireStaff(context, undefined, { secondFactor: !area?.beforeSecondFactor });
    const change = request.method !== "GET" && request.method !== "HEAD";
    if (!area || !mayUseArea(staff.roles, area, change)) throw opsNotFound();
    return next();
  },
];

export const handle: RouteHandle = { ownToasts: true };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: opsStyles }];

export function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireStaff(context, undefined, { secondFactor: !opsAreaOf(url.pathname)?.beforeSecondFactor });
  // The menu lists only the screens this person's roles open (the others answer 404).
  return {
    email: operator.email,
    checked: operator.secondFactorPassed,
    menu: opsMenu(operator.roles),
    sandboxPaysForFree: operator.secondFactorPassed && sandboxPaysForFree(),
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
            {loaderData.menu.map((area) => (
              <NavLink key={area.path} to={area.path} end={area.exact}>
                {area.label}
              </NavLink>
            ))}
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
        {loaderData.sandboxPaysForFree ? (
          <p className="ops-alert" data-testid="sandbox-gateway-warning">
            <strong>Gateway pembayaran masih sandbox.</strong> Pembeli dapat menekan 'Bayar (Sandbox)' dan pesanan Virtual Account, Kartu
            Kredit atau Paylater-nya tercatat lunas tanpa membayar. Jalankan toko dengan <code>PAYMENT_GATEWAY=midtrans</code> untuk
            pembayaran sungguhan, atau nonaktifkan metode tersebut di <a href="/ops/settings#methods">Pengaturan › Metode Pembayaran</a> dan
            terima transfer manual saja.
          </p>
        ) : null}
        <Outlet />
      </main>
    </div>
  );
}
