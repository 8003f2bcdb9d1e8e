import crypto from "node:crypto";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FILE_TOO_LARGE, INVALID_FILE_TYPE, isEmptyFile, MAX_UPLOAD_BYTES, processImageUpload } from "./images";

// Real images, made by sharp here (or by hand where sharp cannot make the hostile one cheaply).

const asFile = (bytes: Uint8Array | Buffer, name = "ktp.jpg", type = "image/jpeg") => new File([new Uint8Array(bytes)], name, { type });

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

/** Random pixels: incompressible, so the encoded size stays large. */
const noise = (width: number, height: number) => sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

async function accepted(file: File) {
  const result = await processImageUpload(file);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  const stored = result.file;
  return { stored, meta: await sharp(stored.bytes).metadata() };
}

/** A PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A genuine decompression bomb: a valid 20000×20000 greyscale PNG of ~390 KB that inflates to 400 MB
 * of pixels. (sharp itself takes ~7 s to encode one, and its RGB file is over the upload limit,
 * which would test the byte limit instead of the pixel limit.)
 */
async function pngBomb(size = 20_000) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const row = Buffer.alloc(size + 1); // filter byte 0, then black pixels
  for (let y = 0; y < size; y++) if (!deflate.write(row)) await new Promise((resolve) => deflate.once("drain", resolve));
  deflate.end();
  await done;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", header), pngChunk("IDAT", Buffer.concat(parts)), pngChunk("IEND", Buffer.alloc(0))]);
}

describe("processImageUpload: accepted images are re-encoded", () => {
  it("turns a PNG into a JPEG and shrinks 1600 px to 800 px wide, keeping the proportions", async () => {
    const png = await solid(1600, 1200).png().toBuffer();
    const { stored, meta } = await accepted(asFile(png, "ktp.png", "image/png"));
    expect(stored.contentType).toBe("image/jpeg");
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 800, 600]);
  });

  it("never enlarges a small photo", async () => {
    const { meta } = await accepted(asFile(await solid(320, 200).jpeg().toBuffer()));
    expect([meta.width, meta.height]).toEqual([320, 200]);
  });

  it("drops the EXIF of a photo with a GPS position (and every other metadata block)", async () => {
    const photo = await solid(1200, 900)
      .jpeg()
      .withExif({
        IFD0: { Make: "KameraUji", Model: "HP-123" },
        IFD3: { GPSLatitudeRef: "S", GPSLatitude: "6/1 54/1 4/1", GPSLongitudeRef: "E", GPSLongitude: "107/1 36/1 38/1" },
      })
      .toBuffer();
    const before = await sharp(photo).metadata();
    // The fixture really carries EXIF with a GPS IFD pointer (tag 0x8825).
    expect(before.exif?.toString("latin1")).toContain("KameraUji");
    expect(before.exif!.includes(Buffer.from([0x88, 0x25])) || before.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const { stored, meta } = await accepted(asFile(photo));
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(Buffer.from(stored.bytes).toString("latin1")).not.toContain("KameraUji");
  });

  it("applies the EXIF orientation to the pixels before dropping it (a sideways phone photo stands up)", async () => {
    const sideways = await solid(400, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const { meta } = await accepted(asFile(sideways));
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(meta.orientation).toBeUndefined();
  });

  it("flattens a transparent PNG onto white", async () => {
    const transparent = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const { stored } = await accepted(asFile(transparent, "ktp.png", "image/png"));
    const { data } = await sharp(stored.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data.subarray(0, 30))).toBeGreaterThan(240);
  });

  it("judges by the bytes, not the name or the claimed type (a PNG named .txt is fine)", async () => {
    const png = await solid(100, 100).png().toBuffer();
    const { stored } = await accepted(asFile(png, "catatan.txt", "text/plain"));
    expect(stored.contentType).toBe("image/jpeg");
  });
});

describe("processImageUpload: hostile or broken files get a message, never a throw", () => {
  it("refuses a 20000×20000 PNG bomb by its header, before inflating it", async () => {
    const bomb = await pngBomb();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    expect(await processImageUpload(asFile(bomb, "ktp.png", "image/png"))).toEqual({ ok: false, message: FILE_TOO_LARGE });
    // Decoding 400 megapixels would take seconds and hundreds of MB; the header check takes none.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses a truncated JPEG", async () => {
    const photo = await noise(600, 400).jpeg({ quality: 80 }).toBuffer();
    const truncated = photo.subarray(0, Math.floor(photo.length * 0.6));
    expect(await processImageUpload(asFile(truncated))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
  });

  it("refuses an SVG, even named .png", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    expect(await processImageUpload(asFile(svg, "ktp.png", "image/png"))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
  });

  it("refuses a PDF renamed .jpg", async () => {
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    expect(await processImageUpload(asFile(pdf, "ktp.jpg", "image/jpeg"))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
  });

  it("refuses a GIF and a WebP, which sharp could read but the spec does not allow", async () => {
    const gif = await solid(40, 40).gif().toBuffer();
    const webp = await solid(40, 40).webp().toBuffer();
    expect(await processImageUpload(asFile(gif, "ktp.gif", "image/gif"))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
    expect(await processImageUpload(asFile(webp, "ktp.jpg", "image/jpeg"))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
  });

  it("refuses a 10 MB noise PNG by its size, before decoding it", async () => {
    const big = await noise(1900, 1900).png({ compressionLevel: 1 }).toBuffer();
    expect(big.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(await processImageUpload(asFile(big, "ktp.png", "image/png"))).toEqual({ ok: false, message: FILE_TOO_LARGE });
  });

  it("refuses an image still over 2 MB after shrinking to 800 px and JPEG 70", async () => {
    const tall = await noise(800, 12_000).jpeg({ quality: 25 }).toBuffer();
    expect(tall.length).toBeLessThan(MAX_UPLOAD_BYTES);
    expect(await processImageUpload(asFile(tall))).toEqual({ ok: false, message: FILE_TOO_LARGE });
  });

  it("refuses an empty file and random bytes with a JPEG name", async () => {
    expect(await processImageUpload(asFile(Buffer.alloc(0)))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
    expect(await processImageUpload(asFile(crypto.randomBytes(5000)))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
    // A JPEG signature followed by garbage.
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(5000)]);
    expect(await processImageUpload(asFile(fake))).toEqual({ ok: false, message: INVALID_FILE_TYPE });
  });
});

describe("isEmptyFile", () => {
  it("is true for a missing field, a text value and the empty part a browser sends with no file chosen", () => {
    expect(isEmptyFile(null)).toBe(true);
    expect(isEmptyFile("")).toBe(true);
    expect(isEmptyFile(new File([], "", { type: "application/octet-stream" }))).toBe(true);
    expect(isEmptyFile(new File([new Uint8Array([1])], "ktp.jpg"))).toBe(false);
  });
});
