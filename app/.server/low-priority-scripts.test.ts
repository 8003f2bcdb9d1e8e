import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads } from "./low-priority-scripts";

async function through(chunks: Buffer[]) {
  return text(Readable.from(chunks).pipe(lowPriorityModulePreloads()));
}

const HEAD = '<!DOCTYPE html><html lang="id"><head><title>Beranda · Toko</title><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js"/></head>';
const BODY = '<body><p>Harga pegawai — Rp27.075.000</p><link rel="modulepreload" href="/assets/late.js"/></body></html>';

describe("lowPriorityModulePreloads", () => {
  it("marks every module preload of the head low priority and leaves the body alone", async () => {
    const out = await through([Buffer.from(HEAD + BODY)]);
    expect(out.match(/<link rel="modulepreload" fetchpriority="low" href="\/assets\/[ab]\.js"\/>/g)).toHaveLength(2);
    expect(out).toContain('<link rel="modulepreload" href="/assets/late.js"/>');
    expect(out.replaceAll(' fetchpriority="low"', "")).toBe(HEAD + BODY);
  });

  it("handles a head split anywhere across chunks, inside a link or a multi-byte character", async () => {
    const whole = Buffer.from(HEAD + BODY);
    for (const size of [1, 3, 7, 50]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
      const out = await through(chunks);
      expect(out.match(/fetchpriority="low"/g)).toHaveLength(2);
      expect(out.replaceAll(' fetchpriority="low"', "")).toBe(HEAD + BODY);
    }
  });

  it("passes a document without a head end through unchanged", async () => {
    expect(await through([Buffer.from("<p>tanpa head</p>")])).toBe("<p>tanpa head</p>");
  });
});
