import crypto from "node:crypto";
import { and, eq, isNull, ne } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { uploads } from "../../db/schema";
import type { ProcessedFile } from "../../images";
import { openUpload, sealUpload } from "../privacy";

// Uploaded files live in the database (DESIGN §6, §9): every instance on one PostgreSQL serves the
// same files and a backup holds them. Only checked files (app/.server/images.ts) are stored, and
// only their owner reads them back.

export type UploadPurpose = "ktp" | "transfer-proof" | "delivery-proof" | "refund-proof";

/** 128 random bits, URL-safe: not guessable, though ownership is what actually protects a file. */
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Stores a checked file for its owner; returns its random id. */
export async function saveUpload(ownerId: number, purpose: UploadPurpose, file: ProcessedFile): Promise<string> {
  const db = await getDb();
  const id = crypto.randomBytes(16).toString("base64url");
  // Sealed before it reaches the database (issue 35): the files and a backup hold no photo in clear.
  const sealed = sealUpload(id, file.bytes);
  await db.insert(uploads).values({ id, ownerId, purpose, contentType: file.contentType, size: file.bytes.length, ...sealed });
  return id;
}

/** The file, only for its owner: anyone else (and any malformed id) gets null, which the route answers 404. */
export async function getOwnedUpload(
  id: string,
  ownerId: number,
): Promise<{ contentType: string; bytes: Uint8Array; size: number; purpose: string } | null> {
  if (!ID_PATTERN.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      id: uploads.id,
      contentType: uploads.contentType,
      bytes: uploads.bytes,
      keyId: uploads.keyId,
      size: uploads.size,
      purpose: uploads.purpose,
    })
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.ownerId, ownerId), isNull(uploads.deletedAt)));
  if (!row) return null;
  return { contentType: row.contentType, size: row.size, purpose: row.purpose, bytes: openUpload(row) };
}

/** Any stored upload but a KTP photo, for an operator who passed the second factor (the route checks that). */
export async function getUploadForOperator(id: string): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  if (!ID_PATTERN.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ id: uploads.id, contentType: uploads.contentType, bytes: uploads.bytes, keyId: uploads.keyId })
    .from(uploads)
    // A KTP photo opens only through its order (/ops/orders/:id/ktp), on record (privacy/access.ts).
    .where(and(eq(uploads.id, id), ne(uploads.purpose, "ktp"), isNull(uploads.deletedAt)));
  if (!row) return null;
  return { contentType: row.contentType, bytes: openUpload(row) };
}

/**
 * A copy of the owner's kept file under a new id, sealed again under it (issue 38: the KTP photo of
 * an earlier order used by a new one, so each order's photo has its own retention); null when the
 * file is not the owner's or is deleted already.
 */
export async function copyOwnedUpload(db: Executor, id: string, ownerId: number): Promise<string | null> {
  if (!ID_PATTERN.test(id)) return null;
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.ownerId, ownerId), isNull(uploads.deletedAt)));
  if (!row) return null;
  const copyId = crypto.randomBytes(16).toString("base64url");
  const sealed = sealUpload(copyId, openUpload(row));
  await db.insert(uploads).values({ id: copyId, ownerId, purpose: row.purpose, contentType: row.contentType, size: row.size, ...sealed });
  return copyId;
}

export function uploadUrl(id: string): string {
  return `/uploads/${encodeURIComponent(id)}`;
}
