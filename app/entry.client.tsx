import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// The server's HTML is the page; hydration only adds to it. When the scripts arrive before the
// first frame (a cached visit, a fast network), running hydration at once holds the first paint
// until it ends: 100–300 ms of a blank screen on a cheap phone. Let the browser paint first (the
// timeout runs after the frame the animation callback belongs to). A hidden tab gets no frames, so
// it hydrates at once.
if (document.visibilityState === "visible") requestAnimationFrame(() => setTimeout(hydrate, 0));
else hydrate();
