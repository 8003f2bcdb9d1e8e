import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/photo-zip";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { formatWhen, getStagedCsvImport, markCsvImportApplied, stageCsvImport } from "~/.server/store/back-office";
import {
  applyPhotoZip,
  keptPhotoZipPlan,
  PHOTO_ZIP_MAX_BYTES,
  PHOTO_ZIP_MAX_ENTRIES,
  photosAsZip,
  photoZipSummary,
  previewPhotoZip,
} from "~/.server/store/catalogue";
import type { RouteHandle } from "~/lib/route-handle";
import { CatalogueNav, AppliedImport } from "./components";

// /ops/catalogue/photo-zip (issue 38 item 2): photos for many products from one ZIP whose entries
// are named by SKU, or from several pictures chosen at once (packed into one ZIP on arrival, so
// both go the same way). 'Unggah' keeps the file server-side (like the CSV import: a staged import,
// its id in the preview's address and form) and shows which file becomes which product's photo and
// what is refused; nothing is written until 'Terapkan'. Applied, the staged ZIP is emptied and a
// second 'Terapkan' of the same id only shows the result again.

export const handle: RouteHandle = { title: "Foto dari ZIP — Katalog" };

const NO_FILE = "Pilih file ZIP atau foto terlebih dahulu.";
const ZIP_AND_PHOTOS = "Pilih satu file ZIP, atau beberapa foto tanpa ZIP.";
const STAGED_GONE = "File ZIP tidak ditemukan atau sudah kedaluwarsa. Unggah ulang file ZIP.";
const KIND = "foto-zip";

const photoLabel = (photo: number) => (photo === 1 ? "Foto utama" : `Foto ${photo}`);

export async function loader({ context, url }: Route.LoaderArgs) {
  const operator = requireStaff(context);
  const id = url.searchParams.get("id");
  const limits = { zipMegabytes: PHOTO_ZIP_MAX_BYTES / 1024 / 1024, entries: PHOTO_ZIP_MAX_ENTRIES };
  if (!id) return { staged: null, limits };
  const staged = await getStagedCsvImport(id, KIND, operator.id);
  if (!staged) return { staged: null, limits, error: STAGED_GONE };
  if (staged.appliedAt)
    return {
      limits,
      staged: { id: staged.id, fileName: staged.fileName, appliedAt: formatWhen(staged.appliedAt), summary: staged.summary, plan: null },
    };
  // The preview computed at upload, thumbnails and all: a view does not read the ZIP again.
  const kept = keptPhotoZipPlan(staged.preview);
  const preview = kept ? { ok: true as const, plan: kept } : await previewPhotoZip(Buffer.from(staged.content, "base64"));
  return {
    limits,
    staged: { id: staged.id, fileName: staged.fileName, appliedAt: null, summary: null, plan: preview.ok ? preview.plan : null },
    error: preview.ok ? undefined : preview.message,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  if (form.get("intent") === "apply") {
    const staged = await getStagedCsvImport(String(form.get("id") ?? ""), KIND, operator.id);
    if (!staged) return data({ error: STAGED_GONE }, { status: 404 });
    if (staged.appliedAt) throw redirect(`/ops/catalogue/photo-zip?id=${staged.id}`);
    // Of two 'Terapkan' of the same ZIP only the one whose transaction marks it applied writes.
    const applied = await applyPhotoZip(operator.id, Buffer.from(staged.content, "base64"), staged.fileName, (tx, plan) =>
      markCsvImportApplied(staged.id, photoZipSummary(plan), tx),
    );
    if (!applied.ok) return data({ error: applied.message }, { status: 400 });
    if (applied.applied) flash(context, "toast", { type: "success", message: `Foto diterapkan: ${photoZipSummary(applied.plan)}.` });
    throw redirect(`/ops/catalogue/photo-zip?id=${staged.id}`);
  }
  const files = form.getAll("file").filter((f): f is File => typeof f !== "string" && f.size > 0);
  if (!files.length) return data({ error: NO_FILE }, { status: 400 });
  const zips = files.filter((f) => /\.zip$/i.test(f.name));
  if (zips.length && files.length > 1) return data({ error: ZIP_AND_PHOTOS }, { status: 400 });
  // One file is read as a ZIP unless it is named as a picture (so a PDF gets the ZIP's message).
  const single = files.length === 1 && !/\.(jpe?g|png|webp)$/i.test(files[0]!.name);
  const bytes = single
    ? Buffer.from(await files[0]!.arrayBuffer())
    : Buffer.from(photosAsZip(await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })))));
  // A file that is no ZIP, too big or without a single photo is refused before anything is kept.
  const preview = await previewPhotoZip(bytes);
  if (!preview.ok) return data({ error: preview.message }, { status: 400 });
  const fileName = single ? files[0]!.name : `${files.length} foto`;
  const id = await stageCsvImport(KIND, operator.id, fileName, bytes.toString("base64"), JSON.stringify(preview.plan));
  throw redirect(`/ops/catalogue/photo-zip?id=${id}`);
}

