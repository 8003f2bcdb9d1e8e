import { data, redirect } from "react-router";
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
import {
  CompaniesSection,
  HowToSection,
  PaymentMethodsSection,
  RetentionSettings,
  type SettingsActionData,
  SettingsSection,
  settingsForm,
  tenorRowCount,
  TenorsSection,
} from "./settings-parts";
import { parseId } from "~/lib/ids";

// /ops/settings ('Admin', issue 27): what a company changes without a developer. The transfer
// account, methods, fees, tenors and the VA cash discount apply to payments opened afterwards (an
// open payment keeps the account, discount and total it showed); the reward rule applies to orders
// made afterwards (issue 38); how-to texts are sanitised HTML; every save is audited.
// One page of small, independent setting forms that share one action dispatching on `intent`; the
// larger cards are in settings-parts.tsx.

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

type ActionData = SettingsActionData;

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
  const form = settingsForm(actionData);
  const { field, ticked, failed, err } = form;
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

      <PaymentMethodsSection methods={methods} form={form} saved={savedIn("methods")} />

      <TenorsSection tenors={tenors} form={form} saved={savedIn("tenors")} />

      <HowToSection methods={howToMethods} channels={channels} howTo={howTo} form={form} saved={savedIn("howto")} />

      <CompaniesSection companies={companies} form={form} saved={savedIn("companies")} />

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
