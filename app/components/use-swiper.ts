import { useEffect, type RefObject } from "react";
import type { SwiperOptions } from "swiper/types";

type Modules = typeof import("swiper/modules");

/**
 * Resolves when the browser has a moment with nothing else to do (at the latest after a second):
 * setting up a Swiper measures every slide, so it waits until hydration and the page's own work are
 * done instead of adding to them. Safari has no requestIdleCallback.
 */
function mainThreadIdle() {
  return new Promise<void>((resolve) => {
    if ("requestIdleCallback" in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 200);
  });
}

/**
 * Turns a server-rendered scroll-snap strip (container > .swiper-wrapper > .swiper-slide) into a
 * Swiper after hydration, once the main thread is idle. Swiper and its CSS load with a dynamic
 * import here, so they are never part of the first-load JavaScript; until they arrive (or if they
 * fail) the strip scrolls natively.
 * `configure` receives whether the reader prefers reduced motion.
 */
export function useSwiper(container: RefObject<HTMLElement | null>, configure: (modules: Modules, reducedMotion: boolean) => SwiperOptions) {
  useEffect(() => {
    const element = container.current;
    if (!element || element.querySelectorAll(".swiper-slide").length < 2) return;
    let cancelled = false;
    let instance: { destroy: (deleteInstance?: boolean, cleanStyles?: boolean) => void } | undefined;
    Promise.all([import("swiper"), import("swiper/modules"), import("swiper/css"), mainThreadIdle()])
      .then(([{ default: Swiper }, modules]) => {
        if (cancelled) return;
        const track = element.querySelector<HTMLElement>(".swiper-wrapper");
        const slide = element.querySelector<HTMLElement>(".swiper-slide");
        // Keep the slide the reader had scrolled to before Swiper arrived.
        const initialSlide = track && slide?.offsetWidth ? Math.round(track.scrollLeft / slide.offsetWidth) : 0;
        if (track) track.scrollLeft = 0;
        const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        instance = new Swiper(element, { initialSlide, ...configure(modules, reducedMotion) });
      })
      .catch(() => {
        // Offline or blocked: the native strip keeps working.
      });
    return () => {
      cancelled = true;
      instance?.destroy(true, true);
    };
    // The strip is set up once per mount; `configure` is a constant of the calling component.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [container]);
}
