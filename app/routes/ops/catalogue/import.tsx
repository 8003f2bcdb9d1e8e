import { data, Form, redirect } from "react-router";
import { formatRupiah } from "~/lib/money";
import type { Route } from "./+types/import";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { CSV_NOT_TEXT, csvText } from "~/.server/csv";
import { formatWhen, getStagedCsvImport, markCsvImportApplied, stageCsvImport } from "~/.server/store/back-office";
import { applyCatalogueCsv, CATALOGUE_COLUMNS, importSummary, previewCatalogueCsv } from "~/.server/store/catalogue";
import type { RouteHandle } from "~/lib/route-handle";
import { CsvUploadForm } from "../components";
import { CatalogueNav, AppliedImport } from "./components";

// /ops/catalogue/import (issue 26 item 7): the price list as CSV. 'Unggah CSV' keeps the file and
// shows its preview (?id=…: how many products 'akan ditambah' and 'akan diubah', every invalid row
// 'Baris N: …'); nothing is written until 'Terapkan Impor', which applies every valid row in one
// transaction. The export (the same columns) is a link to /ops/catalogue/export.

export const handle: RouteHandle = { title: "Impor & Ekspor — Katalog" };

const NO_FILE = "Pilih file CSV terlebih dahulu.";
const STAGED_GONE = "File impor tidak ditemukan atau sudah kedaluwarsa. Unggah ulang file CSV.";

export async function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireStaff(context);
  const id = url.searchParams.get("id");
  if (!id) return { staged: null, columns: CATALOGUE_COLUMNS.join(",") };
  const staged = await getStagedCsvImport(id, "katalog", operator.id);
  if (!staged) return { staged: null, columns: CATALOGUE_COLUMNS.join(","), error: STAGED_GONE };
  if (staged.appliedAt)
    return {
      staged: { id: staged.id, fileName: staged.fileName, appliedAt: formatWhen(staged.appliedAt), summary: staged.summary, plan: null },
      columns: CATALOGUE_COLUMNS.join(","),
    };
  const preview = await previewCatalogueCsv(staged.content);
  return {
    staged: { id: staged.id, fileName: staged.fileName, appliedAt: null, summary: null, plan: preview.ok ? preview.plan : null },
    columns: CATALOGUE_COLUMNS.join(","),
    error: preview.ok ? undefined : preview.message,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  if (form.get("intent") === "apply") {
    const staged = await getStagedCsvImport(String(form.get("id") ?? ""), "katalog", operator.id);
    if (!staged) return data({ error: STAGED_GONE }, { status: 404 });
    if (staged.appliedAt) throw redirect(`/ops/catalogue/import?id=${staged.id}`);
    const applied = await applyCatalogueCsv(operator.id, staged.content, staged.fileName);
    if (!applied.ok) return data({ error: applied.message }, { status: 400 });
    const summary = importSummary(applied.plan);
    await markCsvImportApplied(staged.id, summary);
    flash(context, "toast", { type: "success", message: `Impor selesai: ${summary}.` });
    throw redirect(`/ops/catalogue/import?id=${staged.id}`);
  }
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0) return data({ error: NO_FILE }, { status: 400 });
  // Read once as text (UTF-8, or Excel's plain CSV in Windows-1252), as the roster's import does: the
  // preview, the staged copy and 'Terapkan' all read that text. Anything else is refused before
  // anything is kept, and so is text without the right header (the preview).
  const text = csvText(Buffer.from(await file.arrayBuffer()));
  if (text === null) return data({ error: CSV_NOT_TEXT }, { status: 400 });
  const preview = await previewCatalogueCsv(text);
  if (!preview.ok) return data({ error: preview.message }, { status: 400 });
  const id = await stageCsvImport("katalog", operator.id, file.name, text);
  throw redirect(`/ops/catalogue/import?id=${id}`);
}

