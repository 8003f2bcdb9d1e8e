import { loadSharp } from "./sharp";

// Uploaded images (spec §5 "Image upload", DESIGN §9): recognised by their bytes, never by their
// name or the type the browser claims; decoded by sharp under a pixel limit (a small PNG can claim
// 20000×20000 pixels and inflate to gigabytes); auto-rotated, then re-encoded from the pixels alone,
// so EXIF (GPS position, camera serial), ICC, XMP and comments never reach the database.

export const INVALID_FILE_TYPE = "Invalid file selected, valid files are of .jpg,.jpeg,.png types.";
export const FILE_TOO_LARGE = "File size is too large";
export const KTP_REQUIRED = "File KTP tidak boleh kosong.";

export type ProcessedFile = { bytes: Uint8Array; contentType: "image/jpeg" | "image/png" | "application/pdf" };

/** Spec §9: an accepted image is at most 2 MB (after re-encoding). */
export const MAX_STORED_BYTES = 2 * 1024 * 1024;
/**
 * What we agree to read at all: a phone photo straight from the camera is 3–8 MB, and the server
 * shrinks it. Anything larger is refused before it is decoded.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** 40 megapixels: above every phone camera, far below a decompression bomb. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Spec §9: the checkout photo is at most 800 px wide, JPEG quality 0.7. */
export const MAX_WIDTH = 800;
export const JPEG_QUALITY = 70;

type ImageType = "jpeg" | "png";

/** JPEG starts FF D8 FF; PNG with its 8-byte signature. Everything else (SVG, PDF, GIF, WebP…) is refused. */
function sniffImageType(head: Uint8Array): ImageType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((byte, i) => head[i] === byte)) return "png";
  return null;
}

/**
 * Type from the bytes (JPEG/PNG only), sharp limitInputPixels, auto-rotate, metadata stripped,
 * ≤ 800 px wide, JPEG q70; > 2 MB after that → FILE_TOO_LARGE. Never throws on bad input.
 */
export async function processImageUpload(file: File): Promise<{ ok: true; file: ProcessedFile } | { ok: false; message: string }> {
  if (file.size === 0) return { ok: false, message: INVALID_FILE_TYPE };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, message: FILE_TOO_LARGE };
  let input: Uint8Array;
  try {
    input = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { ok: false, message: INVALID_FILE_TYPE };
  }
  if (!sniffImageType(input.subarray(0, 8))) return { ok: false, message: INVALID_FILE_TYPE };

  const sharp = await loadSharp();
  const decoder = () =>
    // failOn "warning": a truncated or corrupt file is refused rather than stored half grey.
    sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "warning", sequentialRead: true });
  try {
    // The header alone tells the size: refuse a bomb before a single pixel is inflated.
    const { width, height, format } = await decoder().metadata();
    if (format !== "jpeg" && format !== "png") return { ok: false, message: INVALID_FILE_TYPE };
    if (!width || !height) return { ok: false, message: INVALID_FILE_TYPE };
    if (width * height > MAX_INPUT_PIXELS) return { ok: false, message: FILE_TOO_LARGE };

    const bytes = await decoder()
      .rotate() // EXIF orientation applied to the pixels, before the tag is dropped with the rest
      .resize({ width: MAX_WIDTH, withoutEnlargement: true })
      .flatten({ background: "#ffffff" }) // a transparent PNG becomes white, not black, as JPEG
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer();
    if (bytes.length > MAX_STORED_BYTES) return { ok: false, message: FILE_TOO_LARGE };
    return { ok: true, file: { bytes: new Uint8Array(bytes), contentType: "image/jpeg" } };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    // sharp words the pixel limit as "Input image exceeds pixel limit".
    return { ok: false, message: /pixel limit/i.test(message) ? FILE_TOO_LARGE : INVALID_FILE_TYPE };
  }
}

/** True when the form field holds no file (absent, or the empty part a browser sends). */
export function isEmptyFile(value: FormDataEntryValue | null): boolean {
  return value === null || typeof value === "string" || value.size === 0;
}
