// Staff roles (issue 27, DESIGN §6 "People and roles"): what each person in the back office may see
// and do, by area. 'admin' implies every other. Shared by the server (the guards) and the screens
// (the menu shows only what the person may open), so it holds no server code.

export const STAFF_ROLES = ["pesanan", "katalog", "keuangan", "pegawai", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** How the screens name each role. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  pesanan: "Pesanan",
  katalog: "Katalog",
  keuangan: "Keuangan",
  pegawai: "Pegawai",
  admin: "Admin",
};

/** What each role opens (for the staff screen and the CLI's help). */
export const STAFF_ROLE_AREAS: Record<StaffRole, string> = {
  pesanan: "antrean dan keputusan pesanan, pencarian pesanan",
  katalog: "produk, foto, promo, banner, kategori, impor katalog",
  keuangan: "pengembalian dana, laporan keuangan, insiden pembayaran, penarikan saldo, ekspor, pesan",
  pegawai: "daftar pegawai dan akun pembeli",
  admin: "staf dan pengaturan; semua area lain",
};

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);

/** Whether someone with `roles` may use an area that needs any of `needed` ('admin' may use all). */
export function hasRole(roles: readonly StaffRole[], needed: StaffRole | readonly StaffRole[]): boolean {
  if (roles.includes("admin")) return true;
  const any = typeof needed === "string" ? [needed] : needed;
  return any.some((role) => roles.includes(role));
}
