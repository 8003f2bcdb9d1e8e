import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/banners";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { formatWhen } from "~/.server/store/back-office";
import { addBanner, changeBanner, listBannersForOps, productFormChoices, type BannerField } from "~/.server/store/catalogue";
import type { RouteHandle } from "~/lib/route-handle";
import { InputField, SelectField } from "../components";
import { CatalogueNav, ErrorSummary, formValues, MoveButtons, type FormReply } from "./components";
import { parseId } from "~/lib/ids";

// /ops/catalogue/banners (issue 26 item 5): the home carousel's banners in their order ('Naik',
// 'Turun', 'Hapus'), and 'Tambah Banner': a picture (cropped to the slot's 640 × 300), where it
// leads (a product by SKU, or a search keyword with an optional category) and an optional window.

export const handle: RouteHandle = { title: "Banner — Katalog" };
const FIELDS = ["title", "sku", "keyword", "category", "activeFrom", "activeUntil"] as const;

export async function loader() {
  const [banners, choices] = await Promise.all([listBannersForOps(), productFormChoices()]);
  const now = Date.now();
  return {
    banners: banners.map((b) => ({
      ...b,
      target: b.target
        ? "sku" in b.target
          ? `Produk ${b.target.sku}`
          : `Cari "${b.target.keyword}"${b.target.category ? ` di ${b.target.category}` : ""}`
        : "Tanpa tautan",
      window:
        b.activeFrom || b.activeUntil
          ? `${b.activeFrom ? formatWhen(b.activeFrom) : "…"} – ${b.activeUntil ? formatWhen(b.activeUntil) : "…"}`
          : "Selalu",
      active: (!b.activeFrom || b.activeFrom.getTime() <= now) && (!b.activeUntil || b.activeUntil.getTime() > now),
    })),
    categories: choices.categories.map((c) => c.title),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "up" || intent === "down" || intent === "delete") {
    const id = parseId(form.get("bannerId"));
    const changed = id !== null && (await changeBanner(operator.id, id, intent));
    flash(
      context,
      "toast",
      changed
        ? { type: "success", message: intent === "delete" ? "Banner dihapus." : "Urutan banner disimpan." }
        : { type: "danger", message: "Banner tidak ditemukan." },
    );
    throw redirect("/ops/catalogue/banners");
  }
  const values = formValues(form, FIELDS) as Partial<Record<BannerField, string>>;
  const image = form.get("image");
  const result = await addBanner(operator.id, values, typeof image === "string" ? null : image);
  if (!result.ok) return data<FormReply<BannerField>>({ values, errors: result.errors }, { status: 400 });
  flash(context, "toast", { type: "success", message: "Banner ditambahkan." });
  throw redirect("/ops/catalogue/banners");
}

export default function Banners({ loaderData, actionData }: Route.ComponentProps) {
  const { banners, categories } = loaderData;
  const reply = actionData as FormReply<BannerField> | undefined;
  const errors = reply?.errors ?? {};
  const values = reply?.values ?? {};
  return (
    <>
      <CatalogueNav />
      <h1>Banner</h1>
      {banners.length === 0 ? <p className="ops-card">Belum ada banner: beranda tampil tanpa carousel.</p> : null}
      <ol className="ops-banner-list">
        {banners.map((b, index) => (
          <li key={b.id} className="ops-card" data-testid="ops-banner">
            <img src={b.imageUrl} alt={b.title} width={320} height={150} loading="lazy" />
            <div>
              <strong>{b.title}</strong>
              <p className="ops-muted">
                {b.target} · {b.window}
                {b.active ? "" : " · tidak aktif sekarang"}
              </p>
              <Form method="post" className="ops-photo-actions">
                <input type="hidden" name="bannerId" value={b.id} />
                <MoveButtons name="intent" index={index} count={banners.length} />
              </Form>
            </div>
          </li>
        ))}
      </ol>
      <section className="ops-card ops-narrow" aria-labelledby="banner-form-heading">
        <h2 id="banner-form-heading">Tambah Banner</h2>
        <ErrorSummary errors={errors} />
        {/* Keyed by the banners too: after 'Banner ditambahkan.' the form starts empty (issue 38), as without JavaScript. */}
        <Form method="post" encType="multipart/form-data" className="ops-form" key={`${banners.length}:${JSON.stringify(values)}`}>
          <input type="hidden" name="intent" value="add" />
          <InputField
            name="title"
            label="Judul"
            defaultValue={values.title}
            error={errors.title}
            maxLength={120}
            hint="Juga teks alternatif gambar."
          />
          <InputField
            name="image"
            label="Gambar"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            error={errors.image}
            hint="JPG, PNG atau WebP, maksimal 5 MB; dipotong ke 640 × 300."
          />
          <InputField
            name="sku"
            label="Produk (SKU)"
            defaultValue={values.sku}
            error={errors.sku}
            hint="Tujuan banner: satu produk, atau isi Kata Kunci."
          />
          <InputField name="keyword" label="Kata Kunci" defaultValue={values.keyword} error={errors.keyword} />
          <SelectField
            name="category"
            label="Kategori"
            placeholder="Semua kategori"
            defaultValue={values.category}
            error={errors.category}
            options={categories.map((c) => ({ value: c, label: c }))}
          />
          <InputField
            name="activeFrom"
            label="Aktif Dari (WIB)"
            type="datetime-local"
            defaultValue={values.activeFrom}
            error={errors.activeFrom}
          />
          <InputField
            name="activeUntil"
            label="Aktif Sampai (WIB)"
            type="datetime-local"
            defaultValue={values.activeUntil}
            error={errors.activeUntil}
          />
          <div>
            <button type="submit" className="ops-btn">
              Tambah Banner
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}
