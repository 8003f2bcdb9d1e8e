import { memo } from "react";
import { Link } from "react-router";
import type { ProductListItem } from "~/.server/store/catalogue";
import { withFrom } from "~/lib/back-link";
import { displayTitle, formatCount, formatRating } from "~/lib/display";
import { formatPrice } from "~/lib/money";
import { applyDiscount, isDiscounted } from "~/lib/pricing";
import { PhotoIcon, StarIcon } from "./icons";
import { FadeInImage } from "./fade-in-image";

/**
 * Spec §2 product card and §5 display rules: image on a grey placeholder (fixed square, so nothing
 * moves when it loads; it stays grey when the image fails; a product without a photo says so), title on up to two lines with an
 * ellipsis (CSS; decision 0015) ('-' when absent), price after the product's own discount ('-' when absent) with the original struck
 * through, rating 0-5 with a star only when rated, 'N terjual' only when sold, city. Opens the
 * detail, telling it the list to go back to (`from`). Memoised: a list's cards are drawn by hydration
 * and not again by React Router's own updates that follow it (issue 29).
 */
export const ProductCard = memo(function ProductCard({
  product,
  eager = false,
  priority = false,
  anchor,
  from = "",
}: {
  product: ProductListItem;
  /** Its image loads at once (and `priority`: before other images; FadeInImage). */
  eager?: boolean;
  priority?: boolean;
  anchor?: string;
  from?: string;
}) {
  const { price } = product;
  const discounted = isDiscounted(price, product);
  const rating = formatRating(product.ratingPercentage);
  const fullTitle = product.title?.trim() || undefined;
  return (
    <li className="product-card" id={anchor} data-testid="product-card" data-product-id={product.id}>
      <Link to={withFrom(`/detail/${product.id}`, from)} className="product-card-link" title={fullTitle}>
        {product.imageUrl ? (
          <div className="product-card-media">
            <FadeInImage
              src={product.imageUrl}
              width={product.imageWidth ?? 360}
              height={product.imageHeight ?? 360}
              eager={eager}
              priority={priority}
            />
          </div>
        ) : (
          <div className="product-card-media product-card-media-empty" role="img" aria-label="Foto belum tersedia">
            <PhotoIcon size={40} />
            <span aria-hidden="true">Foto belum tersedia</span>
          </div>
        )}
        <div className="product-card-body">
          <h3 className="product-card-title">{displayTitle(product.title)}</h3>
          <p className="product-card-price">{formatPrice(price === null ? null : applyDiscount(price, product))}</p>
          {discounted ? (
            <p className="product-card-original">
              {/* A label on <s> is not read (a generic element): the words are text, hidden from sight. */}
              <span className="sr-only">Harga awal </span>
              <s>{formatPrice(price)}</s>
              {product.discountType === "%" && product.discount > 0 ? (
                <span className="discount-badge">-{Math.min(100, product.discount)}%</span>
              ) : null}
            </p>
          ) : null}
          {rating !== null || product.sellCount > 0 ? (
            <p className="product-card-meta">
              {rating !== null ? (
                <span className="product-card-rating">
                  <StarIcon size={12} /> <span className="sr-only">Rating </span>
                  {rating}
                  <span className="sr-only"> dari 5</span>
                </span>
              ) : null}
              {rating !== null && product.sellCount > 0 ? <span aria-hidden="true"> · </span> : null}
              {product.sellCount > 0 ? <span>{formatCount(product.sellCount)} terjual</span> : null}
            </p>
          ) : null}
          {product.cityName ? <p className="product-card-city">{product.cityName}</p> : null}
        </div>
      </Link>
    </li>
  );
});
