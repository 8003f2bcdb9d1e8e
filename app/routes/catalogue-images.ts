import type { Route } from "./+types/catalogue-images";
import { getCatalogueImage } from "~/.server/store/catalogue";

// Pictures operators uploaded (product photos, banners; issue 26), served from the database on the
// store's own origin. The name is a hash of the bytes: a URL never changes meaning, so browsers and
// shared caches keep it for a year. Anything else, or an unknown hash, is a 404.
const NAME = /^([A-Za-z0-9_-]{32})\.webp$/;

export async function loader({ params }: Route.LoaderArgs) {
  const hash = NAME.exec(params.file ?? "")?.[1];
  const image = hash ? await getCatalogueImage(hash) : null;
  if (!image)
    return new Response("Not Found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  return new Response(image.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": image.contentType,
      "Content-Length": String(image.bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
