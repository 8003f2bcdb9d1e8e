/** The file names the photo inputs accept: the KTP at checkout and the transfer proof (the server
 * checks the bytes themselves as well). Its own module: the payment page needs it without the
 * checkout's schema (and zod) in its first load. */
export const KTP_ACCEPT = ".jpg,.jpeg,.png";

/** Spec §5 delivery confirmation: JPG, JPEG, PNG or PDF (the server checks the bytes); also finance's transfer proof. */
export const PROOF_ACCEPT = ".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf";

/** Spec §7 confirm (`buktiImageUrls`): at most this many photos or PDFs with one confirmation. */
export const MAX_DELIVERY_PROOFS = 5;
