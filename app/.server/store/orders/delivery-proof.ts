import { FILE_TOO_LARGE, INVALID_FILE_TYPE, MAX_STORED_BYTES, processImageUpload, type ProcessedFile } from "../../images";

// The delivery proof of 'Konfirmasi Barang Sampai' (spec §5: JPG, JPEG, PNG or PDF, at most 2 MB).
// Images go through the same checks as the KTP photo (type from the bytes, re-encoded without
// metadata); a PDF is recognised by its header and kept byte for byte (it is not re-rendered).

export const PROOF_INVALID_TYPE = "Invalid file selected, valid files are of .jpg,.jpeg,.png,.pdf types.";

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

export async function processProofUpload(file: File): Promise<{ ok: true; file: ProcessedFile } | { ok: false; message: string }> {
  if (file.size === 0) return { ok: false, message: PROOF_INVALID_TYPE };
  let head: Uint8Array;
  try {
    head = new Uint8Array(await file.slice(0, PDF_MAGIC.length).arrayBuffer());
  } catch {
    return { ok: false, message: PROOF_INVALID_TYPE };
  }
  if (PDF_MAGIC.every((byte, i) => head[i] === byte)) {
    if (file.size > MAX_STORED_BYTES) return { ok: false, message: FILE_TOO_LARGE };
    return { ok: true, file: { bytes: new Uint8Array(await file.arrayBuffer()), contentType: "application/pdf" } };
  }
  const image = await processImageUpload(file);
  if (!image.ok && image.message === INVALID_FILE_TYPE) return { ok: false, message: PROOF_INVALID_TYPE };
  return image;
}
