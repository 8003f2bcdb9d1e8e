import { NavLink } from "react-router";
import { HomeIcon, ReceiptIcon, UserIcon } from "./icons";

/** Spec §2: Beranda (/), Transaksi (/transaction), Profil (/profile). */
export function BottomTabs() {
  return (
    <nav className="bottom-tabs" aria-label="Menu utama">
      <NavLink to="/home" className="tab">
        <HomeIcon />
        <span>Beranda</span>
      </NavLink>
      <NavLink to="/transaction" className="tab">
        <ReceiptIcon />
        <span>Transaksi</span>
      </NavLink>
      <NavLink to="/profile" className="tab">
        <UserIcon />
        <span>Profil</span>
      </NavLink>
    </nav>
  );
}
