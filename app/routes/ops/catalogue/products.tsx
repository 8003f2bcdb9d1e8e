import type { Route } from "./+types/products";
import { pageParam } from "~/.server/store/back-office";
import { listProductsForOps, productFormChoices } from "~/.server/store/catalogue";
import { formatRupiah } from "~/lib/money";
import { PRODUCT_STATUSES, STATUS_LABELS } from "~/lib/product-status";
import type { RouteHandle } from "~/lib/route-handle";
import { Pager } from "../components";
import { CatalogueNav } from "./components";
import { parseId } from "~/lib/ids";

// /ops/catalogue/products (issue 26 item 1): every product, newest first, with 'Cari' (title or SKU,
// the GET parameter q), filters by category and status, and paging links; each row links to its
// edit page. A GET form: works the same with JavaScript off.

const TITLE = "Produk";
export const handle: RouteHandle = { title: `${TITLE} — Katalog` };

export async function loader({ url }: Route.LoaderArgs) {
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const categoryText = url.searchParams.get("kategori") ?? "";
  const categoryId = parseId(categoryText);
  const statusText = url.searchParams.get("status") ?? "";
  const status = (PRODUCT_STATUSES as readonly string[]).includes(statusText) ? statusText : null;
  const [list, choices] = await Promise.all([listProductsForOps({ q, categoryId, status, page: pageParam(url) }), productFormChoices()]);
  return { ...list, q, categoryId, status, categories: choices.categories.map((c) => ({ id: c.id, title: c.title })), search: url.search };
}

export default function Products({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pageCount, q, categoryId, status, categories, search } = loaderData;
  return (
    <>
      <CatalogueNav />
      <div className="ops-title-row">
        <h1>
          {TITLE} <span className="ops-muted">({total})</span>
        </h1>
        <a className="ops-btn" href="/ops/catalogue/products/new">
          Tambah Produk
        </a>
      </div>
      <form method="get" className="ops-card ops-search" role="search">
        <div className="ops-field">
          <label htmlFor="q">Cari</label>
          <input id="q" name="q" type="search" defaultValue={q} placeholder="Nama produk atau SKU" />
        </div>
        <div className="ops-field">
          <label htmlFor="kategori">Kategori</label>
          <select id="kategori" name="kategori" defaultValue={categoryId ? String(categoryId) : ""}>
            <option value="">Semua Kategori</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </div>
        <div className="ops-field">
          <label htmlFor="status">Status</label>
          <select id="status" name="status" defaultValue={status ?? ""}>
            <option value="">Semua Status</option>
            {PRODUCT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="ops-btn">
          Cari
        </button>
      </form>
      {items.length === 0 ? (
        <p className="ops-card">
          {total === 0 && !q && !categoryId && !status
            ? "Katalog masih kosong. Tambah produk atau impor CSV."
            : "Tidak ada produk yang cocok."}
        </p>
      ) : (
        <div className="ops-table-wrap">
          <table className="ops-table">
            <thead>
              <tr>
                <th>Foto</th>
                <th>Nama Produk</th>
                <th className="num">Harga</th>
                <th className="num">Stok</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => (
                <tr key={p.id} data-testid="ops-product-row">
                  <td>
                    {p.imageUrl ? (
                      <img src={p.imageUrl} alt="" width={48} height={48} className="ops-thumb" loading="lazy" />
                    ) : (
                      <span className="ops-thumb ops-thumb-empty" aria-hidden="true" />
                    )}
                  </td>
                  <td>
                    <a href={`/ops/catalogue/products/${p.id}`}>{p.title ?? "-"}</a>
                    <br />
                    <span className="ops-muted">
                      {p.sku ?? "-"} · {p.categoryTitle ?? "Tanpa kategori"}
                    </span>
                  </td>
                  <td className="num">{p.price === null ? "-" : formatRupiah(p.price)}</td>
                  <td className="num">{p.stock}</td>
                  <td>
                    <span className={`ops-status-tag status-${p.status}`}>{STATUS_LABELS[p.status]}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} search={search} />
    </>
  );
}
