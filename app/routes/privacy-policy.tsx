import { Link } from "react-router";
import type { Route } from "./+types/privacy-policy";
import { getKtpRetentionDays } from "~/.server/store/privacy";
import { getHelpContacts } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";

// /kebijakan-privasi (issue 35, UU No. 27/2022): public, plain Indonesian: what the store keeps, why,
// for how long, and the employee's rights. The KTP retention days are the admin's setting, read live.

export const handle: RouteHandle = { title: "Kebijakan Privasi" };

export async function loader(_: Route.LoaderArgs) {
  const [ktpDays, help] = await Promise.all([getKtpRetentionDays(), getHelpContacts()]);
  return { ktpDays, help };
}

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  const { ktpDays, help } = loaderData;
  return (
    // The layout's header names the page ('Kebijakan Privasi', the handle's title): its one h1.
    <article className="card prose" data-testid="privacy-policy">
      <p>
        Toko Pegawai PLN menyimpan data pribadi Anda hanya untuk melayani pesanan Anda, sesuai Undang-Undang No. 27 Tahun 2022 tentang
        Pelindungan Data Pribadi.
      </p>

      <h2>Data yang kami simpan dan untuk apa</h2>
      <ul>
        <li>
          <strong>Akun</strong>: nama, email, nomor HP, NIP dan perusahaan — untuk masuk, mengirim kabar pesanan, dan memberikan Promo
          Pegawai.
        </li>
        <li>
          <strong>Alamat pengiriman</strong> — untuk mengirim barang.
        </li>
        <li>
          <strong>NIK dan foto KTP</strong> — hanya bila Anda mengajukan Insentif Pemerintah, untuk memeriksa pengajuan itu (satu NIK untuk
          satu unit).
        </li>
        <li>
          <strong>Pesanan dan pembayaran</strong> — untuk memproses pesanan dan untuk catatan keuangan perusahaan.
        </li>
        <li data-testid="privacy-bank-account">
          <strong>Rekening bank</strong>: nama bank, nomor rekening dan nama pemilik rekening yang Anda isi untuk pengembalian dana — hanya
          untuk mentransfer dana yang dikembalikan kepada Anda, oleh petugas keuangan.
        </li>
      </ul>

      <h2>Cara kami menjaganya</h2>
      <ul>
        <li>
          NIK dan foto KTP disimpan terenkripsi. Di luar pemeriksaan insentif, NIK hanya ditampilkan sebagian (misalnya 3171********0001).
        </li>
        <li>
          Hanya petugas yang memutuskan insentif yang dapat membuka NIK lengkap dan foto KTP, dan setiap pembukaan dicatat (siapa, kapan,
          pesanan mana, dari alamat mana).
        </li>
      </ul>

      <h2>Berapa lama disimpan</h2>
      <ul>
        <li>
          Foto KTP dihapus <strong>{ktpDays} hari</strong> setelah keputusan insentif, setelah pesanan selesai atau ditutup. Catatan pesanan
          tetap ada dengan keterangan bahwa fotonya telah dihapus.
        </li>
        <li>Catatan pesanan dan pembayaran disimpan selama 10 tahun, sesuai kewajiban perpajakan.</li>
        <li data-testid="privacy-nik-hash">
          Pada pesanan yang mendapat Insentif Pemerintah, <strong>kode hash NIK</strong> (nilai yang dihitung dari NIK dengan kunci rahasia
          toko; NIK tidak dapat dibaca kembali dari kode ini) disimpan bersama keputusan insentifnya selama catatan pesanan itu disimpan (10
          tahun), juga bila Anda menghapus akun. Dengan kode ini toko tetap dapat menegakkan dan membuktikan aturan pemerintah satu NIK
          untuk satu unit: NIK yang sama tidak dapat mengajukan insentif lagi, juga dari akun lain atau akun baru.
        </li>
        <li>
          Rekening bank untuk pengembalian dana disimpan bersama catatan pengembalian dana itu; nomor rekening dan nama pemiliknya dihapus
          bila Anda menghapus akun.
        </li>
        <li>Salinan email dan SMS yang dikirim toko disimpan paling lama 7 hari.</li>
        <li>File daftar pegawai dari HR dihapus begitu diterapkan; yang disimpan hanya ringkasannya.</li>
        <li>Data akun disimpan selama akun Anda aktif.</li>
      </ul>

      <h2>Hak Anda</h2>
      <ul>
        <li>
          Mengunduh salinan data Anda dengan tombol <strong>Unduh Data Saya</strong> di halaman <Link to="/profile">Profil</Link>: berkas
          ZIP berisi ringkasan yang mudah dibaca (RINGKASAN-DATA-SAYA.html) serta data akun, alamat, pesanan beserta rekening pengembalian
          dana, notifikasi, saldo dan foto yang Anda unggah. Tautannya dikirim ke email Anda, hanya dapat dibuka dari akun Anda, dan berlaku
          24 jam; setelah itu berkasnya dihapus.
        </li>
        <li>
          Menghapus akun Anda dengan tombol <strong>Hapus Akun</strong> di halaman Profil (dengan kata sandi Anda), bila tidak ada pesanan
          yang masih berjalan dan tidak ada saldo atau penarikan saldo yang belum selesai. Nama, email, nomor HP, NIP, alamat, NIK, foto KTP
          dan nomor rekening pengembalian dana Anda dihapus. Catatan keuangan pesanan (nilai, status, pembayaran) tetap disimpan dengan nama
          samaran, tanpa identitas Anda, selama 10 tahun sesuai kewajiban perpajakan; pesanan yang mendapat insentif juga menyimpan kode
          hash NIK-nya (lihat di atas).
        </li>
        <li>
          Memperbaiki data akun Anda melalui <Link to="/edit-profile">Ubah Profil</Link>.
        </li>
      </ul>

      <h2>Kontak</h2>
      <p>
        Pertanyaan tentang data pribadi Anda: hubungi admin di{" "}
        <a href={`tel:${help.phone.replace(/[^\d+]/g, "")}`}>
          {/* One unbroken number: a telephone link's text keeps together (html-validate tel-non-breaking). */}
          {help.phone.replace(/ /g, "\u00a0").replace(/-/g, "\u2011")}
        </a>
        .
      </p>
    </article>
  );
}
