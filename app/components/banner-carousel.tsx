import { useRef } from "react";
import { Link } from "react-router";
import type { Banner } from "~/.server/store/catalogue";
import { FadeInImage } from "./fade-in-image";
import { useSwiper } from "./use-swiper";

/**
 * When the carousel starts playing by itself (Swiper is set up then, or when the reader first swipes
 * it): a few seconds after hydration, so a cheap phone finishes the page's own work first.
 */
const AUTOPLAY_START_MS = 3000;

/**
 * Spec §2 Home banner carousel: slides at least 70% wide and 150 px high, a grey placeholder where
 * an image fails. The server renders a CSS scroll-snap strip (works without JavaScript); Swiper
 * takes over when first needed (use-swiper.ts; autoplay only when the reader does not prefer
 * reduced motion). The first image loads eagerly with its dimensions (it is the largest thing on
 * screen), the rest lazily.
 * Each slide is a link to what it advertises (its image's text names it). The strip itself can take
 * the focus, so a keyboard can scroll it before Swiper arrives (or without JavaScript).
 */
export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const container = useRef<HTMLElement>(null);
  useSwiper(
    container,
    ({ Autoplay, A11y }, reducedMotion) => ({
      modules: reducedMotion ? [A11y] : [Autoplay, A11y],
      slidesPerView: "auto",
      spaceBetween: 8,
      // The same 16 px inset as the native strip, so nothing moves when Swiper takes over.
      slidesOffsetBefore: 16,
      slidesOffsetAfter: 16,
      speed: reducedMotion ? 0 : 400,
      autoplay: reducedMotion ? false : { delay: 5000, disableOnInteraction: true, pauseOnMouseEnter: true },
      // The slides stay list items (Swiper would make them groups, which a list may not hold).
      a11y: { slideLabelMessage: "{{index}} dari {{slidesLength}}", slideRole: "" },
    }),
    { startAfterMs: AUTOPLAY_START_MS },
  );
  if (!banners.length) return null;
  return (
    <section
      ref={container}
      className="banner-carousel swiper"
      aria-label="Promo"
      aria-roledescription="carousel"
      data-testid="banner-carousel"
    >
      <ul className="banner-track swiper-wrapper" tabIndex={0} aria-label="Daftar promo, geser untuk melihat lainnya">
        {banners.map((banner, index) => {
          const image = (
            <FadeInImage
              src={banner.imageUrl}
              width={banner.width}
              height={banner.height}
              alt={banner.title}
              eager={index === 0}
              priority={index === 0}
            />
          );
          return (
            // Its place is text read before the banner: a label on a list item is not reliably read.
            <li key={banner.id} className="banner-slide swiper-slide" aria-roledescription="slide">
              <span className="sr-only">{`${index + 1} dari ${banners.length}`}</span>
              {banner.href ? (
                <Link to={banner.href} className="banner-link" data-testid="banner-link">
                  {image}
                </Link>
              ) : (
                image
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
