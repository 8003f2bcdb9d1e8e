import type { Route } from "./+types/uploads";
import { bearerToken } from "~/.server/http/api";
import { getUser } from "~/.server/http/session";
import { mayOpenOrderImages } from "~/.server/http/ops-access";
import { getSessionUser } from "~/.server/store/people";
import { getOwnedUpload, getUploadForOperator } from "~/.server/store/orders";

// Files users uploaded (the KTP photo …), served from the database to their owner and to operators
// who passed their second factor (the back office, issue 17) only (DESIGN §6, §9). Anyone else — another user, an anonymous visitor, an unknown id — gets the same 404, so the
// answer never tells whether a file exists. The bytes never change under an id, but they are
// private: the browser may keep them, shared caches may not.
const UPLOAD_ID = /^[A-Za-z0-9_-]{8,64}$/;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  // The owner's browser (session cookie) or the owner's API client (bearer token, issue 19).
  const token = bearerToken(request);
  const user = getUser(context) ?? (token ? await getSessionUser(token, "api") : null);
  const id = params.id ?? "";
  if (!user || !UPLOAD_ID.test(id)) return notFound();
  // An operator's own files stay theirs; a KTP photo opens to operators only through its order (issue 35).
  const upload = (mayOpenOrderImages(user) ? await getUploadForOperator(id) : null) ?? (await getOwnedUpload(id, user.id));
  if (!upload) return notFound();
  return new Response(upload.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": upload.contentType,
      "Content-Length": String(upload.bytes.byteLength),
      // The buyer's own KTP photo is kept in no cache, the browser's included (issue 45 item 13): a shared
      // or lost device does not keep an identity card. Other files (proofs) may stay in the browser a day.
      "Cache-Control": "purpose" in upload && upload.purpose === "ktp" ? "no-store" : "private, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      // Opened in a tab (a KTP, a transfer proof, a delivery PDF), a crafted file runs in no origin:
      // no scripts, no forms, no access to this store's cookies or pages.
      "Content-Security-Policy": "sandbox",
      "Content-Disposition": "inline",
    },
  });
}

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
