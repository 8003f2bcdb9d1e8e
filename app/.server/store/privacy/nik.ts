import type { Executor } from "../../db/client";
import { decryptText, encryptText } from "../../data-crypto";
import { nikHashOf } from "./keys";

// The NIK (issue 35): stored sealed (AES-256-GCM), compared by its keyed hash, shown masked except in
// the incentive review. Every reader goes through readNik: one place decrypts.

/** What the ciphertext of a NIK is bound to: a sealed NIK copied into another column does not open. */
export const NIK_CONTEXT = "nik";

/** The two columns an order keeps for its NIK: the ciphertext and the keyed hash. */
export async function sealNik(db: Executor, nik: string): Promise<{ buyerNik: string; buyerNikHash: string }> {
  const clear = nik.trim();
  return { buyerNik: encryptText(clear, NIK_CONTEXT), buyerNikHash: await nikHashOf(db, clear) };
}

/** A NIK kept in a checkout draft (no hash: nothing compares drafts). */
export function sealDraftNik(nik: string): string {
  return encryptText(nik, NIK_CONTEXT);
}

/** The clear NIK of a stored value (a row stored before encryption is returned as it is). */
export function readNik(stored: string): string {
  return decryptText(stored, NIK_CONTEXT);
}

/**
 * '3171********0001': the first four digits (province and regency) and the last four, the rest
 * hidden. Shown everywhere but the incentive review (DESIGN §9). Short values hide all but the last 4.
 */
export function maskNik(nik: string): string {
  if (nik.length >= 12) return nik.slice(0, 4) + "*".repeat(nik.length - 8) + nik.slice(-4);
  return nik.length <= 4 ? "*".repeat(nik.length) : "*".repeat(nik.length - 4) + nik.slice(-4);
}

/** The masked NIK of a stored value: what every screen but the incentive review shows. */
export function readMaskedNik(stored: string): string {
  return maskNik(readNik(stored));
}
