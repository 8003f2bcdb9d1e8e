import { redirect } from "react-router";
import type { Route } from "./+types/data-export";
import { bearerToken } from "~/.server/http/api";
import { getUser } from "~/.server/http/session";
import { getSessionUser } from "~/.server/store/people";
import { DATA_EXPORT_GONE, DATA_EXPORT_UNAVAILABLE, openDataExport } from "~/.server/store/privacy";
import { dataExportLanding } from "~/lib/data-export-link";

// 'Unduh Data Saya' (issue 35, decision 0059): the ZIP behind the e-mailed link, for its owner only,
// while it is valid (24 h). Anonymous (the e-mail's link opens in a browser that may not be signed
// in): the login page, saying why, and after it the profile's data section offering this download
// (issue 43 item 2: back to this URL, a ZIP, the page stayed blank or on the login form). Anyone
// else, an expired or unknown link: the same 404.

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const token = bearerToken(request);
  const user = getUser(context) ?? (token ? await getSessionUser(token, "api") : null);
  if (!user) throw redirect(`/login?redirect=${encodeURIComponent(dataExportLanding(params.id ?? ""))}`);
  const zip = await openDataExport(params.id ?? "", user.id);
  if (zip === DATA_EXPORT_UNAVAILABLE) {
    // Sealed under a key since dropped (issue 45 item 13): gone for good, not a server error.
    return new Response(DATA_EXPORT_GONE, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  if (!zip) {
    return new Response("Tautan unduhan tidak ditemukan atau sudah kedaluwarsa.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(zip as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(zip.byteLength),
      "Content-Disposition": 'attachment; filename="data-saya-toko-pegawai-pln.zip"',
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
