import { formatRupiah } from "~/lib/money";
import { isLivePaymentStatus, ORDER_STATUS } from "~/lib/order-status";
import { REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";
import { FIELD_NOTES, PAYMENT_CLOSED_NAMES, type PaymentClosedReason } from "./data-fields";

// The readable part of 'Unduh Data Saya' (issue 43 item 6): the JSON files carry the database's own
// fields (status ids, UTC times, region codes), which a person cannot read. This page, first in the
// ZIP, says the same in Indonesian: statuses by name, times in WIB, regions by name, the refund
// accounts; and it documents every field of the JSON files kept beside it for programs. The export
// test checks that every field the JSON files hold is documented here.

/** The summary's file name: first in the ZIP, so it is what an archive viewer shows on top. */
export const SUMMARY_FILE = "RINGKASAN-DATA-SAYA.html";

export type NamedAddress = {
  fullAddress: string;
  provinsiId: string;
  provinsi: string | null;
  kotaId: string;
  kota: string | null;
  kecamatanId: string;
  kecamatan: string | null;
  kelurahanId: string;
  kelurahan: string | null;
  kodePos: string;
};

export type SummaryOrder = {
  invoiceId: string;
  statusId: number;
  status: string;
  createdAt: Date;
  produk: { title: string }[];
  totalAmount: number;
  paymentTotal: number | null;
  metodePembayaran: string | null;
  buyerName: string;
  buyerPhoneNumber: string;
  buyerEmail: string;
  buyerNik: string | null;
  fullAddress: string;
  kelurahan: string;
  kecamatan: string;
  kota: string;
  provinsi: string;
  kodePos: string;
  courier: string | null;
  trackingNumber: string | null;
  pembayaran: {
    markedPaidAt: Date | null;
    expiresAt: Date | null;
    closedAt: Date | null;
    closedReason: PaymentClosedReason | null;
  } | null;
  riwayatStatus: { dariStatus: string | null; keStatus: string; waktu: Date }[];
  pengembalianDana: {
    amount: number;
    reason: string;
    state: RefundState;
    bankName: string | null;
    accountNumber: string | null;
    accountHolder: string | null;
    refundedAt: Date | null;
  }[];
};

export type SummaryData = {
  madeAt: Date;
  account: {
    namaLengkap: string;
    email: string;
    nomorHp: string;
    nip: string | null;
    perusahaan: string;
    terdaftar: Date;
    terverifikasi: Date | null;
  } | null;
  alamatTersimpan: NamedAddress | null;
  alamatCheckout: NamedAddress | null;
  orders: SummaryOrder[];
  saldo: number;
  riwayatSaldo: { jenis: "credit" | "withdrawal"; judul: string; jumlah: number; status: string | null; waktu: Date }[];
  notifikasi: { judul: string; waktu: Date; dibaca: Date | null }[];
  foto: { name: string; purpose: string; createdAt: Date }[];
};

const UPLOAD_PURPOSE_NAMES: Record<string, string> = {
  ktp: "Foto KTP",
  "transfer-proof": "Bukti transfer",
  "delivery-proof": "Foto bukti barang diterima",
  "refund-proof": "Bukti pengembalian dana",
};
const LEDGER_KIND_NAMES = { credit: "Masuk", withdrawal: "Penarikan" } as const;

/** A time as a person in Indonesia reads it: "29 November 2026 pukul 09.15 WIB". */
export function formatWib(date: Date | string | null): string {
  if (date === null) return "-";
  const text = new Date(date).toLocaleString("id-ID", { timeZone: "Asia/Jakarta", dateStyle: "long", timeStyle: "short" });
  return `${text} WIB`;
}

const escape = (value: unknown) =>
  String(value ?? "-").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** "Kelurahan, Kecamatan, Kota, Provinsi 12345", each by name (its code where the name is unknown). */
export function regionLine(a: {
  kelurahan: string | null;
  kelurahanId?: string;
  kecamatan: string | null;
  kecamatanId?: string;
  kota: string | null;
  kotaId?: string;
  provinsi: string | null;
  provinsiId?: string;
  kodePos: string;
}): string {
  const name = (value: string | null, code?: string) => value ?? (code ? `kode wilayah ${code}` : "-");
  return `${name(a.kelurahan, a.kelurahanId)}, ${name(a.kecamatan, a.kecamatanId)}, ${name(a.kota, a.kotaId)}, ${name(a.provinsi, a.provinsiId)} ${a.kodePos}`;
}

const row = (label: string, value: unknown) => `<tr><th scope="row">${escape(label)}</th><td>${escape(value)}</td></tr>`;
const table = (rows: string[]) => `<table>${rows.join("")}</table>`;

function addressRows(address: NamedAddress | null): string {
  if (!address) return "<p>Tidak ada.</p>";
  return table([row("Alamat", address.fullAddress), row("Wilayah", regionLine(address))]);
}

/**
 * Where the payment stands, in words. A payment left open when its order closed is closed lazily
 * (store/payments/open.ts), so its own columns may still read open: the order's status decides.
 */
function paymentState(order: SummaryOrder): string {
  const payment = order.pembayaran;
  if (!payment) return "Belum dibuka";
  if (payment.closedReason) return `${PAYMENT_CLOSED_NAMES[payment.closedReason]} (${formatWib(payment.closedAt)})`;
  const marked = payment.markedPaidAt ? `Anda menandai sudah transfer ${formatWib(payment.markedPaidAt)}. ` : "";
  if (order.statusId === ORDER_STATUS.TRANSFER_REVIEW) return `${marked}Bukti transfer sedang diperiksa.`;
  if (isLivePaymentStatus(order.statusId)) return `${marked}Menunggu pembayaran sampai ${formatWib(payment.expiresAt)}.`;
  return `${marked}Ditutup: pesanan ${order.status}.`;
}

function orderSection(order: SummaryOrder): string {
  const history = order.riwayatStatus
    .map((e) => `<li>${escape(formatWib(e.waktu))}: ${e.dariStatus ? `${escape(e.dariStatus)} → ` : ""}${escape(e.keStatus)}</li>`)
    .join("");
  const refunds = order.pengembalianDana
    .map((r) =>
      table([
        row("Jumlah", formatRupiah(r.amount)),
        row("Status", REFUND_STATE_NAMES[r.state]),
        row("Alasan", r.reason),
        row(
          "Rekening tujuan",
          r.accountNumber
            ? `${r.bankName ?? "-"} ${r.accountNumber} a.n. ${r.accountHolder ?? "-"}`
            : "Belum diisi (isi di detail pesanan)",
        ),
        row("Dikembalikan pada", formatWib(r.refundedAt)),
      ]),
    )
    .join("");
  return `<section>
<h3>Pesanan ${escape(order.invoiceId)}</h3>
${table([
  row("Produk", order.produk.map((p) => p.title).join(", ")),
  row("Status", order.status),
  row("Dibuat", formatWib(order.createdAt)),
  row("Total harga", formatRupiah(order.totalAmount)),
  row("Total pembayaran", order.paymentTotal === null ? "-" : formatRupiah(order.paymentTotal)),
  row("Metode pembayaran", order.metodePembayaran),
  row("Pembayaran", paymentState(order)),
  row("Nama pembeli", order.buyerName),
  row("Nomor HP", order.buyerPhoneNumber),
  row("Email", order.buyerEmail),
  row("NIK", order.buyerNik ?? "Sudah dihapus"),
  row("Alamat pengiriman", `${order.fullAddress}, ${regionLine(order)}`),
  row("Kurir dan nomor resi", order.courier ? `${order.courier} ${order.trackingNumber ?? ""}`.trim() : "-"),
])}
<h4>Riwayat status</h4>
<ul>${history || "<li>-</li>"}</ul>
${refunds ? `<h4>Pengembalian dana</h4>${refunds}` : ""}
</section>`;
}

function fieldDocs(): string {
  return Object.entries(FIELD_NOTES)
    .map(
      ([file, notes]) =>
        `<h3>${escape(file)}</h3><table><tr><th scope="col">Kolom</th><th scope="col">Arti</th></tr>${Object.entries(notes)
          .map(([field, note]) => `<tr><td><code>${escape(field)}</code></td><td>${escape(note)}</td></tr>`)
          .join("")}</table>`,
    )
    .join("\n");
}

/** The summary page (a standalone HTML file, no script, readable in any browser on a phone). */
export function renderSummary(data: SummaryData): string {
  const account = data.account;
  const ledger = data.riwayatSaldo
    .map(
      (e) =>
        `<li>${escape(formatWib(e.waktu))}: ${escape(LEDGER_KIND_NAMES[e.jenis])} ${escape(formatRupiah(e.jumlah))}, ${escape(e.judul)}${e.status ? ` (${escape(e.status)})` : ""}</li>`,
    )
    .join("");
  const notes = data.notifikasi
    .map((n) => `<li>${escape(formatWib(n.waktu))}: ${escape(n.judul)}${n.dibaca ? "" : " (belum dibaca)"}</li>`)
    .join("");
  const files = data.foto
    .map(
      (f) =>
        `<li><code>${escape(f.name)}</code>: ${escape(UPLOAD_PURPOSE_NAMES[f.purpose] ?? f.purpose)}, diunggah ${escape(formatWib(f.createdAt))}</li>`,
    )
    .join("");
  return `<!doctype html>
<html lang="id">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ringkasan Data Akun Anda, Toko Pegawai PLN</title>
<style>
body { font-family: system-ui, sans-serif; margin: 16px; max-width: 720px; color: #1d2733; line-height: 1.45; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
th, td { border-bottom: 1px solid #e3e7ec; padding: 6px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th[scope="row"] { width: 38%; font-weight: 600; }
section { border-top: 2px solid #0b6fb0; margin-top: 16px; }
</style>
</head>
<body>
<h1>Ringkasan Data Akun Anda</h1>
<p>Salinan data yang disimpan Toko Pegawai PLN tentang Anda, dibuat ${escape(formatWib(data.madeAt))}. Semua waktu di halaman ini dalam WIB. Berkas JSON di samping halaman ini berisi data yang sama untuk dibaca program; arti setiap kolomnya ada di bagian akhir halaman ini.</p>
<h2>Akun</h2>
${
  account
    ? table([
        row("Nama lengkap", account.namaLengkap),
        row("Email", account.email),
        row("Nomor HP", account.nomorHp),
        row("NIP", account.nip),
        row("Perusahaan", account.perusahaan),
        row("Terdaftar", formatWib(account.terdaftar)),
        row("Diaktivasi", account.terverifikasi ? formatWib(account.terverifikasi) : "Belum"),
      ])
    : "<p>Tidak ada.</p>"
}
<h2>Alamat</h2>
<h3>Alamat tersimpan</h3>
${addressRows(data.alamatTersimpan)}
<h3>Alamat pada checkout yang belum selesai</h3>
${addressRows(data.alamatCheckout)}
<h2>Pesanan (${data.orders.length})</h2>
${data.orders.map(orderSection).join("\n") || "<p>Belum ada pesanan.</p>"}
<h2>Saldo</h2>
<p>Saldo sekarang: ${escape(formatRupiah(data.saldo))}</p>
<ul>${ledger || "<li>Belum ada riwayat saldo.</li>"}</ul>
<h2>Notifikasi (${data.notifikasi.length})</h2>
<ul>${notes || "<li>Tidak ada.</li>"}</ul>
<h2>Foto dan berkas yang Anda unggah</h2>
<ul>${files || "<li>Tidak ada.</li>"}</ul>
<h2>Berkas untuk program (JSON)</h2>
<p>Nama kolom mengikuti basis data toko. Waktu ditulis dalam UTC, format ISO 8601 (akhiran Z); WIB = UTC + 7 jam. Jumlah uang dalam rupiah tanpa desimal. Kode wilayah mengikuti kode resmi Kemendagri.</p>
${fieldDocs()}
</body>
</html>
`;
}
