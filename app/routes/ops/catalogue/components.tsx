import { NavLink } from "react-router";

// Pieces the catalogue screens share (not a route): their own menu, and labelled fields with the
// server's message beside them (the ops forms are plain HTML forms validated on the server).

export function CatalogueNav() {
  const links: [string, string][] = [
    ["/ops/catalogue/products", "Produk"],
    ["/ops/catalogue/promos", "Promo"],
    ["/ops/catalogue/banners", "Banner"],
    ["/ops/catalogue/categories", "Kategori & Kota"],
    ["/ops/catalogue/import", "Impor & Ekspor"],
    ["/ops/catalogue/photo-zip", "Foto dari ZIP"],
  ];
  return (
    <nav className="ops-subnav" aria-label="Menu katalog">
      {links.map(([to, label]) => (
        <NavLink key={to} to={to}>
          {label}
        </NavLink>
      ))}
    </nav>
  );
}

/** 'Naik', 'Turun' and 'Hapus' of an item in an ordered list, as submit buttons of its form (`name` carries the move). */
export function MoveButtons({ name, index, count }: { name: string; index: number; count: number }) {
  return (
    <>
      {index > 0 ? (
        <button type="submit" name={name} value="up" className="ops-btn ops-btn-secondary">
          Naik
        </button>
      ) : null}
      {index < count - 1 ? (
        <button type="submit" name={name} value="down" className="ops-btn ops-btn-secondary">
          Turun
        </button>
      ) : null}
      <button type="submit" name={name} value="delete" className="ops-btn ops-btn-danger">
        Hapus
      </button>
    </>
  );
}

/** The form's answer: the values typed (kept on error) and a message per field. */
export type FormReply<F extends string = string> = {
  values: Partial<Record<F, string>>;
  errors: Partial<Record<F, string>>;
  conflict?: string;
  error?: string;
};

/** The strings of a submitted form, by name (files left out). */
export function formValues(form: FormData, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === "string") values[name] = value.slice(0, 10_000);
  }
  return values;
}

/** The error summary at the top of a form that came back with messages. */
export function ErrorSummary({ errors }: { errors: Record<string, string | undefined> }) {
  const entries = Object.entries(errors).filter(([, m]) => m);
  if (!entries.length) return null;
  return (
    <div className="ops-alert" role="alert">
      <p style={{ margin: 0 }}>Periksa kembali isian berikut:</p>
      <ul>
        {entries.map(([name, message]) => (
          <li key={name}>
            <a href={`#${name}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What an applied import (the CSV, the photo ZIP) says once done: its file, its summary, when. */
export function AppliedImport(props: {
  title: string;
  testId: string;
  staged: { fileName: string; summary: string | null; appliedAt: string };
}) {
  return (
    <section className="ops-card ops-notice" data-testid={props.testId}>
      <h2>{props.title}</h2>
      <p>
        {props.staged.fileName}: {props.staged.summary} ({props.staged.appliedAt}).
      </p>
    </section>
  );
}
