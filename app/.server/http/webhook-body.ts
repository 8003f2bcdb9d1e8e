// The raw body of a gateway's webhook, read as bytes with a small cap (a signature covers exactly
// those bytes, so nothing may parse or normalise it first). Shared by /webhooks/payment (sandbox)
// and /webhooks/midtrans; the server's own body limit (request-guards.ts) applies before this.

/** Settlement bodies are a few hundred bytes (Midtrans's about 1 KB); anything near this is not one. */
export const MAX_WEBHOOK_BODY_BYTES = 16 * 1024;

/** The body as text, or null when it is longer than `limit` bytes (stops reading there). */
export async function readCapped(request: Request, limit = MAX_WEBHOOK_BODY_BYTES): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The body's JSON object, or null when it is not JSON or not a plain object (an array, a string…). */
export function jsonObjectOf(rawBody: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
