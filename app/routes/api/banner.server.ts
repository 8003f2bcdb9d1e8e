import { defineArea, notFound, ok, requireId } from "~/.server/http/api";
import { BANNER, list } from "~/.server/http/api-shapes";
import { listBanners } from "~/.server/store/catalogue";

// Spec §7 banner/list and banner/detail: the home carousel's banners.

const bannerArea = defineArea("banner", {
  "/list": {
    method: "GET",
    auth: false,
    doc: { summary: "The home banners, in their order", data: list(BANNER) },
    handle: async () => ok(await listBanners()),
  },
  "/detail": {
    method: "GET",
    auth: false,
    doc: {
      summary: "One banner",
      query: { id: { type: "integer", description: "Banner id", required: true } },
      data: BANNER,
      errors: [400, 404],
    },
    async handle({ url }) {
      const id = requireId(url.searchParams.get("id"), "id", "Banner tidak ditemukan.");
      const banner = (await listBanners()).find((b) => b.id === id);
      if (!banner) throw notFound("Banner tidak ditemukan.");
      return ok(banner);
    },
  },
});

export const BANNER_AREA = bannerArea;
