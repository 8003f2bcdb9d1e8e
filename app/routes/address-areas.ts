import { data } from "react-router";
import type { Route } from "./+types/address-areas";
import { type Area, listDistricts, listProvinces, listRegencies, listVillages } from "~/.server/store/locations";
import { AREA_CODE, type AreaLevel, isAreaLevel } from "~/lib/schemas/checkout";

// The options of one level of the address pickers (spec §7 location lists), for /address with
// JavaScript: a change of the parent or a search loads the level in place through a fetcher.
// Without JavaScript /address renders the same lists itself.

const SEARCH_MAX = 50;

/** One level's areas under `parent` (none for the provinces), narrowed by `search`. Codes that are
 * not area codes are never looked up: the list is empty. */
export async function listAreaLevel(level: AreaLevel, parent: string, search: string): Promise<Area[]> {
  const query = search.trim().slice(0, SEARCH_MAX) || undefined;
  if (level === "provinsiId") return listProvinces(query);
  if (!AREA_CODE.test(parent)) return [];
  if (level === "kotaId") return listRegencies(parent, query);
  if (level === "kecamatanId") return listDistricts(parent, query);
  return listVillages(parent, query);
}

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const level = params.get("level");
  const parent = params.get("parent") ?? "";
  const search = (params.get("cari") ?? "").slice(0, SEARCH_MAX);
  if (!isAreaLevel(level)) return data({ level: "provinsiId" as AreaLevel, parent, search, areas: [] as Area[] }, { status: 400 });
  return { level, parent, search, areas: await listAreaLevel(level, parent, search) };
}
