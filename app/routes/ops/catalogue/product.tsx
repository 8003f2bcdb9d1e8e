import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/product";
import { readForm } from "~/.server/http/request";
import { opsNotFound, requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { formatWhen } from "~/.server/store/back-office";
import {
  changeProductPhoto,
  getProductForOps,
  listProductHistory,
  PHOTOS_PER_UPLOAD,
  productFormChoices,
  saveProduct,
  type PhotoMove,
  type ProductFormErrors,
} from "~/.server/store/catalogue";
import { formatRupiah } from "~/lib/money";
import { ProductHistory } from "./product-history";
import { PRODUCT_STATUSES, STATUS_LABELS } from "~/lib/product-status";
import type { RouteHandle } from "~/lib/route-handle";
import { InputField, SelectField, TextAreaField } from "../components";
import { CatalogueNav, ErrorSummary, formValues, MoveButtons, type FormReply } from "./components";
import { parseId } from "~/lib/ids";

// /ops/catalogue/products/{id} and /ops/catalogue/products/new (issue 26 items 1, 2, 3 and 8): the
// product form ('Simpan' names the version it was read at and the stock it showed), its photos
// ('Foto Produk': upload several at once through ./product-photos; 'Jadikan Utama', 'Naik', 'Turun',
// 'Hapus' as plain forms here) and its history ('Riwayat').

export const handle: RouteHandle = { title: "Produk — Katalog" };

const FIELDS = [
  "title",
  "sku",
  "categoryId",
  "price",
  "discount",
  "discountType",
  "stock",
  "cityId",
  "condition",
  "weightGram",
  "minimumPurchase",
  "description",
  "status",
] as const;
type Field = (typeof FIELDS)[number] | "promoIds";

const idParam = parseId;

export async function loader({ params }: Route.LoaderArgs) {
  const isNew = params.id === "new";
  const id = idParam(params.id);
  if (!isNew && !id) throw opsNotFound();
  const [product, choices, history] = await Promise.all([
    id ? getProductForOps(id) : null,
    productFormChoices(),
    id ? listProductHistory(id) : [],
  ]);
  if (!isNew && !product) throw opsNotFound();
  return {
    product,
    choices,
    history: history.map((h) => ({ ...h, at: formatWhen(h.at) })),
    photosPerUpload: PHOTOS_PER_UPLOAD,
  };
}

type Reply = FormReply<Field> & { promoIds?: string[]; version?: string; stockRead?: string };

export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const isNew = params.id === "new";
  const id = idParam(params.id);
  if (!isNew && !id) throw opsNotFound();
  const form = await readForm(request);
  const intent = form.get("intent");

  if (intent === "photo" && id) {
    const move = form.get("move");
    const photoId = idParam(String(form.get("photoId") ?? ""));
    if (!photoId || !(["first", "up", "down", "delete"] as const).includes(move as PhotoMove))
      return data<Reply>({ values: {}, errors: {}, error: "Permintaan tidak valid." }, { status: 400 });
    const changed = await changeProductPhoto(operator.id, id, photoId, move as PhotoMove);
    flash(
      context,
      "toast",
      changed
        ? { type: "success", message: move === "delete" ? "Foto dihapus." : "Urutan foto disimpan." }
        : { type: "danger", message: "Foto tidak ditemukan." },
    );
    throw redirect(`/ops/catalogue/products/${id}#foto`);
  }

  const values = formValues(form, FIELDS) as Partial<Record<Field, string>>;
  const promoIds = form
    .getAll("promoIds")
    .filter((v): v is string => typeof v === "string")
    .slice(0, 100);
  const version = idParam(String(form.get("version") ?? ""));
  const stockText = String(form.get("stockRead") ?? "");
  const stockRead = /^\d{1,9}$/.test(stockText) ? Number(stockText) : null;
  const result = await saveProduct(operator.id, { id: isNew ? null : id, version, stockRead, fields: values, promoIds });
  if (!result.ok) {
    // A conflict keeps what was typed AND the version it was typed against: 'Simpan' again is refused
    // again until the page is reloaded (the operator sees the other change first).
    const reply: Reply = {
      values,
      promoIds,
      errors: result.errors as Reply["errors"],
      conflict: result.conflict,
      version: String(form.get("version") ?? ""),
      stockRead: stockText,
    };
    return data(reply, { status: result.conflict ? 409 : 400 });
  }
  flash(context, "toast", { type: "success", message: "Produk disimpan." });
  throw redirect(`/ops/catalogue/products/${result.id}`);
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, choices, history, photosPerUpload } = loaderData;
  const reply = actionData as Reply | undefined;
  const errors: ProductFormErrors = reply?.errors ?? {};
  const fromProduct: Partial<Record<Field, string>> = product
    ? {
        title: product.title ?? "",
        sku: product.sku ?? "",
        categoryId: product.categoryId ? String(product.categoryId) : "",
        price: product.price === null ? "" : String(product.price),
        discount: String(product.discount),
        discountType: product.discountType,
        stock: String(product.stock),
        cityId: product.cityId ? String(product.cityId) : "",
        condition: product.condition,
        weightGram: String(product.weightGram),
        minimumPurchase: String(product.minimumPurchase),
        description: product.description,
        status: product.status,
      }
    : { discountType: "v", stock: "0", condition: "Baru", weightGram: "0", minimumPurchase: "1", status: "draf", discount: "0" };
  // After a refused save the form shows what was typed; otherwise the product as stored.
  const value = (name: Field) => (reply && !reply.error ? (reply.values[name] ?? "") : (fromProduct[name] ?? ""));
  const checkedPromos = new Set(reply && !reply.error ? (reply.promoIds ?? []) : (product?.promoIds ?? []).map(String));
  const title = product ? (product.title ?? "-") : "Tambah Produk";
  // A remount after each save or refusal, so the fields show the new defaults.
  const formKey = `${product?.version ?? 0}-${reply ? JSON.stringify(reply.values) : ""}`;

  return (
    <>
      <CatalogueNav />
      <p>
        <a href="/ops/catalogue/products">‹ Produk</a>
      </p>
      <h1>{title}</h1>
      {reply?.conflict ? (
        <p className="ops-alert" role="alert" data-testid="ops-conflict">
          {reply.conflict}
        </p>
      ) : null}
      {reply?.error ? (
        <p className="ops-alert" role="alert">
          {reply.error}
        </p>
      ) : null}
      <ErrorSummary errors={errors} />

      <Form method="post" className="ops-card ops-form ops-product-form" key={formKey} aria-label="Data produk">
        <input type="hidden" name="intent" value="save" />
        {product ? (
          <>
            <input type="hidden" name="version" value={reply?.conflict ? reply.version : product.version} />
            <input type="hidden" name="stockRead" value={reply?.conflict ? reply.stockRead : product.stock} />
          </>
        ) : null}
        <InputField name="title" label="Nama Produk" defaultValue={value("title")} error={errors.title} maxLength={200} required />
        <InputField
          name="sku"
          label="SKU"
          defaultValue={value("sku")}
          error={errors.sku}
          maxLength={64}
          hint="Unik. Dibuat otomatis bila dikosongkan."
        />
        <SelectField
          name="categoryId"
          label="Kategori"
          placeholder="Pilih kategori"
          defaultValue={value("categoryId")}
          error={errors.categoryId}
          options={choices.categories.map((c) => ({ value: String(c.id), label: c.hidden ? `${c.title} (tersembunyi)` : c.title }))}
        />
        <InputField
          name="price"
          label="Harga"
          defaultValue={value("price")}
          error={errors.price}
          inputMode="numeric"
          hint="Rupiah, tanpa desimal."
        />
        <div className="ops-field-row">
          <InputField name="discount" label="Diskon" defaultValue={value("discount")} error={errors.discount} inputMode="numeric" />
          <fieldset className="ops-field ops-choices">
            <legend>Tipe Diskon</legend>
            {[
              ["v", "Rp"],
              ["%", "%"],
            ].map(([v, label]) => (
              <label key={v}>
                <input type="radio" name="discountType" value={v} defaultChecked={value("discountType") === v} /> {label}
              </label>
            ))}
            {errors.discountType ? <p className="ops-error">{errors.discountType}</p> : null}
          </fieldset>
        </div>
        <InputField
          name="stock"
          label="Stok"
          defaultValue={value("stock")}
          error={errors.stock}
          inputMode="numeric"
          hint={product ? "Pesanan yang masuk sementara Anda mengubah stok tetap terhitung." : undefined}
        />
        <SelectField
          name="cityId"
          label="Kota"
          placeholder="Tanpa kota"
          defaultValue={value("cityId")}
          error={errors.cityId}
          options={choices.cities.map((c) => ({ value: String(c.id), label: c.name }))}
        />
        <fieldset className="ops-field ops-choices">
          <legend>Kondisi</legend>
          {["Baru", "Bekas"].map((c) => (
            <label key={c}>
              <input type="radio" name="condition" value={c} defaultChecked={value("condition") === c} /> {c}
            </label>
          ))}
          {errors.condition ? <p className="ops-error">{errors.condition}</p> : null}
        </fieldset>
        <div className="ops-field-row">
          <InputField
            name="weightGram"
            label="Berat (gram)"
            defaultValue={value("weightGram")}
            error={errors.weightGram}
            inputMode="numeric"
          />
          <InputField
            name="minimumPurchase"
            label="Minimal Pembelian"
            defaultValue={value("minimumPurchase")}
            error={errors.minimumPurchase}
            inputMode="numeric"
          />
        </div>
        <TextAreaField
          name="description"
          label="Deskripsi"
          defaultValue={value("description")}
          error={errors.description}
          rows={6}
          maxLength={5000}
        />
        <fieldset className="ops-field ops-choices">
          <legend>Promo</legend>
          {choices.promos.length === 0 ? <p className="ops-muted">Belum ada promo.</p> : null}
          {choices.promos.map((p) => (
            <label key={p.id}>
              <input type="checkbox" name="promoIds" value={p.id} defaultChecked={checkedPromos.has(String(p.id))} /> {p.title}{" "}
              <span className="ops-muted">
                ({p.discountType === "%" ? `${p.discount}%` : formatRupiah(p.discount)}
                {p.incentive ? ", Insentif Pemerintah" : ""})
              </span>
            </label>
          ))}
          {errors.promoIds ? <p className="ops-error">{errors.promoIds}</p> : null}
        </fieldset>
        <fieldset className="ops-field ops-choices">
          <legend>Status</legend>
          {PRODUCT_STATUSES.map((s) => (
            <label key={s}>
              <input type="radio" name="status" value={s} defaultChecked={value("status") === s} /> {STATUS_LABELS[s]}
            </label>
          ))}
          <p className="ops-muted ops-hint">
            Draf: tidak tampil untuk pembeli. Tayang: dijual. Arsip: ditarik; pesanan yang ada tetap menampilkannya.
          </p>
          {errors.status ? <p className="ops-error">{errors.status}</p> : null}
        </fieldset>
        <div>
          <button type="submit" className="ops-btn">
            Simpan
          </button>
        </div>
      </Form>

      {product ? (
        <section className="ops-card" id="foto" aria-labelledby="photos-heading">
          <h2 id="photos-heading">Foto Produk</h2>
          {product.photos.length === 0 ? <p className="ops-muted">Belum ada foto: kartu produk tampil abu-abu.</p> : null}
          <ol className="ops-photo-list">
            {product.photos.map((photo, index) => (
              <li key={photo.id} data-testid="ops-photo">
                <img src={photo.url} alt={`Foto ${index + 1}${index === 0 ? " (utama)" : ""}`} width={120} height={120} />
                <Form method="post" className="ops-photo-actions">
                  <input type="hidden" name="intent" value="photo" />
                  <input type="hidden" name="photoId" value={photo.id} />
                  {index > 0 ? (
                    <button type="submit" name="move" value="first" className="ops-btn ops-btn-secondary">
                      Jadikan Utama
                    </button>
                  ) : (
                    <span className="ops-muted">Utama</span>
                  )}
                  <MoveButtons name="move" index={index} count={product.photos.length} />
                </Form>
              </li>
            ))}
          </ol>
          <Form method="post" action={`/ops/catalogue/products/${product.id}/photos`} encType="multipart/form-data" className="ops-form">
            <label htmlFor="photos">Tambah foto (JPG, PNG atau WebP, maksimal 5 MB per foto, {photosPerUpload} foto sekaligus)</label>
            <input id="photos" name="photos" type="file" accept="image/jpeg,image/png,image/webp" multiple />
            <div>
              <button type="submit" className="ops-btn">
                Unggah Foto
              </button>
            </div>
          </Form>
        </section>
      ) : null}

      {product ? <ProductHistory history={history} names={choices} /> : null}
    </>
  );
}
