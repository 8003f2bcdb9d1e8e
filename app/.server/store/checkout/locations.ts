import { and, asc, eq, ilike, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { getDb, type Executor } from "../../db/client";
import { districts, provinces, regencies, villages, type AddressInput } from "../../db/schema";

// Spec §7 "location": the four levels of Indonesian administrative areas (idn-area-data, loaded by
// the reference seed), and the check that an address's levels really belong together — the form
// posts codes, and a forged combination must be a message, never a broken order.

export type Area = { id: string; name: string };
export const AREA_SEARCH_MIN = 3;
const AREA_SEARCH_MAX = 60;
const FULL_ADDRESS_MAX = 500;

/** LIKE treats % and _ as wildcards and \ as the escape: the search matches literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Case-insensitive "contains", only once the user typed AREA_SEARCH_MIN characters. */
function searchCondition(column: AnyPgColumn, search: string | undefined): SQL | undefined {
  const term = (search ?? "").trim().slice(0, AREA_SEARCH_MAX);
  return term.length >= AREA_SEARCH_MIN ? ilike(column, `%${escapeLike(term)}%`) : undefined;
}

const isCode = (value: unknown): value is string => typeof value === "string" && /^[0-9]{1,4}(\.[0-9]{1,4}){0,3}$/.test(value);

export async function listProvinces(search?: string): Promise<Area[]> {
  const db = await getDb();
  return db
    .select({ id: provinces.code, name: provinces.name })
    .from(provinces)
    .where(searchCondition(provinces.name, search))
    .orderBy(asc(provinces.name), asc(provinces.code));
}

export async function listRegencies(provinsiId: string, search?: string): Promise<Area[]> {
  if (!isCode(provinsiId)) return [];
  const db = await getDb();
  return db
    .select({ id: regencies.code, name: regencies.name })
    .from(regencies)
    .where(and(eq(regencies.provinceCode, provinsiId), searchCondition(regencies.name, search)))
    .orderBy(asc(regencies.name), asc(regencies.code));
}

export async function listDistricts(kotaId: string, search?: string): Promise<Area[]> {
  if (!isCode(kotaId)) return [];
  const db = await getDb();
  return db
    .select({ id: districts.code, name: districts.name })
    .from(districts)
    .where(and(eq(districts.regencyCode, kotaId), searchCondition(districts.name, search)))
    .orderBy(asc(districts.name), asc(districts.code));
}

export async function listVillages(kecamatanId: string, search?: string): Promise<Area[]> {
  if (!isCode(kecamatanId)) return [];
  const db = await getDb();
  return db
    .select({ id: villages.code, name: villages.name })
    .from(villages)
    .where(and(eq(villages.districtCode, kecamatanId), searchCondition(villages.name, search)))
    .orderBy(asc(villages.name), asc(villages.code));
}

export type ResolvedAddress = AddressInput & { provinsi: string; kota: string; kecamatan: string; kelurahan: string };

type Failure = { ok: false; field: keyof AddressInput; message: string };
const fail = (field: keyof AddressInput, message: string): Failure => ({ ok: false, field, message });

/**
 * Checks the chain (kota in provinsi, kecamatan in kota, kelurahan in kecamatan) and kodePos
 * (5 digits), and looks the names up (an order keeps them as a snapshot). Input may be forged: any
 * field may be missing or not a string. `executor`: the transaction to read in, if any.
 */
export async function resolveAddress(input: AddressInput, executor?: Executor): Promise<{ ok: true; address: ResolvedAddress } | Failure> {
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const fullAddress = text(input?.fullAddress);
  const [provinsiId, kotaId, kecamatanId, kelurahanId, kodePos] = [
    input?.provinsiId,
    input?.kotaId,
    input?.kecamatanId,
    input?.kelurahanId,
    input?.kodePos,
  ].map(text) as [string, string, string, string, string];

  if (!fullAddress) return fail("fullAddress", "Alamat lengkap tidak boleh kosong.");
  if (fullAddress.length > FULL_ADDRESS_MAX) return fail("fullAddress", `Alamat lengkap maksimal ${FULL_ADDRESS_MAX} karakter.`);
  if (!provinsiId) return fail("provinsiId", "Provinsi tidak boleh kosong.");
  if (!kotaId) return fail("kotaId", "Kota/Kabupaten tidak boleh kosong.");
  if (!kecamatanId) return fail("kecamatanId", "Kecamatan tidak boleh kosong.");
  if (!kelurahanId) return fail("kelurahanId", "Kelurahan tidak boleh kosong.");
  if (!kodePos) return fail("kodePos", "Kode pos tidak boleh kosong.");
  if (!/^[0-9]{5}$/.test(kodePos)) return fail("kodePos", "Kode pos harus 5 digit angka.");

  const db = executor ?? (await getDb());
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0];
  const [provinsi, kota, kecamatan, kelurahan] = await Promise.all([
    isCode(provinsiId) ? one(db.select({ name: provinces.name }).from(provinces).where(eq(provinces.code, provinsiId))) : undefined,
    isCode(kotaId)
      ? one(db.select({ name: regencies.name, parent: regencies.provinceCode }).from(regencies).where(eq(regencies.code, kotaId)))
      : undefined,
    isCode(kecamatanId)
      ? one(db.select({ name: districts.name, parent: districts.regencyCode }).from(districts).where(eq(districts.code, kecamatanId)))
      : undefined,
    isCode(kelurahanId)
      ? one(db.select({ name: villages.name, parent: villages.districtCode }).from(villages).where(eq(villages.code, kelurahanId)))
      : undefined,
  ]);
  // Top down, so the message names the first level that does not fit its parent.
  if (!provinsi) return fail("provinsiId", "Provinsi tidak ditemukan.");
  if (!kota || kota.parent !== provinsiId) return fail("kotaId", "Kota/Kabupaten tidak berada di provinsi yang dipilih.");
  if (!kecamatan || kecamatan.parent !== kotaId) return fail("kecamatanId", "Kecamatan tidak berada di kota/kabupaten yang dipilih.");
  if (!kelurahan || kelurahan.parent !== kecamatanId) return fail("kelurahanId", "Kelurahan tidak berada di kecamatan yang dipilih.");
  return {
    ok: true,
    address: {
      fullAddress,
      provinsiId,
      kotaId,
      kecamatanId,
      kelurahanId,
      kodePos,
      provinsi: provinsi.name,
      kota: kota.name,
      kecamatan: kecamatan.name,
      kelurahan: kelurahan.name,
    },
  };
}
