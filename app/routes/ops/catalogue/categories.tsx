import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/categories";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { changeTaxonomy, listTaxonomy, type TaxonomyChange, type TaxonomyItem, type TaxonomyKind } from "~/.server/store/catalogue";
import type { RouteHandle } from "~/lib/route-handle";
import { CatalogueNav } from "./components";
import { parseId } from "~/lib/ids";

// /ops/catalogue/categories (issue 26 item 6): categories and cities: add, rename, reorder; one
// still used by a product cannot be deleted (the message says so), a category can be hidden from
// the buyers' filters instead. Every button is a small form (intent + kind + id).

export const handle: RouteHandle = { title: "Kategori & Kota — Katalog" };

export async function loader() {
  const [categories, cities] = await Promise.all([listTaxonomy("kategori"), listTaxonomy("kota")]);
  return { categories, cities };
}

type Reply = { kind: TaxonomyKind; id: number | null; message: string; name: string };

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const kind = form.get("kind") === "kota" ? "kota" : form.get("kind") === "kategori" ? "kategori" : null;
  const intent = String(form.get("intent") ?? "");
  const idText = String(form.get("id") ?? "");
  const id = parseId(idText);
  const name = String(form.get("name") ?? "").slice(0, 200);
  let change: TaxonomyChange | null = null;
  if (intent === "add") change = { intent, name };
  else if (intent === "rename" && id) change = { intent, id, name };
  else if (["up", "down", "hide", "show", "delete"].includes(intent) && id) change = { intent: intent as "up", id };
  if (!kind || !change) return data<Reply>({ kind: kind ?? "kategori", id, message: "Permintaan tidak valid.", name }, { status: 400 });
  const result = await changeTaxonomy(operator.id, kind, change);
  if (!result.ok)
    return data<Reply>(
      { kind, id: intent === "add" ? null : id, message: result.message, name },
      { status: intent === "delete" ? 409 : 400 },
    );
  flash(context, "toast", { type: "success", message: "Perubahan disimpan." });
  throw redirect("/ops/catalogue/categories");
}

function List({ kind, items, reply }: { kind: TaxonomyKind; items: TaxonomyItem[]; reply: Reply | undefined }) {
  const label = kind === "kategori" ? "Kategori" : "Kota";
  const mine = reply?.kind === kind ? reply : undefined;
  const addError = mine && mine.id === null ? mine.message : undefined;
  return (
    <section className="ops-card" aria-labelledby={`${kind}-heading`}>
      <h2 id={`${kind}-heading`}>{label}</h2>
      {mine && mine.id !== null ? (
        <p className="ops-alert" role="alert">
          {mine.message}
        </p>
      ) : null}
      <ol className="ops-taxonomy">
        {items.map((item, index) => (
          <li key={item.id} data-testid={`ops-${kind}`}>
            <Form method="post" className="ops-inline-form">
              <input type="hidden" name="kind" value={kind} />
              <input type="hidden" name="id" value={item.id} />
              <label className="sr-only" htmlFor={`${kind}-${item.id}`}>
                Nama {label} {item.name}
              </label>
              <input
                type="text"
                id={`${kind}-${item.id}`}
                name="name"
                defaultValue={mine?.id === item.id ? mine.name : item.name}
                maxLength={80}
              />
              <button type="submit" name="intent" value="rename" className="ops-btn ops-btn-secondary">
                Ubah Nama
              </button>
              {index > 0 ? (
                <button type="submit" name="intent" value="up" className="ops-btn ops-btn-secondary" aria-label={`Naik: ${item.name}`}>
                  Naik
                </button>
              ) : null}
              {index < items.length - 1 ? (
                <button type="submit" name="intent" value="down" className="ops-btn ops-btn-secondary" aria-label={`Turun: ${item.name}`}>
                  Turun
                </button>
              ) : null}
              {kind === "kategori" ? (
                <button type="submit" name="intent" value={item.hidden ? "show" : "hide"} className="ops-btn ops-btn-secondary">
                  {item.hidden ? "Tampilkan" : "Sembunyikan"}
                </button>
              ) : null}
              <button type="submit" name="intent" value="delete" className="ops-btn ops-btn-danger" aria-label={`Hapus: ${item.name}`}>
                Hapus
              </button>
              <span className="ops-muted">
                {item.products} produk{item.hidden ? " · tersembunyi" : ""}
              </span>
            </Form>
          </li>
        ))}
      </ol>
      <Form method="post" className="ops-inline-form">
        <input type="hidden" name="kind" value={kind} />
        <label htmlFor={`${kind}-new`}>{label} baru</label>
        <input
          type="text"
          id={`${kind}-new`}
          name="name"
          maxLength={80}
          defaultValue={addError ? mine?.name : ""}
          aria-invalid={addError ? true : undefined}
          aria-describedby={addError ? `${kind}-new-error` : undefined}
        />
        <button type="submit" name="intent" value="add" className="ops-btn">
          Tambah {label}
        </button>
        {addError ? (
          <p className="ops-error" id={`${kind}-new-error`}>
            {addError}
          </p>
        ) : null}
      </Form>
    </section>
  );
}

export default function Categories({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData as Reply | undefined;
  return (
    <>
      <CatalogueNav />
      <h1>Kategori &amp; Kota</h1>
      <div className="ops-grid">
        <List kind="kategori" items={loaderData.categories} reply={reply} />
        <List kind="kota" items={loaderData.cities} reply={reply} />
      </div>
    </>
  );
}
