import fs from "node:fs/promises";
import path from "node:path";
import type { Route } from "./+types/media";
import { mediaDir } from "~/.server/demo/demo-catalogue";

// Catalogue images (product pictures, banners) from DATA_DIR/media. Their names carry a version, so
// they are cached for a year. Only plain names are served: no path separators, no dot files, one
// known extension; anything else is a 404, as is a missing file.
const SAFE_NAME = /^[a-z0-9][a-z0-9-]{0,150}\.webp$/;

export async function loader({ params }: Route.LoaderArgs) {
  const name = params.file ?? "";
  if (!SAFE_NAME.test(name)) return notFound();
  const dir = mediaDir();
  const file = path.join(dir, name);
  if (path.dirname(file) !== dir) return notFound();
  try {
    const body = await fs.readFile(file);
    return new Response(body, {
      headers: {
        "Content-Type": "image/webp",
        "Content-Length": String(body.byteLength),
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch {
    return notFound();
  }
}

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
