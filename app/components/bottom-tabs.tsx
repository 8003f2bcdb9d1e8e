import { NavLink, useLocation } from "react-router";
import { HomeIcon, ReceiptIcon, UserIcon } from "./icons";

/** Spec §2: Beranda (/), Transaksi (/transaction), Profil (/profile). */
export function BottomTabs({ id }: { id?: string }) {
  // A guest who tapped Profil or Transaksi lands on /authrequired?redirect=…: that tab stays lit.
  const location = useLocation();
  const wanted = location.pathname === "/authrequired" ? (new URLSearchParams(location.search).get("redirect") ?? "") : "";
  const tabClass =
    (to: string) =>
    ({ isActive }: { isActive: boolean }) =>
      isActive || wanted === to || wanted.startsWith(`${to}?`) || wanted.startsWith(`${to}/`) ? "tab active" : "tab";
  return (
    <nav id={id} className="bottom-tabs" aria-label="Menu utama">
      <NavLink to="/home" className={tabClass("/home")}>
        <HomeIcon />
        <span>Beranda</span>
      </NavLink>
      <NavLink to="/transaction" className={tabClass("/transaction")}>
        <ReceiptIcon />
        <span>Transaksi</span>
      </NavLink>
      <NavLink to="/profile" className={tabClass("/profile")}>
        <UserIcon />
        <span>Profil</span>
      </NavLink>
    </nav>
  );
}
