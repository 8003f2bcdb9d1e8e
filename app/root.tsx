import { useEffect } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, useLoaderData, useMatches, useRouteLoaderData } from "react-router";
import type { UIMatch } from "react-router";
import type { Route } from "./+types/root";
import { sameOriginMiddleware } from "./.server/http/request";
import { getUser, sessionMiddleware, takeFlash } from "./.server/http/session";
import { currentRequest } from "./.server/log";
// The whole stylesheet (about 4 KB compressed) goes into the document: no render-blocking request
// before the first paint (Lighthouse), and the HTML stays within its size budget.
import styles from "./styles.css?inline";
import { FlashModal } from "./components/flash-modal";
import { hasPageOutlet, markHydrated } from "./components/page-outlet";
import { ScrollRestoration } from "./components/scroll-restoration";
import { StoreLogo } from "./components/store-logo";
import { ToastRegion } from "./components/toast-region";
import { useNonce } from "./lib/nonce";
import type { RootData } from "./lib/root-data";
import { START_SCRIPTS } from "./lib/scripts-after-load";
import { showsOwnToasts, STORE_NAME, titleOf } from "./lib/route-handle";
import faviconUrl from "./images/favicon.svg?url";

// The stylesheet's text is bundled for the server only. The client reads it back from the element
// the server wrote (before hydration), so a client render of the document keeps it too: 20 KB less
// JavaScript to fetch and parse on every first visit.
const STYLE_ELEMENT_ID = "app-styles";
const documentStyles = import.meta.env.SSR ? styles : (globalThis.document?.getElementById(STYLE_ELEMENT_ID)?.textContent ?? "");

export const middleware: Route.MiddlewareFunction[] = [sameOriginMiddleware, sessionMiddleware];

export const links: Route.LinksFunction = () => [
  // Hashed file names under /assets/: cached for a year, renamed when they change.
  { rel: "icon", href: faviconUrl, type: "image/svg+xml" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context);
  return data<RootData>({
    // Read from the database on every request, so `verified` is always fresh (spec §4).
    user: user && {
      fullname: user.fullname,
      verified: user.verified,
      resendAvailableAt: user.resendAvailableAt?.toISOString() ?? null,
      unreadNotifications: user.unreadNotifications,
    },
    toast: takeFlash(context, "toast") ?? null,
    // A one-shot modal set by an action before its redirect (e.g. "account activated").
    modal: takeFlash(context, "modal") ?? null,
    // Countdowns start from the server's clock so the first render matches on both sides.
    now: new Date().toISOString(),
    // The 500 page shows it ('Kode kesalahan'): the buyer quotes it, ops finds the request's log lines.
    requestId: currentRequest()?.reqId ?? null,
  });
}

function documentTitle(matches: UIMatch[]) {
  const title = titleOf(matches);
  return title ? `${title} · ${STORE_NAME}` : STORE_NAME;
}

// Components and layouts read the root loader's data through ~/lib/root-data (useRootData), not
// through this module (which imports them).

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const matches = useMatches();
  // Marks the document once React runs it, error pages included (its scripts start after the page
  // has loaded, decision 0016): the `js` end-to-end tests wait for it before using what scripts add.
  // A page under a layout's PageOutlet is marked by its own boundary, once it has hydrated.
  useEffect(() => {
    if (!hasPageOutlet()) markHydrated();
  }, []);
  return (
    <html lang="id">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#0b6fb0" />
        {/* Routes name their title in `handle.title` (also shown by the layouts' title bars). */}
        <title>{documentTitle(matches)}</title>
        <Meta />
        <style id={STYLE_ELEMENT_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: documentStyles }} />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        {/* The server holds React Router's scripts back; this starts them once the page has loaded. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: START_SCRIPTS }} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast, modal } = useLoaderData<typeof loader>();
  const ownToasts = showsOwnToasts(useMatches());
  return (
    <>
      <Outlet />
      <FlashModal name={modal} />
      {ownToasts ? null : <ToastRegion toast={toast} />}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const requestId = (useRouteLoaderData("root") as RootData | undefined)?.requestId;
  // Users never see stack traces; the server logs them (entry.server handleError).
  return (
    <main className="page error-page">
      <StoreLogo size="error" />
      {notFound ? (
        <>
          <h1>Page Not Found</h1>
          <p>Halaman yang Anda cari tidak ditemukan.</p>
        </>
      ) : forbidden ? (
        <>
          <h1>Akses Ditolak</h1>
          <p>{typeof error.data === "string" ? error.data : "Permintaan ditolak."}</p>
        </>
      ) : (
        <>
          <h1>Kesalahan Sistem!</h1>
          <p>Maaf, terjadi kesalahan pada sistem. Silakan coba beberapa saat lagi.</p>
          {requestId ? <p className="error-code">Kode kesalahan: {requestId}</p> : null}
        </>
      )}
      <a className="btn btn-primary" href="/home">
        Kembali ke Beranda
      </a>
    </main>
  );
}

export const meta: Route.MetaFunction = () => [
  {
    name: "description",
    content: "Toko online khusus pegawai PLN Group: kendaraan listrik, peralatan rumah, dan aksesori dengan harga pegawai.",
  },
];
