import { defineArea, ok } from "~/.server/http/api";
import { ID_NAME, list } from "~/.server/http/api-shapes";
import { listDistricts, listProvinces, listRegencies, listVillages } from "~/.server/store/checkout";
import { AREA_CODE } from "~/lib/schemas/checkout";

// Spec §7 location/provinsi, /kota, /kecamatan, /kelurahan: the address pickers' lists (id, name).
// A missing or malformed parent id is an empty list, as the pickers show it.

const parentOf = (url: URL, name: string) => {
  const value = url.searchParams.get(name)?.trim() ?? "";
  return AREA_CODE.test(value) ? value : null;
};
const search = (url: URL) => url.searchParams.get("search")?.slice(0, 100) || undefined;
const SEARCH = { search: { type: "string" as const, description: "Narrows the list from 3 characters on" } };
const level = (parent: string, summary: string, list_: (id: string, search?: string) => Promise<{ id: string; name: string }[]>) => ({
  method: "GET" as const,
  auth: false as const,
  doc: {
    summary,
    query: { [parent]: { type: "string" as const, description: "The parent area's id", required: true }, ...SEARCH },
    data: list(ID_NAME),
  },
  async handle({ url }: { url: URL }) {
    const id = parentOf(url, parent);
    return ok(id ? await list_(id, search(url)) : []);
  },
});

const area = defineArea("location", {
  "/provinsi": {
    method: "GET",
    auth: false,
    doc: { summary: "Provinces", query: SEARCH, data: list(ID_NAME) },
    handle: async ({ url }) => ok(await listProvinces(search(url))),
  },
  "/kota": level("provinsiId", "Cities and regencies of a province", listRegencies),
  "/kecamatan": level("kotaId", "Districts of a city or regency", listDistricts),
  "/kelurahan": level("kecamatanId", "Villages of a district", listVillages),
});

export const LOCATION_AREA = area;
