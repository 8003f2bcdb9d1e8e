import { useRef, useState } from "react";
import { Form, Link } from "react-router";
import { KEYWORD_MAX_LENGTH, searchEntryHref } from "~/lib/search-params";
import { BackIcon, CloseIcon, SearchIcon } from "./icons";

/**
 * Spec §2 search layout: the search field at the top of /search and /res-search.
 *
 * On /search it is editable: a GET form to /res-search (Enter submits; the keyword is in the
 * address, so results can be shared and the back button works). An empty keyword is not submitted
 * (spec §5): with JavaScript the submit is stopped here; without it /res-search sends it back.
 * The clear control is a link to /search, which empties the field without JavaScript; with
 * JavaScript it just clears the text and keeps the focus.
 */
export function SearchField({ defaultValue, back = "/home" }: { defaultValue: string; back?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [hasText, setHasText] = useState(defaultValue !== "");
  return (
    <header className="search-bar">
      <Link to={back} className="icon-button" aria-label="Kembali">
        <BackIcon />
      </Link>
      <Form
        method="get"
        action="/res-search"
        role="search"
        className="search-field"
        onSubmit={(event) => {
          if (input.current && !input.current.value.trim()) {
            event.preventDefault();
            input.current.value = "";
            setHasText(false);
            input.current.focus();
          }
        }}
      >
        <SearchIcon size={18} className="search-field-icon" />
        <input
          ref={input}
          type="search"
          name="keyword"
          aria-label="Kata kunci pencarian"
          placeholder="Cari produk di Toko Pegawai"
          defaultValue={defaultValue}
          maxLength={KEYWORD_MAX_LENGTH}
          enterKeyHint="search"
          autoComplete="off"
          autoFocus
          onInput={(event) => setHasText(event.currentTarget.value !== "")}
        />
        {hasText ? (
          <Link
            to="/search"
            className="search-clear"
            aria-label="Hapus kata kunci"
            onClick={(event) => {
              event.preventDefault();
              if (!input.current) return;
              input.current.value = "";
              setHasText(false);
              input.current.focus();
            }}
          >
            <CloseIcon size={16} />
          </Link>
        ) : null}
        <button type="submit" className="sr-only" tabIndex={-1}>
          Cari
        </button>
      </Form>
    </header>
  );
}

/**
 * The same bar on /res-search: the keyword is shown, and tapping it goes back to /search with the
 * field prefilled (spec: "returns to /search when the field is focused"). A link, so it works
 * without JavaScript and does not trap keyboard users who only pass through it.
 */
export function SearchFieldLink({ keyword, back = "/search", children }: { keyword: string; back?: string; children?: React.ReactNode }) {
  return (
    <header className="search-bar">
      <Link to={back} className="icon-button" aria-label="Kembali">
        <BackIcon />
      </Link>
      <Link
        to={searchEntryHref(keyword)}
        className="search-field search-field-link"
        aria-label={`Ubah pencarian: ${keyword}`}
        data-testid="search-keyword"
      >
        <SearchIcon size={18} className="search-field-icon" />
        <span className="search-field-text">{keyword}</span>
      </Link>
      {children}
    </header>
  );
}
