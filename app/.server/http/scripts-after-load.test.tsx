import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { holdScriptsUntilLoad } from "./scripts-after-load";

async function through(chunks: Buffer[]) {
  return text(Readable.from(chunks).pipe(holdScriptsUntilLoad()));
}

function cut(whole: Buffer, size: number) {
  const chunks: Buffer[] = [];
  for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
  return chunks;
}

// What React Router's <Scripts> writes (preloads hoisted into the head, the module script in the body),
// around page content in Indonesian (multi-byte characters) and the streamed data after it.
const HEAD =
  '<!DOCTYPE html><html lang="id"><head><title>Beranda · Toko</title><link rel="modulepreload" href="/assets/a.js" nonce="n"/><link rel="modulepreload" href="/assets/b.js" nonce="n"/></head>';
const BODY =
  '<body><p>Harga pegawai — Rp27.075.000 ✓</p><script nonce="n">window.__reactRouterContext = {};</script><script nonce="n" type="module" async="">import "/assets/a.js";</script>';
const STREAMED = '<script nonce="n">window.__reactRouterContext.streamController.enqueue("[]");</script></body></html>';
const HELD =
  '<!DOCTYPE html><html lang="id"><head><title>Beranda · Toko</title><template data-after-load="modulepreload"><link rel="modulepreload" href="/assets/a.js" nonce="n"/></template><template data-after-load="modulepreload"><link rel="modulepreload" href="/assets/b.js" nonce="n"/></template></head>' +
  '<body><p>Harga pegawai — Rp27.075.000 ✓</p><script nonce="n">window.__reactRouterContext = {};</script><script nonce="n" type="text/plain" data-after-load="module">import "/assets/a.js";</script>' +
  STREAMED;

describe("holdScriptsUntilLoad", () => {
  it("holds React Router's module preloads and its module script, and leaves the rest alone", async () => {
    expect(await through([Buffer.from(HEAD + BODY + STREAMED)])).toBe(HELD);
  });

  it("gives the same document however the stream is cut, inside a tag or a multi-byte character", async () => {
    const whole = Buffer.from(HEAD + BODY + STREAMED);
    for (const size of [1, 2, 3, 7, 24, 50, 333]) expect(await through(cut(whole, size)), `chunks of ${size} bytes`).toBe(HELD);
  });

  it("lets the streamed rest of the document through untouched once the module script has passed", async () => {
    const late = '<link rel="modulepreload" href="/assets/late.js"/>';
    expect(await through([Buffer.from(HEAD + BODY), Buffer.from(late + STREAMED)])).toBe(HELD.replace(STREAMED, late + STREAMED));
  });

  it("never touches page content that spells the same words: React escapes its quotes", async () => {
    const content = renderToString(<p title='<link rel="modulepreload"'>{'type="module" async=""'}</p>);
    expect(await through([Buffer.from(content)])).toBe(content);
  });

  it("passes a document without scripts through unchanged", async () => {
    expect(await through([Buffer.from("<p>tanpa skrip</p>")])).toBe("<p>tanpa skrip</p>");
  });
});
