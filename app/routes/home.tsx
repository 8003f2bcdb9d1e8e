import type { Route } from "./+types/home";
import { listBanners, listProductPages } from "~/.server/store/catalogue";
import { VerificationPrompt } from "~/components/account-verification";
import { BannerCarousel } from "~/components/banner-carousel";
import { ProductGrid } from "~/components/product-grid";
import { readPage } from "~/lib/paging";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Beranda" };

/** Spec §2 Home: banners and the first product page (pages 0..N after 'Muat lebih banyak'). */
export async function loader({ url }: Route.LoaderArgs) {
  const { page, only } = readPage(url);
  const pages = await listProductPages({}, page, { only });
  // A script appending the next page needs only the products.
  if (only) return { pages, banners: [], verificationCode: null };
  const code = url.searchParams.get("verificationCode");
  return {
    pages,
    banners: await listBanners(),
    verificationCode: code && code.length <= 200 ? code : null,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {/* The logo names the store visually; the page's heading says it to screen readers. */}
      <h1 className="sr-only">Toko Pegawai PLN — Beranda</h1>
      <BannerCarousel banners={loaderData.banners} />
      <h2 className="section-title">Produk Pilihan</h2>
      {/* The first banner is the largest image on screen and the page's LCP: nothing else is fetched
          before it. The cards' pictures are all lazy (none preloaded in the head), so even the first
          row's are requested once the page is laid out, after the banner, and the rest only near
          the screen (issue 43). */}
      <ProductGrid
        pages={loaderData.pages}
        eagerImages={0}
        priorityImages={0}
        emptyText="Belum ada produk di toko ini. Produk akan tampil di sini setelah katalog diisi."
      />
      {loaderData.verificationCode ? <VerificationPrompt code={loaderData.verificationCode} /> : null}
    </>
  );
}
