import { useEffect, useEffectEvent, useState, useSyncExternalStore } from "react";
import { data, Form, redirect, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/address";
import type { loader as areasLoader } from "./address-areas";
import { listAreaLevel } from "./address-areas.server";
import { requireUser } from "~/.server/http/auth";
import type { AddressInput } from "~/.server/db/schema";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { getCheckoutDraft, getSavedAddress, saveDraftAddress } from "~/.server/store/checkout";
import type { Area } from "~/.server/store/checkout";
import { resolveAddress } from "~/.server/store/checkout";
import { FieldError } from "~/components/field";
import { parseForm } from "~/lib/forms";
import type { RouteHandle } from "~/lib/route-handle";
import { AREA_LEVELS, AREA_SEARCH_MIN_CHARS, type AreaLevel, addressSchema, FULL_ADDRESS_MAX, isAreaLevel } from "~/lib/schemas/checkout";

export const handle: RouteHandle = { title: "Alamat Pengiriman", back: "/checkout" };

// /address (spec §2, §4 "address pickers"): the full address, four cascading pickers and the postal
// code, in ONE post form. Without JavaScript a button beside each select re-renders the page with
// the next level's options (nothing is saved until 'Simpan'); the search boxes travel with the form.
// With JavaScript a change loads the next level in place through /address/areas.
//
// This form does not use conform: its selects are controlled (a parent change clears its children)
// and most posts are re-renders, not submissions; the messages come from the same zod/mini schema.

const NO_DRAFT = "Data checkout tidak ditemukan. Silakan pilih produk kembali.";

type AddressValues = AddressInput;
type Searches = Record<AreaLevel, string>;
type AddressErrors = Partial<Record<keyof AddressInput, string>>;

const LEVEL_TEXT: Record<AreaLevel, { label: string; search: string; placeholder: string; next?: string }> = {
  provinsiId: { label: "Provinsi", search: "cariProvinsi", placeholder: "Pilih Provinsi", next: "Tampilkan Kota/Kabupaten" },
  kotaId: { label: "Kota/Kabupaten", search: "cariKota", placeholder: "Pilih Kota/Kabupaten", next: "Tampilkan Kecamatan" },
  kecamatanId: { label: "Kecamatan", search: "cariKecamatan", placeholder: "Pilih Kecamatan", next: "Tampilkan Kelurahan" },
  kelurahanId: { label: "Kelurahan/Desa", search: "cariKelurahan", placeholder: "Pilih Kelurahan/Desa" },
};

const EMPTY: AddressValues = { fullAddress: "", provinsiId: "", kotaId: "", kecamatanId: "", kelurahanId: "", kodePos: "" };
const parentOf = (level: AreaLevel): AreaLevel | null => AREA_LEVELS[AREA_LEVELS.indexOf(level) - 1] ?? null;
const below = (level: AreaLevel) => AREA_LEVELS.slice(AREA_LEVELS.indexOf(level) + 1);

/** The field values from a form or a saved address; long text clipped (validation still refuses it). */
function valuesFrom(source: { get(name: string): unknown }): AddressValues {
  const text = (name: keyof AddressInput, max: number) => {
    const value = source.get(name);
    return typeof value === "string" ? value.slice(0, max) : "";
  };
  return {
    fullAddress: text("fullAddress", FULL_ADDRESS_MAX * 2),
    provinsiId: text("provinsiId", 20),
    kotaId: text("kotaId", 20),
    kecamatanId: text("kecamatanId", 20),
    kelurahanId: text("kelurahanId", 20),
    kodePos: text("kodePos", 10),
  };
}

function searchesFrom(source: { get(name: string): unknown }): Searches {
  const searches = {} as Searches;
  for (const level of AREA_LEVELS) {
    const value = source.get(LEVEL_TEXT[level].search);
    searches[level] = typeof value === "string" ? value.slice(0, 50) : "";
  }
  return searches;
}

/**
 * Every level's options for these values and searches. A chosen area stays in its list even when a
 * search would hide it; a choice that is not in its parent's list (a parent changed without its
 * button, or a forged code) is dropped together with everything below it.
 */
async function pickerState(values: AddressValues, searches: Searches, errors: AddressErrors = {}) {
  const kept = { ...values };
  const lists = {} as Record<AreaLevel, Area[]>;
  for (const level of AREA_LEVELS) {
    const parentLevel = parentOf(level);
    const parent = parentLevel ? kept[parentLevel] : "";
    if (parentLevel && !parent) {
      lists[level] = [];
      kept[level] = "";
      continue;
    }
    let list = await listAreaLevel(level, parent, searches[level]);
    const chosen = kept[level];
    if (chosen && !list.some((area) => area.id === chosen)) {
      const everything = searches[level].trim() ? await listAreaLevel(level, parent, "") : list;
      const area = everything.find((a) => a.id === chosen);
      if (area) list = [area, ...list];
      else kept[level] = "";
    }
    lists[level] = list;
  }
  return { values: kept, searches, lists, errors };
}

async function requireDraft(context: Route.LoaderArgs["context"], userId: number) {
  const draft = await getCheckoutDraft(userId);
  if (!draft) {
    flash(context, "toast", { type: "danger", message: NO_DRAFT });
    throw redirect("/home");
  }
  return draft;
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const draft = await requireDraft(context, user.id);
  // Prefilled with the draft's address, else the address this user saved last.
  const start = draft.address ?? (await getSavedAddress(user.id)) ?? EMPTY;
  const values = valuesFrom({ get: (name: string) => (start as Record<string, unknown>)[name] });
  return pickerState(values, searchesFrom(url.searchParams));
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context);
  await requireDraft(context, user.id);
  const form = await readForm(request);
  const values = valuesFrom(form);
  const searches = searchesFrom(form);
  const intent = form.get("intent");

  // A level's button: show the next level for the chosen area; its children start empty.
  if (isAreaLevel(intent)) {
    for (const level of below(intent)) values[level] = "";
    return pickerState(values, searches);
  }
  if (intent !== "simpan") return pickerState(values, searches);

  const submission = parseForm(form, addressSchema);
  if (submission.status !== "success") {
    const errors: AddressErrors = {};
    for (const [name, messages] of Object.entries(submission.error ?? {}))
      if (messages?.[0]) errors[name as keyof AddressInput] = messages[0];
    return data(await pickerState(values, searches, errors), { status: 400 });
  }
  // The chain (city in the province …) is checked against the area tables: a forged combination
  // is a message at its field, never a 500.
  const resolved = await resolveAddress(submission.value);
  if (!resolved.ok) return data(await pickerState(values, searches, { [resolved.field]: resolved.message }), { status: 400 });
  await saveDraftAddress(user.id, submission.value);
  throw redirect("/checkout");
}

