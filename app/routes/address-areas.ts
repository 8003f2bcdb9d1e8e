import { data } from "react-router";
import type { Route } from "./+types/address-areas";
import { AREA_SEARCH_MAX, listAreaLevel } from "./address-areas.server";
import type { Area } from "~/.server/store/checkout";
import { type AreaLevel, isAreaLevel } from "~/lib/schemas/checkout";

// The options of one level of the address pickers (spec §7 location lists), for /address with
// JavaScript: a change of the parent or a search loads the level in place through a fetcher.
// Without JavaScript /address renders the same lists itself.

export async function loader({ url }: Route.LoaderArgs) {
  const params = url.searchParams;
  const level = params.get("level");
  const parent = params.get("parent") ?? "";
  const search = (params.get("cari") ?? "").slice(0, AREA_SEARCH_MAX);
  if (!isAreaLevel(level)) return data({ level: "provinsiId" as AreaLevel, parent, search, areas: [] as Area[] }, { status: 400 });
  return { level, parent, search, areas: await listAreaLevel(level, parent, search) };
}
