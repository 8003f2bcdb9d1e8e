import type { Executor } from "../../db/client";
import { DataDecryptionError, decryptText, encryptText } from "../../data-crypto";
import { nikHashOf } from "./keys";

// The NIK (issue 35): stored sealed (AES-256-GCM), compared by its keyed hash, shown masked except in
// the incentive review. Every reader goes through readNik: one place decrypts.

/** The row a sealed NIK belongs to: an order, or the checkout draft of a user. */
export type NikOwner = { orderId: number } | { draftOf: number };

/**
 * What the ciphertext of a NIK is bound to (issue 45 item 13): its own row, as a photo is bound to its
 * upload's id. A sealed NIK copied into another order or another buyer's draft does not open there.
 */
export function nikContext(owner: NikOwner): string {
  return "orderId" in owner ? `nik:order:${owner.orderId}` : `nik:draft:${owner.draftOf}`;
}

/**
 * What every NIK was bound to before: one constant. Still read (a row an instance of the previous
 * release wrote during a rolling upgrade), re-sealed to its row at start once (nik-binding.ts) and by
 * `data:rotate-key`.
 */
const LEGACY_NIK_CONTEXT = "nik";

/** The two columns an order keeps for its NIK: the ciphertext (bound to the order's id) and the keyed hash. */
export async function sealNik(db: Executor, orderId: number, nik: string): Promise<{ buyerNik: string; buyerNikHash: string }> {
  const clear = nik.trim();
  return { buyerNik: encryptText(clear, nikContext({ orderId })), buyerNikHash: await nikHashOf(db, clear) };
}

/** A NIK kept in a user's checkout draft (no hash: nothing compares drafts). */
export function sealDraftNik(userId: number, nik: string): string {
  return encryptText(nik, nikContext({ draftOf: userId }));
}

/**
 * The clear NIK of a stored value and whether it was still sealed under the old constant (a row
 * stored before encryption is returned as it is). A value that opens under neither throws.
 */
export function openNik(stored: string, owner: NikOwner): { nik: string; legacy: boolean } {
  try {
    return { nik: decryptText(stored, nikContext(owner)), legacy: false };
  } catch (error) {
    if (!(error instanceof DataDecryptionError)) throw error;
    try {
      return { nik: decryptText(stored, LEGACY_NIK_CONTEXT), legacy: true };
    } catch {
      throw error;
    }
  }
}

/** The clear NIK of a stored value, read with the row it belongs to. */
export function readNik(stored: string, owner: NikOwner): string {
  return openNik(stored, owner).nik;
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
export function readMaskedNik(stored: string, owner: NikOwner): string {
  return maskNik(readNik(stored, owner));
}