export default function Import({ loaderData, actionData }: Route.ComponentProps) {
  const { staged, columns } = loaderData;
  const error = (actionData as { error?: string } | undefined)?.error ?? ("error" in loaderData ? loaderData.error : undefined);
  const plan = staged?.plan;
  return (
    <>
      <CatalogueNav />
      <h1>Impor &amp; Ekspor Katalog</h1>
      {error ? (
        <p className="ops-alert" role="alert" data-testid="import-error">
          {error}
        </p>
      ) : null}

      {staged?.appliedAt ? (
        <AppliedImport title="Impor diterapkan" testId="import-applied" staged={{ ...staged, appliedAt: staged.appliedAt }} />
      ) : null}

      {plan && staged ? (
        <section className="ops-card" aria-labelledby="preview-heading" data-testid="import-preview">
          <h2 id="preview-heading">Pratinjau: {staged.fileName}</h2>
          <ul>
            <li>
              <strong>{plan.added}</strong> produk akan ditambah
            </li>
            <li>
              <strong>{plan.changed}</strong> produk akan diubah
            </li>
            <li>{plan.unchanged} produk tidak berubah</li>
            {plan.newCategories.length ? <li>Kategori baru: {plan.newCategories.join(", ")}</li> : null}
            {plan.newCities.length ? <li>Kota baru: {plan.newCities.join(", ")}</li> : null}
            <li>{plan.invalid} baris tidak valid (dilewati)</li>
          </ul>
          {plan.shown.length ? (
            <div className="ops-table-wrap">
              <table className="ops-table" data-testid="import-rows">
                <caption className="ops-sr-only">Nilai yang dibaca per baris</caption>
                <thead>
                  <tr>
                    <th scope="col">Baris</th>
                    <th scope="col">SKU</th>
                    <th scope="col">Nama</th>
                    <th scope="col">Harga</th>
                    <th scope="col">Stok</th>
                    <th scope="col">Status, Kondisi</th>
                    <th scope="col">Hasil</th>
                  </tr>
                </thead>
                <tbody>
                  {plan.shown.map((row) => (
                    <tr key={row.line} data-testid="import-row">
                      <td>{row.line}</td>
                      <td>{row.sku}</td>
                      <td>{row.name}</td>
                      {/* The discount under the price and the condition under the status: nine columns would not fit a phone. */}
                      <td>
                        {formatRupiah(row.price)}
                        {row.discount > 0 ? (
                          <>
                            <br />
                            <span className="ops-muted">
                              diskon {row.discountType === "%" ? `${row.discount}%` : formatRupiah(row.discount)}
                            </span>
                          </>
                        ) : null}
                      </td>
                      <td>{row.stock}</td>
                      <td>
                        {row.status}
                        <br />
                        <span className="ops-muted">{row.condition}</span>
                      </td>
                      <td>{row.outcome}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {plan.added + plan.changed > plan.shown.length ? (
            <p className="ops-muted">… dan {plan.added + plan.changed - plan.shown.length} baris lain.</p>
          ) : null}
          {plan.problems.length ? (
            <ul className="ops-problems" data-testid="import-problems">
              {plan.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
              {plan.invalid > plan.problems.length ? <li>… dan {plan.invalid - plan.problems.length} baris lain.</li> : null}
            </ul>
          ) : null}
          {plan.added + plan.changed > 0 ? (
            <Form method="post">
              <input type="hidden" name="intent" value="apply" />
              <input type="hidden" name="id" value={staged.id} />
              <button type="submit" className="ops-btn">
                Terapkan Impor
              </button>
            </Form>
          ) : (
            <p className="ops-muted">Tidak ada yang perlu diterapkan.</p>
          )}
        </section>
      ) : null}

      <section className="ops-card ops-narrow" aria-labelledby="upload-heading">
        <h2 id="upload-heading">Unggah CSV</h2>
        <p className="ops-muted">
          CSV dari Excel (CSV UTF-8 atau CSV biasa), dipisah koma atau titik koma, maksimal 5 MB. Baris pertama berisi nama kolom:{" "}
          <code>{columns}</code>. Status: draf, tayang atau arsip; tipe_diskon: v (Rp) atau %; kondisi: Baru atau Bekas (kosong: Baru).
          Harga boleh ditulis 18500000, Rp18.500.000 atau 18.500.000 (titik pemisah ribuan). Kategori atau kota baru dibuat otomatis. Foto
          tidak termasuk CSV.
        </p>
        <CsvUploadForm inputId="file" />
      </section>

      <section className="ops-card ops-narrow" aria-labelledby="export-heading">
        <h2 id="export-heading">Ekspor</h2>
        <p>Kolom yang sama dengan impor: ubah di spreadsheet lalu unggah kembali.</p>
        <a className="ops-btn ops-btn-secondary" href="/ops/catalogue/export" download>
          Unduh CSV Katalog
        </a>
      </section>
    </>
  );
}
