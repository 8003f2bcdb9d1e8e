import { data, Form, redirect } from "react-router";
import type { ReactNode } from "react";
import type { Route } from "./+types/settings";
import { requireStaff } from "~/.server/http/ops-access";
import { readForm } from "~/.server/http/request";
import { flash, takeFlash } from "~/.server/http/session";
import {
  getCashDiscount,
  getHowToTexts,
  getTenorSettings,
  getTransferAccount,
  HOW_TO_CHANNELS,
  listMethodSettings,
  manualTransferReady,
  saveCashDiscount,
  saveHowToTexts,
  saveMethodSettings,
  saveTenorSettings,
  saveTransferAccount,
} from "~/.server/store/payments";
import { getOrderRewardSetting, saveOrderRewardSetting } from "~/.server/store/orders";
import { addCompany, getHelpContacts, listAllCompanies, saveHelpContacts, updateCompany } from "~/.server/store/people";
import { formatRupiah } from "~/lib/money";
import { formatPercent, vaBadge } from "~/lib/payment-pricing";
import type { RouteHandle } from "~/lib/route-handle";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
import { getKtpRetentionDays, saveKtpRetentionDays } from "~/.server/store/privacy";
import { InputField, OpsMessage } from "./components";
import { parseId } from "~/lib/ids";

// /ops/settings ('Admin', issue 27): what a company changes without a developer. The transfer
// account, methods, fees, tenors and the VA cash discount apply to payments opened afterwards (an
// open payment keeps the account, discount and total it showed); the reward rule applies to orders
// made afterwards (issue 38); how-to texts are sanitised HTML; every save is audited.
// Long module: one page of small, independent setting forms (account, methods, fees, rules,
// companies, retention) that share one action dispatching on `intent`.

const TITLE = "Pengaturan Toko";
export const handle: RouteHandle = { title: TITLE };

export async function loader({ context }: Route.LoaderArgs) {
  const [account, manualReady, discount, reward, methods, tenors, howTo, companies, help, retentionDays] = await Promise.all([
    getTransferAccount(),
    manualTransferReady(),
    getCashDiscount(),
    getOrderRewardSetting(),
    listMethodSettings(),
    getTenorSettings(),
    getHowToTexts(),
    listAllCompanies(),
    getHelpContacts(),
    getKtpRetentionDays(),
  ]);
  return {
    account,
    manualReady,
    discount: { enabled: discount.enabled, percent: formatPercent(discount.percent), badge: vaBadge(discount.percent) },
    reward: { enabled: reward.enabled, percent: formatPercent(reward.percent), cap: String(reward.cap), capText: formatRupiah(reward.cap) },
    methods,
    tenors: tenors.map((t) => ({ tenor: String(t.tenor), interest: formatPercent(t.interestPercentage) })),
    howTo,
    howToMethods: methods.filter((m) => PAYMENT_KINDS[m.type].paysByDeadline),
    channels: HOW_TO_CHANNELS,
    companies,
    help,
    retentionDays,
    // The last save's confirmation, shown once inside its section: the page reopens there.
    saved: takeFlash(context, "savedSection") ?? null,
  };
}

