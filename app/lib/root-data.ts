import type { Toast } from "./toast";

// What the root loader (app/root.tsx) gives every page: components and layouts read it with
// `useRouteLoaderData("root") as RootData | undefined` and this module's types, instead of importing
// the root module that imports them. Types only, on purpose: a shared hook here would be a module of
// its own in every page's first load (one more file, +0.2 KB gzip measured by bench:size).

export type RootData = {
  /** The signed-in user, read fresh on every request (spec §4: `verified`). */
  user: { fullname: string; verified: boolean; resendAvailableAt: string | null; unreadNotifications: number } | null;
  toast: Toast | null;
  /** A one-shot modal set by an action before its redirect (e.g. "account activated"). */
  modal: string | null;
  /** The server's clock, so countdowns render the same on both sides. */
  now: string;
  /** This request's id (X-Request-Id): the 500 page shows it as 'Kode kesalahan'. */
  requestId: string | null;
};
