import { useState } from "react";
import { data, Form, redirect, useLocation } from "react-router";
import type { Route } from "./+types/detail";
import { readForm } from "~/.server/http/request";
import { getProductDetail } from "~/.server/store/catalogue";
import { startCheckout } from "~/.server/store/checkout";
import { getUser } from "~/.server/http/session";
import { countView } from "~/.server/http/viewed-products-cookie";
import { ImageSlider } from "~/components/image-slider";
import { IncentiveBadges } from "~/components/incentive-badges";
import { StarIcon } from "~/components/icons";
import { LinkifiedText } from "~/components/linkified-text";
import { Sheet } from "~/components/sheet";
import { SubmitButton } from "~/components/submit-button";
import { displayTitle, formatCount, formatWeight, ratingOutOfHundred } from "~/lib/display";
import { formatPrice, formatRupiah } from "~/lib/money";
import { applyDiscount, isDiscounted } from "~/lib/pricing";
import type { RouteHandle } from "~/lib/route-handle";
import { parseId } from "~/lib/ids";

export const handle: RouteHandle = { title: "Detail Produk" };

const NOT_VERIFIED = "Aktivasi akun Anda terlebih dahulu untuk mulai bertransaksi.";
const NOT_ORDERABLE = "Produk ini belum dapat dipesan.";
const OUT_OF_STOCK = "Stok produk habis.";
const TERMS_SHEET = "syarat";

/** The product id from the address; anything but a plain positive number is an unknown product. */
function productIdOf(param: string | undefined): number {
  const id = parseId(param);
  if (id === null) throw data("Not Found", { status: 404 });
  return id;
}

type OrderState = { allowed: true } | { allowed: false; reason: string };

/** Whether this reader may order: anonymous readers may press (and are asked to log in). */
function orderStateOf(
  user: { verified: boolean } | null,
  product: { orderable: boolean; price: number | null; stock: number },
): OrderState {
  if (!product.orderable || product.price === null) return { allowed: false, reason: NOT_ORDERABLE };
  if (product.stock <= 0) return { allowed: false, reason: OUT_OF_STOCK };
  if (user && !user.verified) return { allowed: false, reason: NOT_VERIFIED };
  return { allowed: true };
}

export async function loader({ params, context, request, url }: Route.LoaderArgs) {
  const id = productIdOf(params.id);
  // Once per visitor and product, never on HEAD (viewed-products-cookie.ts).
  const view = countView(request, id);
  const product = await getProductDetail(id, { countView: view.count });
  if (!product) throw data("Not Found", { status: 404 });
  const sheetOpen = url.searchParams.get("sheet") === TERMS_SHEET;
  return data(
    { product, order: orderStateOf(getUser(context), product), sheetOpen },
    { headers: view.setCookie ? { "Set-Cookie": view.setCookie } : undefined },
  );
}

/**
 * 'Beli Sekarang' (intent 'order'): log in first, then an active account, then the user's one
 * checkout draft is started (or replaced) for this product and the checkout opens. The store checks
 * again (stock may run out between the page and the press) and its refusal is shown here.
 */
export async function action({ params, context, request }: Route.ActionArgs) {
  const id = productIdOf(params.id);
  const product = await getProductDetail(id);
  if (!product) throw data("Not Found", { status: 404 });
  const form = await readForm(request);
  if (form.get("intent") !== "order") return data({ error: "Permintaan tidak dikenal." }, { status: 400 });
  const user = getUser(context);
  if (!user) throw redirect(`/authrequired?redirect=${encodeURIComponent(`/detail/${id}`)}`);
  const order = orderStateOf(user, product);
  if (!order.allowed) return data({ error: order.reason }, { status: 403 });
  // The NIK and KTP photo of the buyer's previous order are offered again (issue 38).
  const started = await startCheckout(user, id, { offerSaved: true });
  if (!started.ok) return data({ error: started.message }, { status: 409 });
  throw redirect("/checkout");
}

