import { hasRole, type StaffRole } from "./staff-roles";

// The back office's areas (issues 17, 26, 27): which address opens for which staff role, written
// once. The /ops layout draws its menu from this table and its middleware guards every /ops request
// with it (page, action, export, image): the area of the requested path decides, and a path under
// /ops in no area is refused with the plain 404, as is an area outside the person's roles. A new
// area is one entry here plus its route module (and its line in app/routes.ts).

export type OpsArea = {
  /** The area's address; it covers the addresses below it (/ops/catalogue covers /ops/catalogue/products/7). */
  path: string;
  /** Its entry in the menu, in the table's order; none: reached from another screen. */
  label?: string;
  /** Who may open it: staff with any of these roles ('admin' opens every area); empty: every staff member. */
  roles: readonly StaffRole[];
  /** Who may post to it when that differs from who may open it. */
  changeRoles?: readonly StaffRole[];
  /** Only the address itself, not the ones below it (the home, '/ops', would otherwise cover all). */
  exact?: true;
  /** Open before the second factor is passed (the second factor's own page). */
  beforeSecondFactor?: true;
};

export const OPS_AREAS: readonly OpsArea[] = [
  { path: "/ops", label: "Antrean", roles: [], exact: true },
  { path: "/ops/2fa", roles: [], beforeSecondFactor: true },
  { path: "/ops/queue", roles: ["pesanan"] },
  { path: "/ops/orders", roles: ["pesanan"] },
  { path: "/ops/search", label: "Cari Pesanan", roles: ["pesanan"] },
  { path: "/ops/withdrawals", label: "Penarikan Saldo", roles: ["keuangan"] },
  // Refunds to send and the money's accounts (issue 36); /ops/refunds covers its CSV export.
  { path: "/ops/refunds", label: "Pengembalian Dana", roles: ["keuangan"] },
  { path: "/ops/finance", label: "Keuangan", roles: ["keuangan"] },
  { path: "/ops/export", roles: ["keuangan"] },
  { path: "/ops/catalogue", label: "Katalog", roles: ["katalog"] },
  { path: "/ops/employees", label: "Pegawai", roles: ["pegawai"] },
  // Changing an account's NIP or company is the admin's (spec: "only the admin can change it").
  { path: "/ops/accounts", roles: ["pegawai"], changeRoles: ["admin"] },
  { path: "/ops/staff", label: "Staf", roles: ["admin"] },
  { path: "/ops/settings", label: "Pengaturan", roles: ["admin"] },
  // Who opened which buyer's NIK or KTP photo (issue 35, UU PDP's record of processing).
  { path: "/ops/privacy", label: "Log Akses Data Pribadi", roles: ["admin"] },
  { path: "/ops/messages", label: "Pesan", roles: ["keuangan"] },
];

/** The area an /ops address belongs to (the longest path that covers it), or null: no area, refused. */
export function opsAreaOf(pathname: string): OpsArea | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  let found: OpsArea | null = null;
  for (const area of OPS_AREAS) {
    const covers = path === area.path || (!area.exact && path.startsWith(`${area.path}/`));
    if (covers && (!found || area.path.length > found.path.length)) found = area;
  }
  return found;
}

/** Whether someone with `roles` may open the area (`change`: post to it). */
export function mayUseArea(roles: readonly StaffRole[], area: OpsArea, change = false): boolean {
  const needed = change && area.changeRoles ? area.changeRoles : area.roles;
  return needed.length === 0 || hasRole(roles, needed);
}

/** The menu of someone with `roles`: the labelled areas they may open, in the table's order. */
export function opsMenu(roles: readonly StaffRole[]): { path: string; label: string; exact: boolean }[] {
  return OPS_AREAS.filter((area) => area.label && mayUseArea(roles, area)).map((area) => ({
    path: area.path,
    label: area.label!,
    exact: !!area.exact,
  }));
}
