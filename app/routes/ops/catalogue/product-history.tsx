import { formatRupiah } from "~/lib/money";
import { STATUS_LABELS } from "~/lib/product-status";

// A product's 'Riwayat' in the back office (issue 38): who changed what and when, each change with
// its field's name and its values as the form shows them (names, not ids).

const CHANGE_LABELS: Record<string, string> = {
  title: "Nama Produk",
  sku: "SKU",
  price: "Harga",
  discount: "Diskon",
  discountType: "Tipe Diskon",
  stock: "Stok",
  status: "Status",
  categoryId: "Kategori",
  cityId: "Kota",
  condition: "Kondisi",
  weightGram: "Berat (gram)",
  minimumPurchase: "Minimal Pembelian",
  description: "Deskripsi",
};

/** Where the history's ids are named (issue 38: 'Kategori: - → Motor Listrik', not '→ 1'). */
type HistoryNames = { categories: { id: number; title: string }[]; cities: { id: number; name: string }[] };

function shown(key: string, value: unknown, names: HistoryNames): string {
  if (value === null || value === undefined || value === "") return "-";
  // A category or city deleted since keeps its number: there is no name to show for it.
  if (key === "categoryId") return names.categories.find((c) => c.id === value)?.title ?? `#${String(value)}`;
  if (key === "cityId") return names.cities.find((c) => c.id === value)?.name ?? `#${String(value)}`;
  if (key === "price" && typeof value === "number") return formatRupiah(value);
  if (key === "status" && typeof value === "string" && value in STATUS_LABELS) return STATUS_LABELS[value as keyof typeof STATUS_LABELS];
  if (key === "discountType") return value === "v" ? "Rp" : "%";
  return String(value);
}

/** What each kind of history row the catalogue writes is called. */
const ACTION_LABELS: Record<string, string> = {
  "produk-dibuat": "Produk dibuat",
  "produk-diubah": "Produk diubah",
  "foto-ditambah": "Foto ditambah",
  "foto-dihapus": "Foto dihapus",
  "foto-diurutkan": "Urutan foto diubah",
  "foto-zip": "Foto dari ZIP",
  "impor-csv": "Impor CSV",
};

/** The history rows as the product page's loader gives them (the time already formatted). */
type HistoryRow = {
  id: number;
  at: string;
  operator: string | null;
  action: string;
  detail: string;
  changes: Record<string, { before: unknown; after: unknown }>;
};

export function ProductHistory({ history, names }: { history: HistoryRow[]; names: HistoryNames }) {
  return (
    <section className="ops-card" aria-labelledby="history-heading">
      <h2 id="history-heading">Riwayat</h2>
      {history.length === 0 ? (
        <p className="ops-muted">Belum ada perubahan yang tercatat.</p>
      ) : (
        <ol className="ops-timeline" data-testid="ops-history">
          {history.map((h) => (
            <li key={h.id}>
              <span className="when">{h.at}</span> · {h.operator ?? "-"} · <strong>{ACTION_LABELS[h.action] ?? h.action}</strong>
              {h.detail ? <span className="ops-muted"> ({h.detail})</span> : null}
              {Object.keys(h.changes).length ? (
                <ul>
                  {Object.entries(h.changes).map(([key, change]) => (
                    <li key={key}>
                      {CHANGE_LABELS[key] ?? key}: {shown(key, change.before, names)} → {shown(key, change.after, names)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