export default function ProductDetailScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { product, order } = loaderData;
  const location = useLocation();
  // With JavaScript the sheet opens in place; without it, `?sheet=syarat` renders it on the server.
  const [sheetOpen, setSheetOpen] = useState(loaderData.sheetOpen);
  const [sheetFromAddress, setSheetFromAddress] = useState(loaderData.sheetOpen);
  if (sheetFromAddress !== loaderData.sheetOpen) {
    setSheetFromAddress(loaderData.sheetOpen);
    setSheetOpen(loaderData.sheetOpen);
  }
  const closeSheet = () => {
    setSheetOpen(false);
    const url = new URL(window.location.href);
    if (url.searchParams.has("sheet")) {
      url.searchParams.delete("sheet");
      window.history.replaceState(window.history.state, "", url);
    }
  };
  // The sheet opens and closes on this address, keeping `from` (where the back arrow leads).
  const withSheet = (open: boolean) => {
    const params = new URLSearchParams(location.search);
    if (open) params.set("sheet", TERMS_SHEET);
    else params.delete("sheet");
    const query = params.toString();
    return query ? `${location.pathname}?${query}` : location.pathname;
  };
  const title = displayTitle(product.title);
  const discounted = isDiscounted(product.price, product);
  const rating = ratingOutOfHundred(product.ratingPercentage);
  const reason = actionData?.error ?? (order.allowed ? null : order.reason);

  return (
    <article className="product-detail">
      <ImageSlider images={product.images} title={title} />

      <section className="detail-section detail-summary">
        <p className="detail-price" data-testid="detail-price">
          {formatPrice(product.price === null ? null : applyDiscount(product.price, product))}
        </p>
        {discounted ? (
          <p className="detail-original">
            <s data-testid="detail-original-price">{formatPrice(product.price)}</s>
            <span className="discount-badge">
              {product.discountType === "%" ? `-${Math.min(100, product.discount)}%` : `Hemat ${formatRupiah(product.discount)}`}
            </span>
          </p>
        ) : null}
        <h2 className="detail-title">{title}</h2>
        <p className="detail-stats">
          {rating !== null ? (
            <span data-testid="detail-rating">
              <StarIcon size={14} /> {rating}/100
            </span>
          ) : (
            <span data-testid="detail-rating">Belum ada rating</span>
          )}
          <span data-testid="detail-sold">{formatCount(product.sellCount)} terjual</span>
          <span data-testid="detail-views">{formatCount(product.viewCount)} kali dilihat</span>
        </p>
      </section>

      <IncentiveBadges promos={product.promo} />

      {product.promo.length ? (
        <section className="detail-section detail-promos">
          <p>
            <strong>{product.promo.length} promo</strong> untuk produk ini
          </p>
          <a
            href={withSheet(true)}
            className="link-button"
            onClick={(event) => {
              event.preventDefault();
              setSheetOpen(true);
            }}
          >
            Syarat &amp; Ketentuan
          </a>
        </section>
      ) : null}

      <section className="detail-section">
        <h3>Informasi Produk</h3>
        <dl className="detail-facts">
          <dt>Kategori</dt>
          <dd data-testid="detail-category">{product.categoryTitle ?? "-"}</dd>
          <dt>Kondisi</dt>
          <dd data-testid="detail-condition">{product.condition}</dd>
          <dt>Berat</dt>
          <dd data-testid="detail-weight">{formatWeight(product.weightGram)}</dd>
          <dt>Pembelian</dt>
          <dd data-testid="detail-minimum">Min. pembelian {formatCount(product.addInfo.minimum_purchase)} barang</dd>
          <dt>Dikirim dari</dt>
          <dd>{product.cityName ?? "-"}</dd>
        </dl>
      </section>

      <section className="detail-section">
        <h3>Deskripsi</h3>
        <p className="detail-description" data-testid="detail-description">
          {product.description ? <LinkifiedText text={product.description} /> : "-"}
        </p>
      </section>

      <Form method="post" className="order-bar" replace preventScrollReset>
        <input type="hidden" name="intent" value="order" />
        {reason ? (
          <p className="order-reason" role="status" id="order-reason">
            {reason}
          </p>
        ) : null}
        <SubmitButton
          className="btn btn-primary btn-block"
          disabled={!order.allowed}
          aria-describedby={reason ? "order-reason" : undefined}
        >
          Beli Sekarang
        </SubmitButton>
      </Form>

      {sheetOpen ? (
        <Sheet title="Syarat & Ketentuan Promo" closeHref={withSheet(false)} onClose={closeSheet}>
          {product.promo.length ? (
            <ul className="promo-list">
              {product.promo.map((promo) => (
                <li key={promo.id} className="promo-item" data-testid="promo-item">
                  <p className="promo-title">{promo.title}</p>
                  <p className="promo-discount">
                    Potongan {promo.discountType === "%" ? `${promo.discount}%` : formatRupiah(promo.discount)}
                  </p>
                  {promo.description ? (
                    <p className="promo-description">
                      <LinkifiedText text={promo.description} />
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p>Tidak ada promo untuk produk ini.</p>
          )}
        </Sheet>
      ) : null}
    </article>
  );
}
