import { type Area, listDistricts, listProvinces, listRegencies, listVillages } from "~/.server/store/checkout";
import { AREA_CODE, type AreaLevel } from "~/lib/schemas/checkout";

// Server-only helper of /address and /address/areas (kept beside them: both routes render the same
// lists, one as a page, one for a fetcher).

export const AREA_SEARCH_MAX = 50;

/** One level's areas under `parent` (none for the provinces), narrowed by `search`. Codes that are
 * not area codes are never looked up: the list is empty. */
export async function listAreaLevel(level: AreaLevel, parent: string, search: string): Promise<Area[]> {
  const query = search.trim().slice(0, AREA_SEARCH_MAX) || undefined;
  if (level === "provinsiId") return listProvinces(query);
  if (!AREA_CODE.test(parent)) return [];
  if (level === "kotaId") return listRegencies(parent, query);
  if (level === "kecamatanId") return listDistricts(parent, query);
  return listVillages(parent, query);
}
