import type { AddressInput } from "../db/schema";

export type Area = { id: string; name: string };
export const AREA_SEARCH_MIN = 3;

export async function listProvinces(search?: string): Promise<Area[]> {
  void search;
  throw new Error("not implemented");
}
export async function listRegencies(provinsiId: string, search?: string): Promise<Area[]> {
  void provinsiId, search;
  throw new Error("not implemented");
}
export async function listDistricts(kotaId: string, search?: string): Promise<Area[]> {
  void kotaId, search;
  throw new Error("not implemented");
}
export async function listVillages(kecamatanId: string, search?: string): Promise<Area[]> {
  void kecamatanId, search;
  throw new Error("not implemented");
}

export type ResolvedAddress = AddressInput & { provinsi: string; kota: string; kecamatan: string; kelurahan: string };

/** Checks the chain (kota in provinsi, …) and kodePos (5 digits); names looked up. */
export async function resolveAddress(input: AddressInput): Promise<{ ok: true; address: ResolvedAddress } | { ok: false; field: keyof AddressInput; message: string }> {
  void input;
  throw new Error("not implemented");
}
