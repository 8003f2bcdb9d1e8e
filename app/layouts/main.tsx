import { useEffect, useState } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { ActivationBanner } from "~/components/activation-banner";
import { BottomTabs } from "~/components/bottom-tabs";
import { BellIcon, SearchIcon } from "~/components/icons";
import type { RootData } from "~/lib/root-data";
import { PageOutlet } from "~/components/page-outlet";
import { StoreLogo } from "~/components/store-logo";
import { PRIVACY_POLICY_PATH } from "~/lib/privacy";

const TAB_BAR_ID = "menu-utama";

/** Spec §2 main layout: logo, Login or bell, search box that opens /search, activation banner, tabs. */
export default function MainLayout() {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const user = root?.user ?? null;
  const scrolled = useScrolledPast(100);
  return (
    <div className="app-shell with-tabs">
      {/* The first paint waits until the document has been read down to the tab bar, its last
          visible part (React puts this link in the head). Painted as soon as the header was read,
          the page was then parsed, styled and laid out again for the banner, the product grid and
          the tabs after that first paint, in tasks long enough to block a cheap phone for 300 ms
          (issue 43; decision 0065). One complete first screen costs that work once, before it. */}
      <link rel="expect" href={`#${TAB_BAR_ID}`} blocking="render" />
      <header className={`main-header${scrolled ? " is-scrolled" : ""}`}>
        <div className="main-header-row">
          {/* Named from its content, 'Toko Pegawai PLN — Beranda': an aria-label would not contain the
              logo's visible words (axe: label-content-name-mismatch). */}
          <Link to="/home" className="logo">
            <StoreLogo />
            <span className="sr-only"> — Beranda</span>
          </Link>
          {user ? (
            <NotificationBell unread={user.unreadNotifications} />
          ) : (
            <Link to="/login" className="btn btn-primary btn-small">
              Login
            </Link>
          )}
        </div>
        {/* A link to the search page (spec: the box opens /search); its text is its name. */}
        <Link to="/search" className="search-box" data-testid="home-search">
          <SearchIcon size={18} />
          <span>Cari produk di Toko Pegawai</span>
        </Link>
      </header>
      {user && !user.verified ? <ActivationBanner resendAvailableAt={user.resendAvailableAt} renderedAt={root!.now} /> : null}
      <main className="page">
        <PageOutlet />
      </main>
      <footer className="page-footer">
        <Link to={PRIVACY_POLICY_PATH}>Kebijakan Privasi</Link>
      </footer>
      <BottomTabs id={TAB_BAR_ID} />
    </div>
  );
}

/** The bell (issue 28): a link to /notifikasi with the unread count as a badge, said in its name too. */
function NotificationBell({ unread }: { unread: number }) {
  return (
    <Link
      to="/notifikasi"
      className="icon-button bell"
      aria-label={unread ? `Notifikasi, ${unread} belum dibaca` : "Notifikasi"}
      data-testid="notification-bell"
    >
      <BellIcon />
      {unread ? (
        <span className="bell-badge" aria-hidden="true" data-testid="notification-badge">
          {unread > 9 ? "9+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

/** True once the page is scrolled more than `px` (spec §9: the scrolled flag at 100 px). */
function useScrolledPast(px: number) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > px);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [px]);
  return scrolled;
}
