/** What a screen shows until its issue is built: plainly not available yet. */
export function NotAvailable({ what }: { what: string }) {
  return (
    <section className="not-available">
      <h2>{what}</h2>
      <p>Fitur ini belum tersedia. Kami sedang menyiapkannya.</p>
      <a className="btn btn-outline" href="/home">
        Kembali ke Beranda
      </a>
    </section>
  );
}