export default function PhotoZip({ loaderData, actionData }: Route.ComponentProps) {
  const { staged, limits } = loaderData;
  const error = (actionData as { error?: string } | undefined)?.error ?? ("error" in loaderData ? loaderData.error : undefined);
  const plan = staged?.plan;
  return (
    <>
      <CatalogueNav />
      <h1>Foto Produk dari ZIP</h1>
      {error ? (
        <p className="ops-alert" role="alert" data-testid="zip-error">
          {error}
        </p>
      ) : null}

      {staged?.appliedAt ? (
        <AppliedImport title="Foto diterapkan" testId="zip-applied" staged={{ ...staged, appliedAt: staged.appliedAt }} />
      ) : null}

      {plan && staged ? (
        <section className="ops-card" aria-labelledby="preview-heading" data-testid="zip-preview">
          <h2 id="preview-heading">Pratinjau: {staged.fileName}</h2>
          <p>
            <strong>{plan.items.length}</strong> foto untuk <strong>{plan.products}</strong> produk; {plan.refused.length} file ditolak.
          </p>
          {plan.items.length ? (
            <div className="ops-table-wrap">
              <table className="ops-table" data-testid="zip-items">
                <caption className="ops-sr-only">Foto yang akan disimpan</caption>
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Produk</th>
                    <th scope="col">Foto</th>
                  </tr>
                </thead>
                <tbody>
                  {plan.items.map((item) => (
                    <tr key={item.fileName} data-testid="zip-item">
                      <td>
                        {/* The picture itself, small: the operator sees that SKU.jpg is this product's photo. */}
                        {item.thumbnail ? (
                          <img src={item.thumbnail} alt="" width={48} height={48} className="ops-zip-thumb" data-testid="zip-thumb" />
                        ) : null}
                        {item.fileName}
                      </td>
                      <td>
                        {item.sku} — {item.title}
                      </td>
                      {/* Position and outcome in one column: three columns fit a 390 px phone. */}
                      <td>
                        {photoLabel(item.photo)}
                        <br />
                        <span className="ops-muted">{item.replaces ? "akan mengganti foto yang ada" : "akan ditambah"}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {plan.refused.length ? (
            <>
              <h3>Ditolak</h3>
              <ul className="ops-problems" data-testid="zip-refused">
                {plan.refused.map((r) => (
                  <li key={r.fileName}>
                    {r.fileName}: {r.reason}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {plan.items.length ? (
            <Form method="post" style={{ marginTop: 16 }}>
              <input type="hidden" name="intent" value="apply" />
              <input type="hidden" name="id" value={staged.id} />
              <button type="submit" className="ops-btn">
                Terapkan
              </button>
            </Form>
          ) : (
            <p className="ops-muted">Tidak ada foto yang dapat diterapkan.</p>
          )}
        </section>
      ) : null}

      <section className="ops-card ops-narrow" aria-labelledby="upload-heading">
        <h2 id="upload-heading">Unggah ZIP atau Foto</h2>
        <p className="ops-muted">
          Nama file di dalam ZIP adalah SKU produk: <code>SKU.jpg</code> menjadi foto utama, <code>SKU-2.jpg</code> foto kedua, dan
          seterusnya (JPG, PNG atau WebP; foto di dalam folder ZIP tetap dibaca menurut nama filenya). Tanpa ZIP: pilih beberapa foto
          sekaligus, dinamai dengan cara yang sama. Maksimal {limits.zipMegabytes} MB per unggahan, {limits.entries} file, 5 MB per foto.
          Foto pada posisi yang sudah terisi diganti. Tidak ada yang berubah sebelum Anda menekan Terapkan.
        </p>
        <Form method="post" encType="multipart/form-data" className="ops-form">
          <input type="hidden" name="intent" value="upload" />
          <label htmlFor="zip-file">File ZIP atau foto</label>
          <input id="zip-file" name="file" type="file" accept=".zip,application/zip,image/jpeg,image/png,image/webp" multiple required />
          <div>
            <button type="submit" className="ops-btn">
              Unggah
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}
