import { useRouteLoaderData } from "react-router";
import type { Toast } from "./toast";

// What the root loader (app/root.tsx) gives every page, behind a small hook module: components and
// layouts read it here instead of importing the root module that imports them.

export type RootData = {
  /** The signed-in user, read fresh on every request (spec §4: `verified`). */
  user: { fullname: string; verified: boolean; resendAvailableAt: string | null } | null;
  toast: Toast | null;
  /** A one-shot modal set by an action before its redirect (e.g. "account activated"). */
  modal: string | null;
  /** The server's clock, so countdowns render the same on both sides. */
  now: string;
};

/** The root loader's data (signed-in user, toast), from any route. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}
