import { useSyncExternalStore } from "react";

/** False on the server and in the first render in the browser, true once React runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}
