import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/promos";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { formatWhen } from "~/.server/store/back-office";
import { listPromosForOps, savePromo, toWibInput, type PromoField } from "~/.server/store/catalogue";
import { formatRupiah } from "~/lib/money";
import type { RouteHandle } from "~/lib/route-handle";
import { InputField, SelectField, TextAreaField } from "../components";
import { CatalogueNav, ErrorSummary, formValues, type FormReply } from "./components";
import { parseId } from "~/lib/ids";

// /ops/catalogue/promos (issue 26 item 4): the promos with their kind ('Insentif Pemerintah': the
// checkout asks for the KTP; a fixed Rp1.000.000 is the employee promo, spec §6), an optional
// validity window in WIB and the products they are attached to (by SKU). ?promo={id} edits one.

export const handle: RouteHandle = { title: "Promo — Katalog" };
const FIELDS = ["title", "discountType", "discount", "description", "validFrom", "validUntil", "skus"] as const;

export async function loader({ url }: Route.LoaderArgs) {
  const promos = await listPromosForOps();
  const editing = promos.find((p) => String(p.id) === url.searchParams.get("promo")) ?? null;
  return {
    promos: promos.map((p) => ({
      ...p,
      validFromText: p.validFrom ? formatWhen(p.validFrom) : null,
      validUntilText: p.validUntil ? formatWhen(p.validUntil) : null,
    })),
    editing: editing && {
      id: editing.id,
      values: {
        title: editing.title,
        discountType: editing.discountType,
        discount: String(editing.discount),
        description: editing.description,
        validFrom: toWibInput(editing.validFrom),
        validUntil: toWibInput(editing.validUntil),
        skus: editing.skus.join("\n"),
        incentive: editing.incentive ? "1" : "",
      },
    },
  };
}

type Reply = FormReply<PromoField | "incentive"> & { id: number | null };

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const idText = String(form.get("id") ?? "");
  const id = parseId(idText);
  const values = formValues(form, FIELDS) as Partial<Record<PromoField, string>>;
  const incentive = form.get("incentive") === "1";
  const result = await savePromo(operator.id, id, { ...values, incentive });
  if (!result.ok)
    return data<Reply>({ id, values: { ...values, incentive: incentive ? "1" : "" }, errors: result.errors }, { status: 400 });
  flash(context, "toast", { type: "success", message: "Promo disimpan." });
  throw redirect("/ops/catalogue/promos");
}

export default function Promos({ loaderData, actionData }: Route.ComponentProps) {
  const { promos, editing } = loaderData;
  const reply = actionData as Reply | undefined;
  const errors = reply?.errors ?? {};
  const id = reply ? reply.id : (editing?.id ?? null);
  const values: Partial<Record<PromoField | "incentive", string>> = reply?.values ?? editing?.values ?? { discountType: "v" };
  return (
    <>
      <CatalogueNav />
      <h1>Promo</h1>
      <div className="ops-table-wrap">
        <table className="ops-table">
          <thead>
            <tr>
              <th>Judul</th>
              <th className="num">Diskon</th>
              <th>Jenis</th>
              <th>Berlaku</th>
              <th>Produk</th>
            </tr>
          </thead>
          <tbody>
            {promos.map((p) => (
              <tr key={p.id} data-testid="ops-promo-row">
                <td>
                  <a href={`/ops/catalogue/promos?promo=${p.id}#promo-form`}>{p.title}</a>
                </td>
                <td className="num">{p.discountType === "%" ? `${p.discount}%` : formatRupiah(p.discount)}</td>
                <td>
                  {p.incentive ? "Insentif Pemerintah" : p.discountType === "v" && p.discount === 1_000_000 ? "Promo Pegawai" : "Promo"}
                </td>
                <td>{p.validFromText || p.validUntilText ? `${p.validFromText ?? "…"} – ${p.validUntilText ?? "…"}` : "Selalu"}</td>
                <td>{p.skus.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <section className="ops-card ops-narrow" id="promo-form" aria-labelledby="promo-form-heading">
        <h2 id="promo-form-heading">{id ? "Ubah Promo" : "Tambah Promo"}</h2>
        <ErrorSummary errors={errors} />
        <Form method="post" className="ops-form" key={`${id}-${JSON.stringify(values)}`}>
          {id ? <input type="hidden" name="id" value={id} /> : null}
          <InputField name="title" label="Judul" defaultValue={values.title} error={errors.title} maxLength={120} />
          <SelectField
            name="discountType"
            label="Tipe Diskon"
            defaultValue={values.discountType}
            error={errors.discountType}
            options={[
              { value: "v", label: "Rp" },
              { value: "%", label: "%" },
            ]}
          />
          <InputField
            name="discount"
            label="Diskon"
            defaultValue={values.discount}
            error={errors.discount}
            inputMode="numeric"
            hint="Promo Pegawai: Rp 1.000.000 (tetap). Insentif ICP: Rp 250.000."
          />
          <TextAreaField name="description" label="Deskripsi" defaultValue={values.description} error={errors.description} rows={3} />
          <label className="ops-check">
            <input type="checkbox" name="incentive" value="1" defaultChecked={values.incentive === "1"} /> Insentif Pemerintah (pembeli
            wajib mengunggah KTP)
          </label>
          <InputField
            name="validFrom"
            label="Berlaku Dari (WIB)"
            type="datetime-local"
            defaultValue={values.validFrom}
            error={errors.validFrom}
          />
          <InputField
            name="validUntil"
            label="Berlaku Sampai (WIB)"
            type="datetime-local"
            defaultValue={values.validUntil}
            error={errors.validUntil}
          />
          <TextAreaField
            name="skus"
            label="Produk (SKU)"
            defaultValue={values.skus}
            error={errors.skus}
            rows={3}
            hint="Satu SKU per baris. Produk juga dapat dipilih dari halaman produk."
          />
          <div>
            <button type="submit" className="ops-btn">
              Simpan
            </button>{" "}
            {id ? <a href="/ops/catalogue/promos">Batal</a> : null}
          </div>
        </Form>
      </section>
    </>
  );
}
