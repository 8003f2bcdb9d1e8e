// What a buyer is told about paying outside a gateway's own page, shared by the gateways (their
// how-to-pay texts), the payments store and the store's settings (db/settings.ts seeds the transfer
// account from here). Here, below them all, so the database layer need not import a gateway.

/** The channels a how-to-pay text is written for. */
export type PaymentChannel = "ATM" | "Mobile Banking" | "Internet Banking";

/** The store's account that manual transfers go to (demo data: not a real account). */
export const MANUAL_TRANSFER_ACCOUNT = {
  bankName: "Bank Negara Indonesia (BNI)",
  bankAccountName: "PT Toko Pegawai PLN",
  bankAccountNumber: "0987654321",
  bankImageUrl: "/images/payment/bni.svg",
} as const;
