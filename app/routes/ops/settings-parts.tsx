import type { ReactNode } from "react";
import { Form } from "react-router";
import { InputField, OpsMessage } from "./components";

// The parts of /ops/settings (settings.tsx): each setting's card with its own form, and the larger
// cards (methods, tenors, how-to texts, companies) drawn from the loader's data and, after a refused
// save, from what the operator typed.

/** A refused save: its form (`intent`), the errors by field and what was typed. */
export type SettingsActionData = { intent: string; errors: Record<string, string>; values: Record<string, string> };

/** Reading a form of the page: what the operator typed when its save was refused, else the saved value. */
export function settingsForm(actionData: SettingsActionData | undefined) {
  const failed = (intent: string) => (actionData?.intent === intent ? actionData : null);
  const err = (intent: string, name: string) => failed(intent)?.errors[name];
  const val = (intent: string, name: string, fallback: string) => failed(intent)?.values[name] ?? fallback;
  /** A field of form `intent`: what the operator typed when it was refused, else the saved value; its error. */
  const field = (intent: string, name: string, saved: string) => ({
    name,
    defaultValue: val(intent, name, saved),
    error: err(intent, name),
  });
  /** A checkbox of form `intent`: ticked as the operator left it when the form was refused, else as saved. */
  const ticked = (intent: string, name: string, saved: boolean) => (failed(intent) ? failed(intent)!.values[name] === "on" : saved);
  return { failed, err, val, field, ticked };
}
export type SettingsForm = ReturnType<typeof settingsForm>;

type Method = { id: number; name: string; active: boolean; fee: number };

