import type { HowToPay } from "../../gateway";

// The bank of the store's manual-transfer account (issue 38): the method's name, logo and built-in
// how-to follow the bank the admin sets in /ops/settings, so a Mandiri account is paid as 'Transfer
// Bank Mandiri (Manual)' with Livin' by Mandiri, not under BNI's title and app.

export type TransferBank = {
  /** The short name buyers know ('BNI', 'Mandiri'); the admin's name for a bank the store has no profile of. */
  shortName: string;
  /** 'Transfer Bank BNI (Manual)' (the spec's name for BNI). */
  methodName: string;
  /** The bank's logo; the neutral transfer logo for a bank the store has none of. */
  logo: string;
  mobile: string;
  internet: string;
};

const GENERIC_LOGO = "/images/payment/bank.svg";

const PROFILES: { pattern: RegExp; shortName: string; logo: string; mobile: string; internet: string }[] = [
  {
    pattern: /\bBNI\b|Negara Indonesia/i,
    shortName: "BNI",
    logo: "/images/payment/bni.svg",
    mobile: "BNI Mobile Banking",
    internet: "BNI Internet Banking (ibank.bni.co.id)",
  },
  {
    pattern: /\bBRI\b|Rakyat Indonesia/i,
    shortName: "BRI",
    logo: "/images/payment/bri.svg",
    mobile: "BRImo",
    internet: "Internet Banking BRI (ib.bri.co.id)",
  },
  {
    pattern: /Mandiri/i,
    shortName: "Mandiri",
    logo: "/images/payment/mandiri.svg",
    mobile: "Livin' by Mandiri",
    internet: "Mandiri Internet Banking",
  },
];

/** The profile of the account's bank, by the name the admin typed ('Bank Mandiri', 'BNI', 'Bank Central Asia (BCA)'). */
export function transferBankOf(bankName: string): TransferBank {
  const known = PROFILES.find((p) => p.pattern.test(bankName));
  const shortName = known?.shortName ?? (bankName.replace(/^Bank\s+/i, "").trim() || bankName);
  return {
    shortName,
    methodName: `Transfer Bank ${shortName} (Manual)`,
    logo: known?.logo ?? GENERIC_LOGO,
    mobile: known?.mobile ?? `aplikasi mobile banking ${shortName}`,
    internet: known?.internet ?? `internet banking ${shortName}`,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The built-in how-to of a manual transfer to the store's account at `bankName`, per channel. */
export function manualTransferHowTo(bankName: string, accountNumber: string, accountName: string): HowToPay[] {
  const bank = transferBankOf(bankName);
  const account = `<b>${accountNumber.replace(/[^0-9A-Za-z-]/g, "")}</b> a.n. <b>${escapeHtml(accountName)}</b>`;
  return [
    {
      type: "ATM",
      content: `<ol><li>Masukkan kartu ATM dan PIN Anda.</li><li>Pilih <b>Menu Lainnya</b> &gt; <b>Transfer</b>.</li><li>Masukkan nomor rekening ${account}.</li><li>Masukkan jumlah transfer <b>tepat sampai 3 digit terakhir</b>.</li><li>Periksa data, lalu pilih <b>Ya</b>. Simpan struk sebagai bukti pembayaran.</li></ol>`,
    },
    {
      type: "Mobile Banking",
      content: `<ol><li>Buka aplikasi ${escapeHtml(bank.mobile)} dan masuk.</li><li>Pilih <b>Transfer</b>.</li><li>Masukkan nomor rekening ${account}.</li><li>Masukkan jumlah transfer <b>tepat sampai 3 digit terakhir</b>.</li><li>Konfirmasi dengan PIN transaksi, lalu simpan tangkapan layar bukti transfer.</li></ol>`,
    },
    {
      type: "Internet Banking",
      content: `<ol><li>Masuk ke ${escapeHtml(bank.internet)}.</li><li>Pilih <b>Transfer</b> &gt; <b>Transfer Antar Rekening</b>.</li><li>Masukkan nomor rekening ${account}.</li><li>Masukkan jumlah transfer <b>tepat sampai 3 digit terakhir</b>.</li><li>Konfirmasi dengan token, lalu unduh bukti transfer.</li></ol>`,
    },
  ];
}
