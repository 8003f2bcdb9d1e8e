import { decryptBytes, encryptBytes } from "../../data-crypto";

// Uploaded files at rest (issue 35): every upload is sealed (a KTP photo must be; the transfer and
// delivery proofs cost the same few microseconds, and one rule is simpler than two). The file's id is
// bound into the ciphertext, so bytes copied onto another row do not open.

const uploadContext = (id: string) => `upload:${id}`;

/** The bytes to store for upload `id`, and the id of the key that sealed them. */
export function sealUpload(id: string, bytes: Uint8Array): { bytes: Buffer; keyId: string } {
  return encryptBytes(bytes, uploadContext(id));
}

/** The clear bytes of a stored upload (a row stored before encryption has keyId null and is returned as it is). */
export function openUpload(row: { id: string; bytes: Uint8Array; keyId: string | null }): Uint8Array {
  // postgres-js hands a Buffer, PGlite a Uint8Array: one plain type for the caller.
  const stored = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
  return decryptBytes(stored, row.keyId, uploadContext(row.id));
}
