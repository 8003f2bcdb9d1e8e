// Refunds as the buyer and finance see them (issue 36): the states' Indonesian names, the banks a
// buyer may name for a transfer refund, and the rules of the account form. Shared by the server and
// the pages (no server code here).

export type RefundState = "awaiting-funds" | "awaiting-account" | "processing" | "refunded" | "failed" | "not-received";

/** The one place the states are named (DESIGN §6 "Money back"). */
export const REFUND_STATE_NAMES: Record<RefundState, string> = {
  // A manual transfer's refund starts here: finance has not yet seen the money on the bank statement
  // (issue 45 item 2). Nothing is received nor owed until it confirms the amount that arrived.
  "awaiting-funds": "Menunggu Konfirmasi Dana",
  "awaiting-account": "Menunggu Data Rekening",
  processing: "Sedang Diproses",
  refunded: "Dana Telah Dikembalikan",
  failed: "Gagal Diproses",
  // Finance found no money on the statement: closed, nothing received, nothing owed.
  "not-received": "Dana tidak diterima",
};

/** The states in which the buyer is asked for (new) bank details (already while finance checks the money). */
export const ASKS_FOR_ACCOUNT: readonly RefundState[] = ["awaiting-funds", "awaiting-account", "failed"];

/**
 * The states of a refund the store owes (or gave back): its amount is money received. A refund
 * waiting for finance to confirm the money, or closed because none arrived, owes nothing and is in
 * no sum of the ledgers.
 */
export const OWED_STATES: readonly RefundState[] = ["awaiting-account", "processing", "refunded", "failed"];
export const isOwedState = (state: RefundState) => OWED_STATES.includes(state);

/** Why a refund exists (its cause), as /ops/refunds names it. */
export const REFUND_CAUSE_NAMES: Record<string, string> = {
  "buyer-cancel": "Dibatalkan pembeli setelah mengirim bukti transfer",
  "proof-rejected": "Bukti transfer ditolak",
  "ops-cancel": "Dibatalkan toko setelah dibayar",
  "paid-after-close": "Dibayar setelah pesanan ditutup",
  "amount-mismatch": "Jumlah pembayaran tidak sesuai",
  "over-payment": "Kelebihan bayar",
};

/** The kinds of payment incident (payment_incidents.kind), the ones that bring money in first. */
export const PAYMENT_INCIDENT_KINDS = ["paid-after-close", "amount-mismatch", "refund-transfer-stopped", "refunded-twice"] as const;
export type PaymentIncidentKind = (typeof PAYMENT_INCIDENT_KINDS)[number];

/** Each incident as /ops/refunds' 'Insiden Pembayaran' names it, and what finance checks before 'Tandai Selesai'. */
export const PAYMENT_INCIDENT_NAMES: Record<PaymentIncidentKind, { name: string; check: string }> = {
  "paid-after-close": {
    name: "Dibayar setelah pesanan ditutup",
    check: "Dananya sudah tercatat sebagai pengembalian dana di daftar di bawah.",
  },
  "amount-mismatch": {
    name: "Jumlah tidak sesuai",
    check: "Dananya sudah tercatat sebagai pengembalian dana di daftar di bawah.",
  },
  // A card refund Midtrans refused, so the store asked the buyer for an account; Midtrans gave the
  // money back after all (issue 45 item 3, decision 0072).
  "refund-transfer-stopped": {
    name: "Transfer dihentikan: Midtrans sudah mengembalikan dana ke kartu",
    check: "Pastikan transfer bank untuk pengembalian ini tidak ikut terkirim (misalnya dalam file transfer massal).",
  },
  "refunded-twice": {
    name: "Dana dikembalikan dua kali: transfer bank dan Midtrans",
    check: "Hubungi pembeli untuk meminta kembali salah satu pengembalian.",
  },
};

