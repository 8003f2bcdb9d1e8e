import type { ProcessedFile } from "../uploads";

export type UploadPurpose = "ktp" | "transfer-proof" | "delivery-proof";

/** Stores a checked file for its owner; returns its random id. */
export async function saveUpload(ownerId: number, purpose: UploadPurpose, file: ProcessedFile): Promise<string> {
  void ownerId, purpose, file;
  throw new Error("not implemented");
}

/** The file, only for its owner: anyone else gets null (the route answers 404). */
export async function getOwnedUpload(id: string, ownerId: number): Promise<{ contentType: string; bytes: Uint8Array; size: number } | null> {
  void id, ownerId;
  throw new Error("not implemented");
}

export function uploadUrl(id: string): string {
  return `/uploads/${encodeURIComponent(id)}`;
}
