import { sql } from "drizzle-orm";
import type { Db } from "./types";
import { queryRows } from "./query-rows";
import { companies, orderStatuses, paymentMethods } from "./schema";
import { seedSettings } from "./settings";

/** The companies of the PLN group whose employees may register. */
export const PLN_GROUP_COMPANIES = [
  "PT PLN (Persero)",
  "PT PLN Indonesia Power",
  "PT PLN Nusantara Power",
  "PT PLN Energi Primer Indonesia",
  "PT PLN Icon Plus",
  "PT PLN Enjiniring",
  "PT PLN Batam",
  "PT PLN Tarakan",
  "PT PLN Nusa Daya",
  "PT Haleyora Power",
  "PT PLN Pusat Pemeliharaan Ketenagalistrikan",
  "PT PLN Mobile Energi",
];

/** Order statuses; the ids are fixed by the spec (see DESIGN §6). */
export const ORDER_STATUSES = [
  { id: 1, name: "Dibatalkan" },
  { id: 2, name: "Kedaluwarsa / Ditolak" },
  { id: 100, name: "Menunggu Verifikasi Insentif" },
  { id: 200, name: "Menunggu Pembayaran" },
  { id: 300, name: "Pembayaran Diterima" },
  { id: 301, name: "Menunggu Persetujuan Cicilan" },
  { id: 302, name: "Verifikasi Bukti Transfer" },
  { id: 400, name: "Dalam Pengiriman" },
  { id: 500, name: "Selesai" },
];

export const PAYMENT_METHODS: (typeof paymentMethods.$inferInsert)[] = [
  {
    code: "BNI-VA",
    name: "BNI Virtual Account",
    type: "virtual_account",
    groupName: "Virtual Account",
    imageUrl: "/images/payment/bni.svg",
    fee: 4000,
    position: 1,
  },
  {
    code: "BRI-VA",
    name: "BRI Virtual Account",
    type: "virtual_account",
    groupName: "Virtual Account",
    imageUrl: "/images/payment/bri.svg",
    fee: 4000,
    position: 2,
  },
  {
    code: "MANDIRI-VA",
    name: "Mandiri Virtual Account",
    type: "virtual_account",
    groupName: "Virtual Account",
    imageUrl: "/images/payment/mandiri.svg",
    fee: 4000,
    position: 3,
  },
  {
    code: "MANUAL-BNI",
    name: "Transfer Bank BNI (Manual)",
    type: "bank_transfer",
    groupName: "Manual",
    imageUrl: "/images/payment/bni.svg",
    fee: 0,
    position: 4,
  },
  {
    code: "BNI-INSTALLMENT",
    name: "Cicilan Kartu Kredit BNI",
    type: "installment",
    groupName: "Cicilan",
    imageUrl: "/images/payment/bni.svg",
    fee: 0,
    applyUrl: "https://www.bni.co.id/id-id/personal/kartu-kredit",
    position: 5,
  },
  {
    code: "BRI-CERIA",
    name: "BRI Ceria (Paylater)",
    type: "paylater",
    groupName: "Lainnya",
    imageUrl: "/images/payment/bri.svg",
    fee: 0,
    position: 6,
  },
];

/**
 * Loads the reference data every database needs. Safe to run at every start: rows are upserted and
 * the administrative areas are loaded only into empty tables.
 */
export async function seedReferenceData(db: Db) {
  // Only into an empty table: an admin renames and hides companies in /ops/settings (issue 27).
  const [{ companyCount }] = await queryRows<{ companyCount: number }>(db, sql`select count(*)::int as "companyCount" from companies`);
  if (companyCount === 0) await db.insert(companies).values(PLN_GROUP_COMPANIES.map((name) => ({ name })));
  for (const status of ORDER_STATUSES) {
    await db
      .insert(orderStatuses)
      .values(status)
      .onConflictDoUpdate({ target: orderStatuses.id, set: { name: status.name } });
  }
  await db.insert(paymentMethods).values(PAYMENT_METHODS).onConflictDoNothing();
  await seedSettings(db);
  await seedAreas(db);
}

/** Rows per insert statement: bounds the statement (and PGlite's memory for it) on the 83,762 villages. */
const AREA_BATCH = 5_000;

async function seedAreas(db: Db) {
  const [{ count }] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from villages`);
  if (count > 0) return;
  // Level by level, each CSV read only when its level is loaded and dropped after it; rows go in
  // as arrays (unnest), AREA_BATCH at a time: fast on PGlite and PostgreSQL alike. The package is
  // loaded only here: a server started from the prepared database never needs it.
  const { getDistricts, getProvinces, getRegencies, getVillages } = await import("idn-area-data");
  const provinces = await getProvinces();
  await insertAreas(
    db,
    "provinces (code, name)",
    provinces.map((p) => [p.code, p.name]),
  );
  const regencies = (await getRegencies({ transform: true } as never)) as unknown as { code: string; provinceCode: string; name: string }[];
  await insertAreas(
    db,
    "regencies (code, province_code, name)",
    regencies.map((r) => [r.code, r.provinceCode, r.name]),
  );
  const districts = (await getDistricts({ transform: true } as never)) as unknown as { code: string; regencyCode: string; name: string }[];
  await insertAreas(
    db,
    "districts (code, regency_code, name)",
    districts.map((d) => [d.code, d.regencyCode, d.name]),
  );
  const villages = (await getVillages({ transform: true } as never)) as unknown as { code: string; districtCode: string; name: string }[];
  await insertAreas(
    db,
    "villages (code, district_code, name)",
    villages.map((v) => [v.code, v.districtCode, v.name]),
  );
}

/** Inserts rows of text columns into `target` ("table (columns)", a constant), in batches. */
async function insertAreas(db: Db, target: string, rows: string[][]) {
  const width = rows[0]?.length ?? 0;
  for (let start = 0; start < rows.length; start += AREA_BATCH) {
    const batch = rows.slice(start, start + AREA_BATCH);
    const columns = Array.from({ length: width }, (_, i) => sql`${pgArray(batch.map((row) => row[i]!))}::text[]`);
    await db.execute(sql`insert into ${sql.raw(target)} select * from unnest(${sql.join(columns, sql`, `)}) on conflict do nothing`);
  }
}

/** A PostgreSQL array literal, sent as one text parameter (both drivers accept it for ::text[]). */
function pgArray(values: string[]) {
  return `{${values.map((v) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}
