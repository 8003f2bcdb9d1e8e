import { formatRupiah } from "~/lib/money";
import { isLivePaymentStatus, ORDER_STATUS } from "~/lib/order-status";
import { REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";

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

export type PaymentClosedReason = "paid" | "expired" | "order-closed";
/** payments.closed_reason in words (the JSON keeps the code; both are documented below). */
export const PAYMENT_CLOSED_NAMES: Record<PaymentClosedReason, string> = {
  paid: "Lunas",
  expired: "Kedaluwarsa (tidak dibayar sampai batas waktu)",
  "order-closed": "Ditutup karena pesanan dibatalkan atau ditolak",
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

/**
 * What each JSON file's fields mean, by path ("produk[].title": a field of each element of the list
 * produk). A path in WHOLE_FIELDS is documented with what it holds (its inner fields are not listed).
 */
export const FIELD_NOTES: Record<string, Record<string, string>> = {
  "akun.json": {
    namaLengkap: "nama lengkap akun",
    email: "alamat email untuk masuk",
    nomorHp: "nomor HP",
    nip: "Nomor Induk Pegawai",
    perusahaan: "perusahaan grup PLN",
    terdaftar: "waktu pendaftaran",
    terverifikasi: "waktu aktivasi akun (null: belum diaktivasi)",
  },
  "alamat.json": {
    alamatTersimpan: "alamat terakhir yang Anda simpan (null: belum ada)",
    alamatCheckout: "alamat pada checkout yang belum selesai (null: tidak ada)",
    ...addressNotes("alamatTersimpan"),
    ...addressNotes("alamatCheckout"),
  },
  "pesanan.json": {
    id: "nomor pesanan di sistem",
    invoiceId: "nomor invoice",
    userId: "nomor akun Anda di sistem",
    productId: "nomor produk di katalog",
    statusId: "kode status pesanan (lihat status)",
    status: "nama status pesanan, dari tabel status toko",
    statusChangedAt: "waktu status terakhir berubah",
    buyerName: "nama pembeli yang diisi saat checkout",
    buyerPhoneNumber: "nomor HP pembeli",
    buyerEmail: "email pembeli",
    buyerNik: "NIK pembeli (null: sudah dihapus)",
    buyerNip: "NIP pembeli",
    buyerDadName: "nama ayah kandung (untuk pengajuan insentif)",
    note: "catatan untuk penjual",
    fullAddress: "alamat lengkap pengiriman",
    provinsiId: "kode provinsi (lihat provinsi)",
    provinsi: "nama provinsi",
    kotaId: "kode kota/kabupaten (lihat kota)",
    kota: "nama kota/kabupaten",
    kecamatanId: "kode kecamatan (lihat kecamatan)",
    kecamatan: "nama kecamatan",
    kelurahanId: "kode kelurahan/desa (lihat kelurahan)",
    kelurahan: "nama kelurahan/desa",
    kodePos: "kode pos",
    ktpUploadId: "nomor berkas foto KTP (berkasnya di folder foto/)",
    insentif: "true: pesanan mengajukan insentif pemerintah untuk kendaraan listrik",
    insentifValue: "nilai insentif (rupiah)",
    promoPegawai: "true: pesanan memakai promo pegawai",
    promoPegawaiValue: "nilai promo pegawai (rupiah)",
    priceOri: "harga normal (rupiah)",
    amount: "harga barang setelah semua potongan (rupiah)",
    totalAmount: "total harga pesanan (rupiah)",
    paymentTotal: "jumlah yang harus dibayar setelah biaya dan potongan metode pembayaran (rupiah; null: pembayaran belum dibuka)",
    paymentMethodId: "kode metode pembayaran (lihat metodePembayaran)",
    metodePembayaran: "nama metode pembayaran",
    tenor: "tenor cicilan (bulan)",
    rewardPercent: "persentase hadiah saldo pesanan ini",
    rewardCap: "batas hadiah saldo (rupiah)",
    courier: "kurir pengiriman",
    trackingNumber: "nomor resi",
    createdAt: "waktu pesanan dibuat",
    updatedAt: "waktu pesanan terakhir diubah",
    produk: "barang dalam pesanan",
    "produk[].id": "nomor baris barang",
    "produk[].productId": "nomor produk di katalog",
    "produk[].qty": "jumlah barang",
    "produk[].title": "nama barang",
    "produk[].imageUrl": "gambar barang",
    "produk[].price": "harga setelah potongan (rupiah)",
    "produk[].priceOri": "harga normal (rupiah)",
    "produk[].totalDiscount": "total potongan (rupiah)",
    "produk[].promo": "promo yang berlaku (judul, nilai, jenis potongan, jumlah potongan)",
    pembayaran: "pembayaran pesanan (null: belum dibuka)",
    "pembayaran.orderId": "nomor pesanan di sistem",
    "pembayaran.paymentMethodId": "kode metode pembayaran",
    "pembayaran.type": "jenis pembayaran: virtual_account, bank_transfer (transfer manual), installment (cicilan), paylater",
    "pembayaran.tenor": "tenor cicilan (bulan)",
    "pembayaran.vaNumber": "nomor virtual account, atau nomor rekening toko untuk transfer manual",
    "pembayaran.billerCode": "kode perusahaan (Mandiri bill payment)",
    "pembayaran.transferAccount": "rekening toko tujuan transfer manual (bank, nama, nomor)",
    "pembayaran.amount": "harga barang (rupiah)",
    "pembayaran.discount": "potongan pembayaran virtual account (rupiah)",
    "pembayaran.discountPercent": "persentase potongan virtual account",
    "pembayaran.fee": "biaya metode pembayaran (rupiah)",
    "pembayaran.uniqueCode": "kode unik transfer manual (rupiah)",
    "pembayaran.total": "jumlah yang dibayar (rupiah)",
    "pembayaran.expiresAt": "batas waktu pembayaran",
    "pembayaran.redirectUrl": "halaman pembayaran di gateway",
    "pembayaran.gateway": "penyedia pembayaran: midtrans, atau sandbox (uji coba)",
    "pembayaran.gatewayRef": "nomor referensi pembayaran di penyedia pembayaran",
    "pembayaran.gatewayCheckedAt": "waktu terakhir status ditanyakan ke penyedia pembayaran",
    "pembayaran.proofUploadId": "nomor berkas bukti transfer (berkasnya di folder foto/)",
    "pembayaran.markedPaidAt": "waktu Anda menandai sudah transfer",
    "pembayaran.paidAt": "waktu pembayaran diterima",
    "pembayaran.closedAt": "waktu pembayaran ditutup",
    "pembayaran.closedReason": `alasan pembayaran ditutup: ${Object.entries(PAYMENT_CLOSED_NAMES)
      .map(([code, name]) => `${code} = ${name}`)
      .join("; ")}`,
    "pembayaran.createdAt": "waktu pembayaran dibuka",
    riwayatStatus: "setiap perubahan status pesanan",
    "riwayatStatus[].dari": "kode status sebelumnya (null: pesanan baru)",
    "riwayatStatus[].dariStatus": "nama status sebelumnya",
    "riwayatStatus[].ke": "kode status baru",
    "riwayatStatus[].keStatus": "nama status baru",
    "riwayatStatus[].waktu": "waktu perubahan",
    pengembalianDana: "pengembalian dana pesanan ini",
    "pengembalianDana[].id": "nomor pengembalian dana",
    "pengembalianDana[].amount": "jumlah yang dikembalikan (rupiah)",
    "pengembalianDana[].cause": "sebab: buyer-cancel, proof-rejected, ops-cancel, paid-after-close, amount-mismatch, over-payment",
    "pengembalianDana[].reason": "alasan pengembalian dana",
    "pengembalianDana[].method": "cara: transfer (ke rekening Anda) atau gateway (kembali ke kartu)",
    "pengembalianDana[].state": "kode status (lihat statusNama)",
    "pengembalianDana[].statusNama": "nama status pengembalian dana",
    "pengembalianDana[].gateway": "penyedia pembayaran untuk pengembalian ke kartu",
    "pengembalianDana[].gatewayRef": "nomor referensi pembayaran di penyedia pembayaran",
    "pengembalianDana[].bankName": "bank rekening tujuan yang Anda isi",
    "pengembalianDana[].accountNumber": "nomor rekening tujuan yang Anda isi",
    "pengembalianDana[].accountHolder": "nama pemilik rekening tujuan",
    "pengembalianDana[].accountGivenAt": "waktu rekening diisi",
    "pengembalianDana[].transferReference": "nomor referensi transfer dari bagian keuangan",
    "pengembalianDana[].proofUploadId": "nomor bukti transfer dari bagian keuangan",
    "pengembalianDana[].failureReason": "alasan jika transfer gagal",
    "pengembalianDana[].createdAt": "waktu pengembalian dana dibuat",
    "pengembalianDana[].updatedAt": "waktu terakhir diubah",
    "pengembalianDana[].refundedAt": "waktu dana dikembalikan",
  },
  "notifikasi.json": {
    judul: "judul notifikasi",
    isi: "isi notifikasi",
    tautan: "halaman yang dituju",
    waktu: "waktu notifikasi",
    dibaca: "waktu dibaca (null: belum dibaca)",
  },
  "saldo.json": {
    saldo: "saldo hadiah Anda sekarang (rupiah)",
    riwayat: "riwayat saldo",
    "riwayat[].jenis": "credit = masuk (hadiah pesanan selesai); withdrawal = penarikan",
    "riwayat[].judul": "judul",
    "riwayat[].keterangan": "keterangan",
    "riwayat[].jumlah": "jumlah (rupiah)",
    "riwayat[].status": "status penarikan: Dalam Proses, Berhasil, Dibatalkan (null untuk saldo masuk)",
    "riwayat[].waktu": "waktu",
  },
};
/** Fields documented as a whole (an object or a list whose inner fields are named in the note). */
export const WHOLE_FIELDS = new Set(["produk[].promo", "pembayaran.transferAccount"]);

function addressNotes(key: string): Record<string, string> {
  return {
    [`${key}.fullAddress`]: "alamat lengkap",
    [`${key}.provinsiId`]: "kode provinsi",
    [`${key}.provinsi`]: "nama provinsi",
    [`${key}.kotaId`]: "kode kota/kabupaten",
    [`${key}.kota`]: "nama kota/kabupaten",
    [`${key}.kecamatanId`]: "kode kecamatan",
    [`${key}.kecamatan`]: "nama kecamatan",
    [`${key}.kelurahanId`]: "kode kelurahan/desa",
    [`${key}.kelurahan`]: "nama kelurahan/desa",
    [`${key}.kodePos`]: "kode pos",
  };
}

/** Every field path of `value` as FIELD_NOTES names them ("produk[].title"). */
export function fieldPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => fieldPaths(item, prefix ? `${prefix}[]` : "")))];
  if (value === null || typeof value !== "object" || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...(WHOLE_FIELDS.has(path) ? [] : fieldPaths(inner, path))];
  });
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
