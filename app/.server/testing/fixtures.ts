import { randomInt, randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { companies, districts, productPromos, products, promos, regencies, users, villages, type AddressInput } from "../db/schema";
import type { CheckoutSubmission } from "../store/checkout";

// Rows for the backend tests and `npm run bench:orders` — never imported by the app. Every row is
// new (random e-mail, sku, promo code), so the tests also run on a shared PostgreSQL that already
// holds other rows.

/**
 * On a shared PostgreSQL (CI's DATABASE_URL run, files in parallel), a test file that creates
 * products would shift every catalogue listing while the catalogue tests page through it. Such a
 * file calls this first (before anything opens the database): it gets a fresh database of its own
 * on the same server, migrated and seeded by the first getDb(). Returns the cleanup for afterAll.
 * Without DATABASE_URL (PGlite, one per file already) it does nothing.
 */
export async function useOwnPostgresDatabase(): Promise<() => Promise<void>> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return async () => {};
  const { default: postgres } = await import("postgres");
  const { resetEnvForTests } = await import("../env");
  const { closeDb } = await import("../db/client");
  const name = `store_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const own = new URL(shared);
  own.pathname = `/${name}`;
  process.env.DATABASE_URL = own.toString();
  resetEnvForTests();
  return async () => {
    await closeDb();
    process.env.DATABASE_URL = shared;
    resetEnvForTests();
    const cleanup = postgres(shared, { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
}

export type TestUser = { id: number; email: string; nip: string; fullname: string; phoneNo: string };

/** A company of its own for a test (its roster then touches no other test's accounts); `label` names the file. */
export async function createCompany(db: Db, label: string): Promise<{ id: number; name: string }> {
  const name = `PT Uji ${label} ${randomUUID().slice(0, 8)}`;
  const [row] = await db.insert(companies).values({ name }).returning({ id: companies.id });
  return { id: row!.id, name };
}

/** A verified account (no usable password: these users never sign in). */
export async function createVerifiedUser(
  db: Db,
  overrides: Partial<{ nip: string; phoneNo: string; verified: boolean }> = {},
): Promise<TestUser> {
  const [company] = await db.select({ id: companies.id }).from(companies).orderBy(asc(companies.id)).limit(1);
  const tag = randomUUID().slice(0, 12);
  const values = {
    fullname: "Siti Rahma",
    username: `pembeli-${tag}`,
    email: `pembeli-${tag}@example.test`,
    phoneNo: overrides.phoneNo ?? "081234567890",
    nip: overrides.nip ?? `NIP${tag}`,
    companyId: company!.id,
    passwordHash: "-",
    verifiedAt: overrides.verified === false ? null : new Date(),
  };
  const [user] = await db.insert(users).values(values).returning({ id: users.id });
  return { id: user!.id, email: values.email, nip: values.nip, fullname: values.fullname, phoneNo: values.phoneNo };
}

export type TestPromo = { title: string; discount: number; discountType: "v" | "%"; incentive?: boolean };

export const INCENTIVE_PROMO: TestPromo = {
  title: "Insentif Pemerintah Kendaraan Listrik",
  discount: 7_000_000,
  discountType: "v",
  incentive: true,
};
export const EMPLOYEE_PROMO: TestPromo = { title: "Promo Pegawai PLN Group", discount: 1_000_000, discountType: "v" };
export const ICP_PROMO: TestPromo = { title: "Insentif Cashback PLN (ICP)", discount: 250_000, discountType: "v" };

/** A product of its own, with its own promos. */
export async function createProduct(
  db: Db,
  options: Partial<{
    title: string;
    price: number | null;
    discount: number;
    discountType: "v" | "%";
    stock: number;
    orderable: boolean;
    promos: TestPromo[];
    status: "draf" | "tayang" | "arsip";
  }> = {},
): Promise<number> {
  const tag = randomUUID().slice(0, 12);
  const [product] = await db
    .insert(products)
    .values({
      sku: `test-${tag}`,
      title: options.title ?? `Motor Listrik Uji ${tag}`,
      price: options.price === undefined ? 28_500_000 : options.price,
      discount: options.discount ?? 0,
      discountType: options.discountType ?? "v",
      stock: options.stock ?? 10,
      orderable: options.orderable === false ? 0 : 1,
      status: options.status ?? "tayang",
    })
    .returning({ id: products.id });
  for (const promo of options.promos ?? []) {
    const [row] = await db
      .insert(promos)
      .values({
        code: `test-${randomUUID().slice(0, 12)}`,
        title: promo.title,
        discount: promo.discount,
        discountType: promo.discountType,
        incentive: promo.incentive ? 1 : 0,
      })
      .returning({ id: promos.id });
    await db.insert(productPromos).values({ productId: product!.id, promoId: row!.id });
  }
  return product!.id;
}

export async function productStock(db: Db, productId: number): Promise<number> {
  const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  return row!.stock;
}

/** A real address: the first village of the reference data with its district, regency and province. */
export async function realAddress(db: Db): Promise<AddressInput> {
  const [row] = await db
    .select({ kelurahanId: villages.code, kecamatanId: districts.code, kotaId: regencies.code, provinsiId: regencies.provinceCode })
    .from(villages)
    .innerJoin(districts, eq(districts.code, villages.districtCode))
    .innerJoin(regencies, eq(regencies.code, districts.regencyCode))
    .where(sql`${villages.districtCode} = '32.73.01'`)
    .orderBy(asc(villages.code))
    .limit(1);
  return { fullAddress: "Jl. Asia Afrika No. 63", kodePos: "40111", ...row! };
}

/** A fresh 16-digit NIK (starting 32: West Java). */
export const randomNik = () => `32${String(randomInt(0, 1e8)).padStart(8, "0")}${String(randomInt(0, 1e6)).padStart(6, "0")}`;

export function submission(user: TestUser, overrides: Partial<CheckoutSubmission> = {}): CheckoutSubmission {
  return {
    note: "",
    buyerName: user.fullname,
    buyerPhoneNumber: user.phoneNo,
    buyerEmail: user.email,
    buyerNik: randomNik(),
    buyerNip: user.nip,
    buyerDadName: null,
    insentif: false,
    ajukanInsentifPegawai: false,
    ...overrides,
  };
}
