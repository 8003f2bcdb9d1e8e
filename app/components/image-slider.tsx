import { useRef } from "react";
import type { ProductImage } from "~/.server/store/catalogue";
import { FadeInImage } from "./fade-in-image";
import { PhotoIcon } from "./icons";
import { useSwiper } from "./use-swiper";

/**
 * Spec §2 detail image slider: one slide per view with the fraction 'x dari y'. Each slide carries
 * its own fraction label, so the count is right while scrolling the plain scroll-snap strip without
 * JavaScript too; Swiper (keyboard arrows, announcements) takes over when the reader first swipes or
 * focuses it (use-swiper.ts). No images: a placeholder picture.
 */
export function ImageSlider({ images, title }: { images: ProductImage[]; title: string }) {
  const container = useRef<HTMLElement>(null);
  useSwiper(container, ({ A11y, Keyboard }, reducedMotion) => ({
    modules: [A11y, Keyboard],
    slidesPerView: 1,
    speed: reducedMotion ? 0 : 300,
    keyboard: { enabled: true, onlyInViewport: true },
    // The slides stay list items (Swiper would make them groups, which a list may not hold).
    a11y: { slideLabelMessage: "{{index}} dari {{slidesLength}}", slideRole: "" },
  }));
  if (!images.length) {
    return (
      <div className="image-slider image-slider-empty" role="img" aria-label="Foto produk belum tersedia">
        <PhotoIcon size={72} />
        <span>Foto belum tersedia</span>
      </div>
    );
  }
  return (
    <section
      ref={container}
      className="image-slider swiper"
      aria-label="Foto produk"
      aria-roledescription="carousel"
      data-testid="image-slider"
    >
      <ul className="image-track swiper-wrapper" tabIndex={0} aria-label={`Foto produk, ${images.length} foto`}>
        {images.map((image, index) => (
          <li key={image.url} className="image-slide swiper-slide" aria-roledescription="slide">
            <FadeInImage
              src={image.url}
              width={image.width}
              height={image.height}
              alt={`${title} — foto ${index + 1}`}
              eager={index === 0}
              priority={index === 0}
            />
            <span className="slide-fraction">
              {index + 1} dari {images.length}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
