import { useEffect, useEffectEvent, type RefObject } from "react";
import type { SwiperOptions } from "swiper/types";

type Modules = typeof import("swiper/modules");

/**
 * Resolves when the browser has a moment with nothing else to do (at the latest after a second):
 * setting up a Swiper measures every slide, so it never competes with the page's own work. Safari
 * has no requestIdleCallback.
 */
function mainThreadIdle() {
  return new Promise<void>((resolve) => {
    if ("requestIdleCallback" in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 200);
  });
}

/**
 * Turns a server-rendered scroll-snap strip (container > .swiper-wrapper > .swiper-slide) into a
 * Swiper the first time it is needed, not at start (decision 0047): the strip already scrolls and
 * snaps natively, and loading, evaluating and setting up Swiper is the largest piece of work after
 * hydration on the pages that have one, at the moment a cheap phone is busiest.
 *
 * It is needed when the reader uses the strip: Swiper (and its CSS, a dynamic import, never part of
 * the first-load JavaScript) is fetched as soon as a finger or pointer comes down on it, and set up
 * once the gesture is over and the strip has come to rest on a slide (so nothing jumps under the
 * finger), or when the strip receives the keyboard focus. With `startAfterMs` (a carousel that plays
 * by itself, unless the reader prefers reduced motion) it is also set up that long after hydration,
 * when the main thread is idle. Offline, or
 * if the import fails, the native strip keeps working.
 * `configure` receives whether the reader prefers reduced motion.
 */
export function useSwiper(
  container: RefObject<HTMLElement | null>,
  configure: (modules: Modules, reducedMotion: boolean) => SwiperOptions,
  { startAfterMs }: { startAfterMs?: number } = {},
) {
  // The caller's latest options, read when Swiper is set up; a new function on each render does not
  // set the strip up again.
  const optionsFor = useEffectEvent((modules: Modules, reducedMotion: boolean) => configure(modules, reducedMotion));
  useEffect(() => {
    const element = container.current;
    if (!element || element.querySelectorAll(".swiper-slide").length < 2) return;
    let cancelled = false;
    let instance: { destroy: (deleteInstance?: boolean, cleanStyles?: boolean) => void } | undefined;
    let loading: Promise<[typeof import("swiper"), Modules, unknown]> | undefined;
    const load = () => (loading ??= Promise.all([import("swiper"), import("swiper/modules"), import("swiper/css")]));
    let pointersDown = 0;
    const listening = new AbortController();

    const setUp = () => {
      if (instance || cancelled || pointersDown > 0) return;
      load()
        .then(([{ default: Swiper }, modules]) => {
          if (instance || cancelled || pointersDown > 0) return;
          listening.abort();
          const track = element.querySelector<HTMLElement>(".swiper-wrapper");
          const slide = element.querySelector<HTMLElement>(".swiper-slide");
          // Keep the slide the reader had scrolled to before Swiper arrived.
          const initialSlide = track && slide?.offsetWidth ? Math.round(track.scrollLeft / slide.offsetWidth) : 0;
          if (track) track.scrollLeft = 0;
          const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          instance = new Swiper(element, { initialSlide, ...optionsFor(modules, reducedMotion) });
        })
        .catch(() => {
          // Offline or blocked: the native strip keeps working.
        });
    };

    const { signal } = listening;
    const passive = { passive: true, signal };
    element.addEventListener("pointerdown", () => ((pointersDown += 1), void load().catch(() => {})), passive);
    // Lifted anywhere (a swipe often ends outside the strip), or taken over by the browser's own
    // scrolling (pointercancel).
    const lifted = () => {
      if (pointersDown === 0) return;
      pointersDown -= 1;
      // Browsers without 'scrollend' (below): a moment after the finger is lifted.
      if (!("onscrollend" in window)) setTimeout(setUp, 600);
    };
    for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, lifted, passive);
    // A swipe ends in a native scroll settling on a slide. Scroll events do not bubble: listened for
    // on the way down.
    element.addEventListener("scrollend", setUp, { capture: true, passive: true, signal });
    element.addEventListener("focusin", setUp, { signal });
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (startAfterMs !== undefined && !window.matchMedia("(prefers-reduced-motion: reduce)").matches)
      timer = setTimeout(() => void mainThreadIdle().then(setUp), startAfterMs);

    return () => {
      cancelled = true;
      clearTimeout(timer);
      listening.abort();
      instance?.destroy(true, true);
    };
  }, [container, startAfterMs]);
}
