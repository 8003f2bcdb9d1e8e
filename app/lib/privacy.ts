// Texts of the personal-data rules (issue 35) that the buyer's and the operators' screens share
// (no server code: the buyer bundle may import it).

/** Shown where a KTP photo was, once retention deleted its bytes (the record stays). */
export const KTP_DELETED = "Foto KTP telah dihapus sesuai kebijakan retensi";

/** The public page that says what is kept, why, for how long, and the buyer's rights. */
export const PRIVACY_POLICY_PATH = "/kebijakan-privasi";

/** How long KTP photos are kept after the incentive decision once the order is closed, unless an admin sets otherwise. */
export const DEFAULT_KTP_RETENTION_DAYS = 90;
