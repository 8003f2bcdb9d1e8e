import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// This module is fetched only once the page has loaded and painted (~/lib/scripts-after-load), so
// hydration never holds the first paint. Evaluating the scripts and starting React are separate
// tasks, and in a transition React hydrates in slices of a few milliseconds: a tap meanwhile is
// never kept waiting long (decision 0016).
setTimeout(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
