import { useEffect, useRef } from "react";
import { Link, useNavigate, useNavigation } from "react-router";
import { parseSearchForm, resultsHref, SORT_LABELS, withoutFilters, type SearchFilters, type SortOrder } from "~/lib/search-params";
import { CloseIcon } from "./icons";
import { SubmitButton } from "./submit-button";

type Props = {
  filters: SearchFilters;
  categories: { id: number; title: string }[];
  /** The results without the sheet (the close link). */
  closeHref: string;
  /** With JavaScript the sheet closes without a page load. */
  onClose?: () => void;
};

/**
 * Spec §2 results filter sheet: Urutkan (sort), Kategori, Harga. One GET form whose state is the
 * address; applying it starts again at page 0. The server renders it open for `?sheet=filter`, so
 * without JavaScript it is a real bottom sheet with 'Terapkan' and 'Atur Ulang'; with JavaScript
 * it opens without a page load, closes with Escape, and applying it writes the tidy address
 * (`categories=1,4`, no empty fields) instead of the form's raw one.
 */
export function FilterSheet({ filters, categories, closeHref, onClose }: Props) {
  const navigate = useNavigate();
  // Applying navigates from the submit handler (a tidy address), so the pending state is this navigation.
  const navigation = useNavigation();
  const applying =
    navigation.state === "loading" && navigation.location.pathname === "/res-search" && !navigation.location.search.includes("sheet=");
  const sheet = useRef<HTMLElement>(null);

  useEffect(() => {
    // Focus moves into the sheet and, once it closes, back to what opened it (the Filter button).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    sheet.current?.focus();
    document.body.classList.add("has-sheet");
    return () => {
      document.body.classList.remove("has-sheet");
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && onClose?.();
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  const close = (event: React.MouseEvent) => {
    if (!onClose) return;
    event.preventDefault();
    onClose();
  };

  return (
    <div className="sheet-layer">
      <Link to={closeHref} className="sheet-backdrop" aria-hidden="true" tabIndex={-1} onClick={close} preventScrollReset />
      <section
        ref={sheet}
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="filter-title"
        tabIndex={-1}
        data-testid="filter-sheet"
      >
        <header className="sheet-header">
          <h2 id="filter-title">Filter</h2>
          <Link to={closeHref} className="icon-button" aria-label="Tutup" onClick={close} preventScrollReset>
            <CloseIcon />
          </Link>
        </header>
        <form
          // A new search re-creates the form, so its choices are the applied ones.
          key={resultsHref(filters)}
          method="get"
          action="/res-search"
          className="sheet-body"
          onSubmit={(event) => {
            event.preventDefault();
            const { sheetOpen: _, ...chosen } = parseSearchForm(new FormData(event.currentTarget));
            navigate(resultsHref(chosen));
          }}
        >
          <input type="hidden" name="keyword" value={filters.keyword} />
          {filters.location !== undefined ? <input type="hidden" name="location" value={filters.location} /> : null}

          <fieldset className="filter-group">
            <legend>Urutkan</legend>
            <div className="choice-list">
              {([0, 1] as SortOrder[]).map((sort) => (
                <label key={sort} className="choice">
                  <input type="radio" name="sort" value={sort} defaultChecked={filters.sort === sort} />
                  <span>{SORT_LABELS[sort]}</span>
                </label>
              ))}
            </div>
          </fieldset>

          {categories.length ? (
            <fieldset className="filter-group">
              <legend>Kategori</legend>
              <div className="choice-list">
                {categories.map((category) => (
                  <label key={category.id} className="choice">
                    <input
                      type="checkbox"
                      name="categories"
                      value={category.id}
                      defaultChecked={filters.categories.includes(category.id)}
                    />
                    <span>{category.title}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}

          <fieldset className="filter-group">
            <legend>Harga</legend>
            <div className="price-range">
              <PriceInput label="Harga Minimum" name="pmin" placeholder="0" value={filters.pmin} />
              <span className="price-range-dash" aria-hidden="true">
                –
              </span>
              <PriceInput label="Harga Maksimum" name="pmax" placeholder="Tanpa batas" value={filters.pmax} />
            </div>
          </fieldset>

          <footer className="sheet-actions">
            {/* Clears the filters at once and keeps the sheet open, with or without JavaScript. */}
            <Link to={resultsHref(withoutFilters(filters), { sheetOpen: true })} className="btn btn-outline" preventScrollReset>
              Atur Ulang
            </Link>
            <SubmitButton className="btn btn-primary" pending={applying}>
              Terapkan
            </SubmitButton>
          </footer>
        </form>
      </section>
    </div>
  );
}

/** One end of the Harga range: a whole-rupiah number with the 'Rp' prefix. */
function PriceInput({
  label,
  name,
  placeholder,
  value,
}: {
  label: string;
  name: "pmin" | "pmax";
  placeholder: string;
  value: number | undefined;
}) {
  return (
    <label className="price-input">
      <span>{label}</span>
      <span className="price-input-box">
        <span aria-hidden="true">Rp</span>
        <input
          type="number"
          name={name}
          min={0}
          max={2147483647}
          step={1}
          inputMode="numeric"
          placeholder={placeholder}
          defaultValue={value ?? ""}
        />
      </span>
    </label>
  );
}