type ActionData = { intent: string; errors: Record<string, string>; values: Record<string, string> };

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireStaff(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const text = (name: string) => String(form.get(name) ?? "");
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string").map(([k, v]) => [k, String(v)]));
  let result: { ok: true } | { ok: false; errors: Record<string, string> };
  let saved: string;
  switch (intent) {
    case "account":
      result = await saveTransferAccount(admin.id, {
        bankName: text("bankName"),
        accountName: text("accountName"),
        accountNumber: text("accountNumber"),
      });
      saved = "Rekening transfer disimpan. Berlaku untuk pembayaran baru.";
      break;
    case "methods": {
      const methods = await listMethodSettings();
      result = await saveMethodSettings(
        admin.id,
        methods.map((m) => ({ id: m.id, active: form.get(`active-${m.id}`) === "on", fee: text(`fee-${m.id}`) })),
      );
      saved = "Metode pembayaran disimpan. Berlaku untuk pembayaran baru.";
      break;
    }
    case "discount":
      result = await saveCashDiscount(admin.id, { enabled: form.get("enabled") === "on", percent: text("percent") });
      saved = "Diskon Pembelian Tunai disimpan. Berlaku untuk pembayaran baru.";
      break;
    case "reward":
      result = await saveOrderRewardSetting(admin.id, {
        enabled: form.get("enabled") === "on",
        percent: text("rewardPercent"),
        cap: text("rewardCap"),
      });
      saved = "Reward pesanan selesai disimpan. Berlaku untuk pesanan baru.";
      break;
    case "tenors":
      result = await saveTenorSettings(
        admin.id,
        Array.from({ length: tenorRowCount(text("tenorRows")) }, (_, i) => ({
          tenor: text(`tenor-${i}`),
          interest: text(`interest-${i}`),
        })),
      );
      saved = "Tenor cicilan disimpan.";
      break;
    case "howto":
      result = await saveHowToTexts(admin.id, Object.fromEntries(Object.entries(values).filter(([k]) => k.includes("|"))));
      saved = "Cara pembayaran disimpan.";
      break;
    case "company-add":
      result = await addCompany(admin.id, text("name"));
      saved = "Perusahaan ditambahkan.";
      break;
    case "company-save": {
      const id = parseId(text("companyId"));
      result =
        id !== null
          ? await updateCompany(admin.id, id, { name: text("name"), hidden: form.get("hidden") === "on" })
          : { ok: false, errors: { form: "Permintaan tidak valid." } };
      saved = "Perusahaan disimpan.";
      break;
    }
    case "help":
      result = await saveHelpContacts(admin.id, { phone: text("phone"), whatsapp: text("whatsapp") });
      saved = "Kontak bantuan disimpan.";
      break;
    case "retention":
      result = await saveKtpRetentionDays(admin.id, text("retentionDays"));
      saved = "Masa simpan foto KTP disimpan.";
      break;
    default:
      return data<ActionData>({ intent, errors: { form: "Permintaan tidak valid." }, values: {} }, { status: 400 });
  }
  if (!result.ok) return data<ActionData>({ intent, errors: result.errors, values }, { status: 400 });
  // The page reopens at the saved section (its anchor), far below the top of a long page where a
  // toast would be: the confirmation is shown inside that section instead (issue 38).
  const section = intent.startsWith("company") ? "companies" : intent;
  flash(context, "savedSection", { section, message: saved });
  throw redirect(`/ops/settings#${section}`);
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { account, manualReady, discount, reward, methods, tenors, howTo, howToMethods, channels, companies, help, retentionDays, saved } =
    loaderData;
  const savedIn = (section: string) => (saved?.section === section ? saved.message : null);
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
  return (
    <>
      <h1>{TITLE}</h1>
      <OpsMessage error={actionData?.errors.form && !["methods"].includes(actionData.intent) ? actionData.errors.form : null} />

      <SettingsSection
        id="account"
        saved={savedIn("account")}
        title="Rekening Transfer Manual"
        intent="account"
        submit="Simpan Rekening"
        intro={
          <>
            <p className="ops-muted">
              Ditampilkan di halaman pembayaran transfer manual; nama metode, logo dan cara bayarnya mengikuti bank ini. Pembayaran yang
              sudah dibuka tetap menampilkan rekening lamanya.
            </p>
            {manualReady ? null : (
              <p className="ops-error" data-testid="manual-transfer-off">
                Rekening transfer belum diisi: transfer manual belum ditawarkan kepada pembeli sampai rekening toko disimpan.
              </p>
            )}
          </>
        }
      >
        {/* Until an admin saves the store's own account the seeded one is demo data: the fields start
            empty, so one careless 'Simpan Rekening' cannot publish it as the company's. */}
        <InputField {...field("account", "bankName", manualReady ? account.bankName : "")} label="Bank" maxLength={100} />
        <InputField
          {...field("account", "accountName", manualReady ? account.accountName : "")}
          label="Nama Pemilik Rekening"
          maxLength={100}
        />
        <InputField
          {...field("account", "accountNumber", manualReady ? account.accountNumber : "")}
          label="Nomor Rekening"
          inputMode="numeric"
          maxLength={30}
        />
      </SettingsSection>

      <SettingsSection
        id="discount"
        saved={savedIn("discount")}
        title="Diskon Pembelian Tunai (Virtual Account)"
        intent="discount"
        submit="Simpan Diskon"
        intro={
          <>
            <p className="ops-muted">
              Dipotong dari total setiap pembayaran Virtual Account yang dibuka sesudah disimpan; label grup saat ini:{" "}
              <strong data-testid="discount-badge">{discount.enabled ? discount.badge : "tidak ada (nonaktif)"}</strong>. Pembayaran yang
              sudah dibuka tetap dengan diskonnya sendiri.
            </p>
          </>
        }
      >
        <label className="ops-check">
          <input type="checkbox" name="enabled" defaultChecked={ticked("discount", "enabled", discount.enabled)} /> Diskon aktif
        </label>
        <InputField {...field("discount", "percent", discount.percent)} label="Diskon (%)" inputMode="decimal" maxLength={6} />
      </SettingsSection>

      <SettingsSection
        id="reward"
        saved={savedIn("reward")}
        title="Reward Pesanan Selesai"
        intent="reward"
        submit="Simpan Reward"
        intro={
          <>
            <p className="ops-muted">
              Dikreditkan ke saldo pembeli (dapat ditarik) saat pesanan selesai: persentase dari nilai pesanan, paling banyak batasnya.
              Berlaku untuk pesanan yang dibuat sesudah disimpan; pesanan lama tetap dengan aturannya sendiri. Saat ini:{" "}
              <strong data-testid="reward-rule">{reward.enabled ? `${reward.percent}%, maksimal ${reward.capText}` : "nonaktif"}</strong>.
            </p>
          </>
        }
      >
        <label className="ops-check">
          <input type="checkbox" name="enabled" defaultChecked={ticked("reward", "enabled", reward.enabled)} /> Reward aktif
        </label>
        <InputField {...field("reward", "rewardPercent", reward.percent)} label="Reward (%)" inputMode="decimal" maxLength={5} />
        <InputField
          {...field("reward", "rewardCap", reward.cap)}
          label="Batas reward per pesanan (Rp)"
          inputMode="numeric"
          maxLength={12}
        />
      </SettingsSection>

      <SettingsSection id="methods" saved={savedIn("methods")} title="Metode Pembayaran" intent="methods" submit="Simpan Metode" wide>
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

      <SettingsSection id="tenors" saved={savedIn("tenors")} title="Tenor dan Bunga Cicilan" intent="tenors" submit="Simpan Tenor">
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
              {tenorRows(tenors, failed("tenors")?.values).map((row, i) => (
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
        <input type="hidden" name="tenorRows" value={tenorRows(tenors, failed("tenors")?.values).length} />
        <p className="ops-muted">
          Bunga boleh desimal dengan koma, misalnya 2,5. Kosongkan kedua kolom sebuah baris untuk menghapus tenornya.
        </p>
      </SettingsSection>

      <SettingsSection
        id="howto"
        saved={savedIn("howto")}
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

      <section className="ops-card" id="companies" aria-labelledby="companies-title">
        <h2 id="companies-title">Perusahaan</h2>
        <SavedNotice message={savedIn("companies")} />
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

      <SettingsSection
        id="help"
        saved={savedIn("help")}
        title="Kontak Bantuan"
        intent="help"
        submit="Simpan Kontak"
        intro={
          <>
            <p className="ops-muted">Nomor di menu 'Bantuan' pada halaman akun pembeli.</p>
          </>
        }
      >
        <InputField {...field("help", "phone", help.phone)} label="Telepon Admin" type="tel" maxLength={20} />
        <InputField {...field("help", "whatsapp", help.whatsapp)} label="WhatsApp Admin" type="tel" maxLength={20} />
      </SettingsSection>

      <RetentionSettings
        days={retentionDays}
        value={failed("retention")?.values.retentionDays}
        error={err("retention", "retentionDays")}
        saved={savedIn("retention")}
      />
    </>
  );
}

/** Issue 35: how long KTP photos are kept after the incentive decision once the order is closed. */
function RetentionSettings({
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
function SettingsSection(props: {
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
const tenorRowCount = (raw: string) => (/^\d{1,2}$/.test(raw) ? Math.min(Number(raw), MAX_TENOR_ROWS) : 0);

/** The tenor rows to show: as typed when the save was refused, else the saved ones and blank rows. */
function tenorRows(saved: { tenor: string; interest: string }[], typed: Record<string, string> | undefined) {
  if (typed)
    return Array.from({ length: tenorRowCount(typed.tenorRows ?? "") }, (_, i) => ({
      tenor: typed[`tenor-${i}`] ?? "",
      interest: typed[`interest-${i}`] ?? "",
    }));
  return [...saved, ...Array.from({ length: NEW_TENOR_ROWS }, () => ({ tenor: "", interest: "" }))];
}
