// Uploaded images (spec §5 "Image upload", DESIGN §9): checked by their bytes, never by their name
// or the browser's type, decoded by sharp under a pixel limit, re-encoded without metadata.

export const INVALID_FILE_TYPE = "Invalid file selected, valid files are of .jpg,.jpeg,.png types.";
export const FILE_TOO_LARGE = "File size is too large";
export const KTP_REQUIRED = "File KTP tidak boleh kosong.";

export type ProcessedFile = { bytes: Uint8Array; contentType: "image/jpeg" | "image/png" | "application/pdf" };

/**
 * Type from the bytes (JPEG/PNG only), sharp limitInputPixels, auto-rotate, metadata stripped,
 * ≤ 800 px wide, JPEG q70; > 2 MB after that → FILE_TOO_LARGE. Never throws on bad input.
 */
export async function processImageUpload(file: File): Promise<{ ok: true; file: ProcessedFile } | { ok: false; message: string }> {
  void file;
  throw new Error("not implemented");
}

/** True when the form field holds no file (absent, or the empty part a browser sends). */
export function isEmptyFile(value: FormDataEntryValue | null): boolean {
  return value === null || typeof value === "string" || value.size === 0;
}