export function PaymentMethodsSection({
  methods,
  form: { ticked, val, err },
  saved,
}: {
  methods: Method[];
  form: SettingsForm;
  saved: string | null;
}) {
  return (
    <SettingsSection id="methods" saved={saved} title="Metode Pembayaran" intent="methods" submit="Simpan Metode" wide>
      <OpsMessage error={err("methods", "form")} />
      <div className="ops-table-wrap">
        <table className="ops-table">
          <thead>
            <tr>
              <th scope="col">Metode</th>
              <th scope="col">Aktif</th>
              <th scope="col">Biaya layanan (Rp)</th>
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => (
              <tr key={m.id}>
                <td>{m.name}</td>
                <td>
                  <label className="ops-check">
                    <input type="checkbox" name={`active-${m.id}`} defaultChecked={ticked("methods", `active-${m.id}`, m.active)} />{" "}
                    <span className="ops-sr-only">{m.name} </span>aktif
                  </label>
                </td>
                <td>
                  <InputField
                    name={`fee-${m.id}`}
                    label={`Biaya ${m.name}`}
                    inputMode="numeric"
                    defaultValue={val("methods", `fee-${m.id}`, String(m.fee))}
                    error={err("methods", `fee-${m.id}`)}
                    maxLength={9}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </SettingsSection>
  );
}

export function TenorsSection({
  tenors,
  form: { failed, err },
  saved,
}: {
  tenors: { tenor: string; interest: string }[];
  form: SettingsForm;
  saved: string | null;
}) {
  const rows = tenorRows(tenors, failed("tenors")?.values);
  return (
    <SettingsSection id="tenors" saved={saved} title="Tenor dan Bunga Cicilan" intent="tenors" submit="Simpan Tenor">
      <OpsMessage error={err("tenors", "tenors")} />
      <div className="ops-table-wrap">
        <table className="ops-table">
          <thead>
            <tr>
              <th scope="col">Baris</th>
              <th scope="col">Tenor (bulan)</th>
              <th scope="col">Bunga (%)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                <td>
                  <InputField
                    name={`tenor-${i}`}
                    label={`Tenor baris ${i + 1} (bulan)`}
                    inputMode="numeric"
                    maxLength={2}
                    defaultValue={row.tenor}
                    error={err("tenors", `tenor-${i}`)}
                  />
                </td>
                <td>
                  <InputField
                    name={`interest-${i}`}
                    label={`Bunga baris ${i + 1} (%)`}
                    inputMode="decimal"
                    maxLength={6}
                    defaultValue={row.interest}
                    error={err("tenors", `interest-${i}`)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <input type="hidden" name="tenorRows" value={rows.length} />
      <p className="ops-muted">
        Bunga boleh desimal dengan koma, misalnya 2,5. Kosongkan kedua kolom sebuah baris untuk menghapus tenornya.
      </p>
    </SettingsSection>
  );
}

export function HowToSection({
  methods: howToMethods,
  channels,
  howTo,
  form: { failed, err, val },
  saved,
}: {
  methods: { code: string; name: string }[];
  channels: readonly string[];
  howTo: Record<string, Record<string, string> | undefined>;
  form: SettingsForm;
  saved: string | null;
}) {
  return (
    <SettingsSection
      id="howto"
      saved={saved}
      title="Cara Pembayaran"
      intent="howto"
      submit="Simpan Cara Bayar"
      wide
      intro={
        <>
          <p className="ops-muted">
            HTML sederhana (daftar, tebal, tautan); dibersihkan sebelum disimpan. <code>{"{nomor}"}</code> diganti nomor VA atau rekening,{" "}
            <code>{"{nama}"}</code> nama pemilik rekening. Kosong: teks bawaan.
          </p>
        </>
      }
    >
      {howToMethods.map((m) => (
        <details key={m.code} open={!!howTo[m.code] || !!failed("howto")}>
          <summary>{m.name}</summary>
          {channels.map((channel) => {
            const key = `${m.code}|${channel}`;
            const id = `howto-${m.code}-${channel.replace(/\s+/g, "-")}`;
            return (
              <div key={key} className="ops-form">
                <label htmlFor={id}>{channel}</label>
                <textarea id={id} name={key} rows={4} defaultValue={val("howto", key, howTo[m.code]?.[channel] ?? "")} />
                {err("howto", `howto-${key}`) ? <p className="ops-error">{err("howto", `howto-${key}`)}</p> : null}
              </div>
            );
          })}
        </details>
      ))}
    </SettingsSection>
  );
}

export function CompaniesSection({
  companies,
  form: { failed, err, field },
  saved,
}: {
  companies: { id: number; name: string; hidden: boolean }[];
  form: SettingsForm;
  saved: string | null;
}) {
  return (
    <section className="ops-card" id="companies" aria-labelledby="companies-title">
      <h2 id="companies-title">Perusahaan</h2>
      <SavedNotice message={saved} />
      <p className="ops-muted">Perusahaan yang disembunyikan tidak lagi ditawarkan saat pendaftaran; akun dan daftar pegawainya tetap.</p>
      {companies.map((c) => (
        <Form key={c.id} method="post" className="ops-inline-form" style={{ marginBottom: 8 }}>
          <input type="hidden" name="intent" value="company-save" />
          <input type="hidden" name="companyId" value={c.id} />
          <div className="ops-form" style={{ flex: "1 1 280px" }}>
            <InputField
              name="name"
              id={`company-${c.id}`}
              label={`Nama perusahaan ${c.id}`}
              defaultValue={failed("company-save")?.values.companyId === String(c.id) ? failed("company-save")!.values.name : c.name}
              error={err("company-save", `company-${c.id}`)}
              maxLength={120}
            />
          </div>
          <label className="ops-check">
            <input type="checkbox" name="hidden" defaultChecked={c.hidden} /> Sembunyikan
          </label>
          <button type="submit" className="ops-btn ops-btn-secondary">
            Simpan<span className="ops-sr-only"> {c.name}</span>
          </button>
        </Form>
      ))}
      <Form method="post" className="ops-inline-form" style={{ marginTop: 16 }}>
        <input type="hidden" name="intent" value="company-add" />
        <div className="ops-form" style={{ flex: "1 1 280px" }}>
          <InputField {...field("company-add", "name", "")} id="company-new" label="Perusahaan baru" maxLength={120} />
        </div>
        <button type="submit" className="ops-btn">
          Tambah Perusahaan
        </button>
      </Form>
    </section>
  );
}

export function RetentionSettings({
  days,
  value,
  error,
  saved,
}: {
  days: number;
  value: string | undefined;
  error: string | undefined;
  saved: string | null;
}) {
  return (
    <SettingsSection
      saved={saved}
      id="retention"
      title="Retensi Data Pribadi"
      intent="retention"
      submit="Simpan Retensi"
      intro={
        <>
          <p className="ops-muted">
            Foto KTP dihapus otomatis sekian hari setelah keputusan insentif, setelah pesanan selesai atau ditutup. Catatan pesanan tetap
            disimpan.
          </p>
        </>
      }
    >
      <InputField
        name="retentionDays"
        label="Masa Simpan Foto KTP (hari)"
        inputMode="numeric"
        defaultValue={value ?? String(days)}
        error={error}
        maxLength={4}
      />
    </SettingsSection>
  );
}

/** One setting's card: its title and explanation, then a form of its own (its `intent`) with one button. */
export function SettingsSection(props: {
  id: string;
  title: string;
  intent: string;
  submit: string;
  wide?: boolean;
  intro?: ReactNode;
  /** The confirmation of this section's last save (once, after the save). */
  saved: string | null;
  children: ReactNode;
}) {
  return (
    <section className="ops-card" id={props.id} aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <SavedNotice message={props.saved} />
      {props.intro}
      <Form method="post" className="ops-form" style={props.wide ? undefined : { maxWidth: 480 }}>
        <input type="hidden" name="intent" value={props.intent} />
        {props.children}
        <div>
          <button type="submit" className="ops-btn">
            {props.submit}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** A save's confirmation under its section's title, where the page reopens after the save. */
function SavedNotice({ message }: { message: string | null }) {
  return message ? (
    <p className="ops-saved" role="status" data-testid="settings-saved">
      {message}
    </p>
  ) : null;
}

/** Blank rows below the saved tenors, for new ones (without JavaScript, saving brings more). */
const NEW_TENOR_ROWS = 3;
const MAX_TENOR_ROWS = 60;
export const tenorRowCount = (raw: string) => (/^\d{1,2}$/.test(raw) ? Math.min(Number(raw), MAX_TENOR_ROWS) : 0);

/** The tenor rows to show: as typed when the save was refused, else the saved ones and blank rows. */
function tenorRows(saved: { tenor: string; interest: string }[], typed: Record<string, string> | undefined) {
  if (typed)
    return Array.from({ length: tenorRowCount(typed.tenorRows ?? "") }, (_, i) => ({
      tenor: typed[`tenor-${i}`] ?? "",
      interest: typed[`interest-${i}`] ?? "",
    }));
  return [...saved, ...Array.from({ length: NEW_TENOR_ROWS }, () => ({ tenor: "", interest: "" }))];
}
