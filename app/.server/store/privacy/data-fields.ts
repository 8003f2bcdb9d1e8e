// What each file of 'Unduh Data Saya' holds, field by field (issue 43 item 6): the notes the
// summary page prints under 'Arti Setiap Kolom', and the paths of a JSON value that the export test
// checks are all documented. Kept apart from the page (data-summary.ts), which only renders them.

export type PaymentClosedReason = "paid" | "expired" | "order-closed";
/** payments.closed_reason in words (the JSON keeps the code; both are documented in FIELD_NOTES). */
export const PAYMENT_CLOSED_NAMES: Record<PaymentClosedReason, string> = {
  paid: "Lunas",
  expired: "Kedaluwarsa (tidak dibayar sampai batas waktu)",
  "order-closed": "Ditutup karena pesanan dibatalkan atau ditolak",
};

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
    "pengembalianDana[].failureReason": "alasan jika transfer gagal, atau jika dana tidak diterima",
    "pengembalianDana[].expectedAmount": "jumlah tagihan yang diperiksa bagian keuangan pada mutasi rekening toko",
    "pengembalianDana[].fundsConfirmedAt": "waktu bagian keuangan mengonfirmasi dana yang masuk",
    "pengembalianDana[].fundsConfirmedBy": "petugas yang mengonfirmasi dana yang masuk",
    "pengembalianDana[].fundsNote": "catatan bagian keuangan saat mengonfirmasi dana",
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