/** False on the server and in the first render in the browser, true once React runs the page. */
function useHydrated() {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}

export default function AddressScreen({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  // The chosen areas, as the selects show them; a new answer from the server replaces them.
  const [values, setValues] = useState(state.values);
  const [shownState, setShownState] = useState(state);
  if (shownState !== state) {
    setShownState(state);
    setValues(state.values);
  }
  const choose = (level: AreaLevel, id: string) => {
    setValues((current) => {
      const next = { ...current, [level]: id };
      // Spec §4: changing a parent clears its children.
      for (const child of below(level)) next[child] = "";
      return next;
    });
  };
  const { errors } = state;
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "simpan";

  return (
    <Form method="post" className="card address-form" replace preventScrollReset>
      {/* Enter in a text box presses the form's first button: without JavaScript it only refreshes
          the lists (it never clears or saves); with JavaScript the searches run as typed, so it saves. */}
      <button type="submit" name="intent" value={hydrated ? "simpan" : "cari"} className="sr-only" tabIndex={-1} aria-hidden="true">
        {hydrated ? "Simpan" : "Cari"}
      </button>

      <div className="field">
        <label htmlFor="fullAddress">Alamat Lengkap</label>
        <textarea
          id="fullAddress"
          name="fullAddress"
          rows={3}
          defaultValue={state.values.fullAddress}
          key={`fullAddress-${state === loaderData ? "l" : "a"}`}
          placeholder="Nama jalan, nomor rumah, RT/RW, patokan"
          aria-invalid={errors.fullAddress ? true : undefined}
          aria-describedby={errors.fullAddress ? "fullAddress-error" : undefined}
          className={errors.fullAddress ? "is-invalid" : undefined}
          autoComplete="street-address"
        />
        <FieldError id="fullAddress-error" errors={errors.fullAddress ? [errors.fullAddress] : undefined} />
      </div>

      {AREA_LEVELS.map((level) => {
        const parentLevel = parentOf(level);
        return (
          <AreaPicker
            key={level}
            level={level}
            parent={parentLevel ? values[parentLevel] : ""}
            value={values[level]}
            onChoose={(id) => choose(level, id)}
            serverParent={parentLevel ? state.values[parentLevel] : ""}
            serverList={state.lists[level]}
            serverSearch={state.searches[level]}
            error={errors[level]}
            hydrated={hydrated}
          />
        );
      })}

      <div className="field">
        <label htmlFor="kodePos">Kode Pos</label>
        <input
          id="kodePos"
          name="kodePos"
          type="text"
          inputMode="numeric"
          maxLength={5}
          autoComplete="postal-code"
          defaultValue={state.values.kodePos}
          key={`kodePos-${state === loaderData ? "l" : "a"}`}
          aria-invalid={errors.kodePos ? true : undefined}
          aria-describedby={errors.kodePos ? "kodePos-error" : "kodePos-hint"}
          className={errors.kodePos ? "is-invalid" : undefined}
          onInput={(event) => {
            const input = event.currentTarget;
            const digits = input.value.replace(/\D/g, "");
            if (digits !== input.value) input.value = digits;
          }}
        />
        <p className="field-hint" id="kodePos-hint">
          5 digit.
        </p>
        <FieldError id="kodePos-error" errors={errors.kodePos ? [errors.kodePos] : undefined} />
      </div>

      <button type="submit" name="intent" value="simpan" className="btn btn-primary btn-block" disabled={saving}>
        Simpan
      </button>
    </Form>
  );
}

type AreaPickerProps = {
  level: AreaLevel;
  /** The chosen parent area ("" for the provinces, which have none). */
  parent: string;
  value: string;
  onChoose: (id: string) => void;
  /** What the server rendered: its list belongs to serverParent and serverSearch. */
  serverParent: string;
  serverList: Area[];
  serverSearch: string;
  error?: string;
  hydrated: boolean;
};

/** One level: its search box, its native select and (without JavaScript) the buttons that re-render. */
function AreaPicker({ level, parent, value, onChoose, serverParent, serverList, serverSearch, error, hydrated }: AreaPickerProps) {
  const text = LEVEL_TEXT[level];
  const fetcher = useFetcher<typeof areasLoader>({ key: `areas-${level}` });
  const [search, setSearch] = useState(serverSearch);
  const needsParent = level !== "provinsiId";
  const query = search.trim().length >= AREA_SEARCH_MIN_CHARS ? search.trim() : "";

  // Whether this level already shows the list for `parent` and `query`: the fetcher's last answer,
  // or the server's own list before any. Read when the effect runs, not a reason to run it.
  const hasListFor = useEffectEvent((parent: string, query: string) => {
    const serverQuery = serverSearch.trim().length >= AREA_SEARCH_MIN_CHARS ? serverSearch.trim() : "";
    return fetcher.data
      ? fetcher.data.parent === parent && fetcher.data.search === query
      : parent === serverParent && query === serverQuery;
  });
  const loadAreas = useEffectEvent((href: string) => fetcher.load(href));

  // With JavaScript: a new parent or a search (from 3 characters, or emptied) loads this level.
  useEffect(() => {
    if ((needsParent && !parent) || hasListFor(parent, query)) return;
    const params = new URLSearchParams({ level, parent, cari: query });
    const timer = setTimeout(() => loadAreas(`/address/areas?${params}`), query ? 300 : 0);
    return () => clearTimeout(timer);
  }, [level, needsParent, parent, query, serverParent, serverSearch]);

  let options: Area[];
  if (needsParent && !parent) options = [];
  else if (fetcher.data && fetcher.data.parent === parent) options = fetcher.data.areas;
  else if (parent === serverParent) options = serverList;
  else options = [];
  // The chosen area stays visible even when the search would hide it.
  if (value && !options.some((area) => area.id === value)) {
    const chosen = serverList.find((area) => area.id === value) ?? fetcher.data?.areas.find((area) => area.id === value);
    if (chosen) options = [chosen, ...options];
  }
  const loading = fetcher.state === "loading";
  const disabled = needsParent && !parent;
  const searchId = `${level}-search`;
  const nextLevel = AREA_LEVELS[AREA_LEVELS.indexOf(level) + 1] ?? level;
  const errorId = `${level}-error`;

  return (
    <fieldset className="area-picker" id={`${level}-picker`} aria-busy={loading || undefined}>
      <legend>{text.label}</legend>
      <div className="area-search">
        <label htmlFor={searchId} className="sr-only">
          Cari {text.label}
        </label>
        <input
          id={searchId}
          name={text.search}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          onKeyDown={(event) => {
            // With JavaScript the list follows the typing; Enter must not submit the form.
            if (hydrated && event.key === "Enter") event.preventDefault();
          }}
          placeholder={`Cari ${text.label.toLowerCase()}`}
          aria-describedby={`${level}-search-hint`}
          disabled={disabled}
          autoComplete="off"
        />
        {hydrated ? null : (
          // The page comes back scrolled to this level (the fragment of the form's target).
          <button
            type="submit"
            name="intent"
            value="cari"
            formAction={`/address#${level}-picker`}
            className="btn btn-outline btn-small"
            disabled={disabled}
          >
            Cari
          </button>
        )}
      </div>
      <p className="field-hint" id={`${level}-search-hint`}>
        Ketik minimal {AREA_SEARCH_MIN_CHARS} karakter untuk mencari.
      </p>
      <div className="area-select">
        <label htmlFor={level} className="sr-only">
          {text.label}
        </label>
        <select
          id={level}
          name={level}
          value={value}
          onChange={(event) => onChoose(event.currentTarget.value)}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={error ? "is-invalid" : undefined}
        >
          <option value="">{disabled ? `Pilih ${LEVEL_TEXT[parentOf(level)!].label} dahulu` : text.placeholder}</option>
          {options.map((area) => (
            <option key={area.id} value={area.id}>
              {area.name}
            </option>
          ))}
        </select>
        {hydrated || !text.next ? null : (
          <button
            type="submit"
            name="intent"
            value={level}
            formAction={`/address#${nextLevel}-picker`}
            className="btn btn-outline btn-small"
            disabled={disabled}
          >
            {text.next}
          </button>
        )}
      </div>
      {loading ? <p className="field-hint">Memuat…</p> : null}
      <FieldError id={errorId} errors={error ? [error] : undefined} />
    </fieldset>
  );
}
