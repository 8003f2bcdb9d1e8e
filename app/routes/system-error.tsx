import type { Route } from "./+types/system-error";
import { takeFlash } from "~/.server/http/session";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Kesalahan Sistem" };

/** Spec §8: shows the stored error message once, or '-'. */
export function loader({ context }: Route.LoaderArgs) {
  return { message: takeFlash(context, "errorMessage") ?? "-" };
}

export default function SystemError({ loaderData }: Route.ComponentProps) {
  return (
    <section className="center-panel">
      <h2>Kesalahan Sistem!</h2>
      <p className="system-error-message">{loaderData.message}</p>
      <a className="btn btn-primary" href="/home">
        Kembali ke Beranda
      </a>
    </section>
  );
}