/** Finance's 'Konfirmasi Dana' form: the amount that arrived (0: none) and, for 0, why. */
export const FUNDS_NOTE_MAX = 500;
export const FUNDS_AMOUNT_REQUIRED = "Jumlah dana yang masuk tidak boleh kosong (isi 0 jika dana tidak masuk).";
export const FUNDS_AMOUNT_INVALID = "Jumlah dana yang masuk harus berupa angka rupiah tanpa titik atau koma.";
export const FUNDS_NOTE_REQUIRED = "Alasan tidak boleh kosong jika dana tidak diterima.";

/**
 * What the buyer is told a transfer refund takes once finance has their details: finance's practice
 * (decision 0063), not a promise the store enforces.
 */
export const REFUND_TRANSFER_TIME = "biasanya 1–3 hari kerja";

/** An account number as the buyer sees it once the money was sent: the last four digits only. */
export function maskAccountNumber(number: string): string {
  return number.length <= 4 ? number : `${"*".repeat(number.length - 4)}${number.slice(-4)}`;
}

/** Indonesian banks a refund can be transferred to (the banks of the store's VA methods first). */
export const REFUND_BANKS = [
  "BNI",
  "BRI",
  "Mandiri",
  "BCA",
  "BSI (Bank Syariah Indonesia)",
  "BTN",
  "CIMB Niaga",
  "Danamon",
  "Permata",
  "Maybank Indonesia",
  "OCBC",
  "Panin",
  "Bank Jago",
  "SeaBank",
  "Bank DKI",
  "Bank Jatim",
  "Bank Jateng",
  "Bank BJB",
] as const;

export const ACCOUNT_NUMBER = /^\d{6,20}$/;
export const ACCOUNT_HOLDER_MAX = 100;

/** Finance's fields on /ops/refunds: the bank's transfer reference and a failure's reason. */
export const REFERENCE_MAX = 100;
export const FAILURE_REASON_MAX = 500;

export const BANK_REQUIRED = "Nama Bank tidak boleh kosong.";
export const ACCOUNT_NUMBER_REQUIRED = "Nomor Rekening tidak boleh kosong.";
export const ACCOUNT_NUMBER_INVALID = "Nomor Rekening harus 6-20 digit angka.";
export const ACCOUNT_HOLDER_REQUIRED = "Nama Pemilik Rekening tidak boleh kosong.";
export const ACCOUNT_HOLDER_TOO_LONG = `Nama Pemilik Rekening maksimal ${ACCOUNT_HOLDER_MAX} karakter.`;

export type AccountInput = { bankName: string; accountNumber: string; accountHolder: string };
export type AccountErrors = Partial<Record<keyof AccountInput, string>>;

/** The account form's checks, the same on the page and in the API (spaces and dashes in the number are dropped). */
export function checkAccountInput(
  raw: Partial<Record<keyof AccountInput, unknown>>,
): { ok: true; value: AccountInput } | { ok: false; errors: AccountErrors } {
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const bankName = text(raw.bankName);
  const accountNumber = text(raw.accountNumber).replace(/[\s-]/g, "");
  const accountHolder = text(raw.accountHolder).replace(/\s+/g, " ");
  const errors: AccountErrors = {};
  if (!bankName) errors.bankName = BANK_REQUIRED;
  else if (!(REFUND_BANKS as readonly string[]).includes(bankName)) errors.bankName = BANK_REQUIRED;
  if (!accountNumber) errors.accountNumber = ACCOUNT_NUMBER_REQUIRED;
  else if (!ACCOUNT_NUMBER.test(accountNumber)) errors.accountNumber = ACCOUNT_NUMBER_INVALID;
  if (!accountHolder) errors.accountHolder = ACCOUNT_HOLDER_REQUIRED;
  else if (accountHolder.length > ACCOUNT_HOLDER_MAX) errors.accountHolder = ACCOUNT_HOLDER_TOO_LONG;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: { bankName, accountNumber, accountHolder } };
}
