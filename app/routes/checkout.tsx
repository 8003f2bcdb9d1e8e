import { getFormProps, getInputProps, parse, type SubmissionResult, useForm } from "@conform-to/react";
import { memo, useEffect, useLayoutEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/checkout";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import {
  checkEmployeePromo,
  type CheckoutDraft,
  clearDraftPaymentChoice,
  getCheckoutDraft,
  saveDraftValues,
  setDraftKtp,
} from "~/.server/store/checkout";
import {
  checkOrderRules,
  checkoutContextOf,
  checkoutSubmissionOf,
  type CheckoutSubmission,
  createOrderFromDraft,
  type RuleFailure,
} from "~/.server/store/checkout";
import { getOwnedOrderSummary } from "~/.server/store/orders";
import { saveUpload } from "~/.server/store/orders";
import { isEmptyFile, processImageUpload } from "~/.server/images";
import { CheckboxField } from "~/components/checkbox-field";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FieldError, FormError } from "~/components/field";
import { Sheet } from "~/components/sheet";
import { useHydrated } from "~/components/use-hydrated";
import { TextareaField } from "~/components/textarea-field";
import { displayTitle, ORDER_TITLE_LENGTH } from "~/lib/display";
import { invalidFields, parseForm } from "~/lib/forms";
import { formatRupiah } from "~/lib/money";
import { checkoutPricing } from "~/lib/pricing";
import type { RouteHandle } from "~/lib/route-handle";
import { keepDigitsOnly } from "~/lib/schemas/account";
import { KTP_ACCEPT } from "~/lib/photo-files";
import { type CheckoutContext, checkoutSchema, NOTE_MAX, withOneKtpFile } from "~/lib/schemas/checkout";
import { parseId } from "~/lib/ids";

export const handle: RouteHandle = { title: "Checkout", back: "/home" };

const NO_DRAFT = "Data checkout tidak ditemukan. Silakan pilih produk kembali.";
const SUBMIT_INSENTIF = "Ajukan Insentif";
const SUBMIT_PAYMENT = "Pilih Metode Pembayaran";

/** Where the success sheet of an incentive order is rendered (server-side, so it needs no JavaScript). */
const DONE_PARAM = "selesai";
/** How long typing may pause before the draft is saved in the background. */
const DRAFT_SAVE_DELAY_MS = 400;

type Draft = CheckoutDraft;

function contextOf(draft: Draft, employeePromo: unknown): CheckoutContext {
  return checkoutContextOf(draft, employeePromo !== null);
}

/** The draft's values as the form's strings (a ticked box is "on"). */
function formDefaults(values: Draft["values"]): Record<string, string | undefined> {
  const defaults: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "boolean") defaults[name] = value ? "on" : undefined;
    else if (typeof value === "string") defaults[name] = value;
  }
  return defaults;
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const done = url.searchParams.get(DONE_PARAM);
  if (done !== null) {
    // The incentive order was made and the draft is gone: only the success sheet, for its owner.
    const doneId = parseId(done);
    const order = doneId ? await getOwnedOrderSummary(doneId, user.id) : null;
    if (!order) throw data("Not Found", { status: 404 });
    return { screen: "done" as const, order };
  }
  const draft = await getCheckoutDraft(user.id);
  if (!draft) {
    flash(context, "toast", { type: "danger", message: NO_DRAFT });
    throw redirect("/home");
  }
  // Spec §4: the employee-discount check runs on load, with the account's NIP.
  const employeePromo = await checkEmployeePromo(user.id, draft.product.id, user.nip);
  return {
    screen: "form" as const,
    product: draft.product,
    values: formDefaults(draft.values),
    ktp: draft.ktp,
    address: draft.address,
    employeePromo,
    // A fresh key per render of the form: a double submit of this render makes one order.
    idempotencyKey: crypto.randomUUID(),
  };
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9-]{8,64}$/;

/** What the form holds, kept in the draft as typed (no validation): the trip to /address and a
 * failed submit lose nothing. Boxes the product does not offer are never kept ticked. */
function draftValuesOf(form: FormData, checkout: CheckoutContext): Draft["values"] {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const ticked = (name: string) => form.get(name) !== null;
  const insentif = checkout.hasIncentive && ticked("insentif");
  return {
    note: text("note"),
    buyerName: text("buyerName"),
    buyerPhoneNumber: text("buyerPhoneNumber"),
    buyerEmail: text("buyerEmail"),
    buyerNik: text("buyerNik"),
    buyerNip: text("buyerNip"),
    // Unticking the incentive clears the father's name (spec §4).
    buyerDadName: insentif ? text("buyerDadName") : "",
    insentif,
    nikValidation: insentif && ticked("nikValidation"),
    ajukanInsentifPegawai: checkout.hasEmployeePromo && ticked("ajukanInsentifPegawai"),
    bbnValidation: ticked("bbnValidation"),
    domisiliValidation: ticked("domisiliValidation"),
  };
}

/** A refusal of the order rules, next to the field it is about (or above the form). */
function ruleReply(
  submission: { reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> },
  failure: RuleFailure,
) {
  if (!failure.field || failure.field === "product") return submission.reply({ formErrors: [failure.message] });
  return submission.reply({ fieldErrors: { [failure.field]: [failure.message] } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await readForm(request);
  const keyValue = form.get("idempotencyKey");
  const idempotencyKey = typeof keyValue === "string" && IDEMPOTENCY_KEY.test(keyValue) ? keyValue : crypto.randomUUID();
  const draft = await getCheckoutDraft(user.id);
  const intent = form.get("intent");
  if (!draft) {
    // A background save has nothing to save into: it says so and goes nowhere.
    if (intent === "draft") return data({ draftSaved: false }, { status: 404 });
    // The second press of a double submit arrives after the first made the order and cleared the
    // draft: the same key finds that order (created=false) and shows its success sheet again.
    if (form.get("intent") !== "address" && typeof keyValue === "string") {
      const repeat = await createOrderFromDraft(user.id, idempotencyKey, submissionFromForm(form), { statusId: 100 });
      if (repeat.ok) throw redirect(`/checkout?${DONE_PARAM}=${repeat.orderId}`);
    }
    flash(context, "toast", { type: "danger", message: NO_DRAFT });
    throw redirect("/home");
  }

  const employeePromo = await checkEmployeePromo(user.id, draft.product.id, user.nip);
  const checkout = contextOf(draft, employeePromo);

  // Every submit keeps what was typed first, then a newly picked KTP photo (checked by its bytes
  // and re-encoded; once accepted it stays in the draft and is never asked for again).
  await saveDraftValues(user.id, draftValuesOf(form, checkout));
  // With JavaScript the form posts here in the background on every change (debounced): what was
  // typed is kept, nothing is validated, the page stays (spec §4: "any change is saved to a draft").
  if (intent === "draft") return data({ draftSaved: true });
  // 'Kamera' or 'Galeri': the one input that holds a file.
  const picked = form.getAll("ktp").find((value) => !isEmptyFile(value)) ?? null;
  form.delete("ktp");
  let ktpError: string | null = null;
  if (!isEmptyFile(picked)) {
    const processed = await processImageUpload(picked as File);
    if (processed.ok) {
      await setDraftKtp(user.id, await saveUpload(user.id, "ktp", processed.file));
      checkout.ktpOnFile = true;
    } else {
      ktpError = processed.message;
    }
  }

  // 'Isi/Ubah Alamat' is a button of this form: the draft is saved, nothing is validated.
  if (intent === "address") throw redirect("/address");

  // The server judges the KTP by its bytes above, not by the file name the schema looks at.
  const submission = parseForm(form, checkoutSchema(checkout));
  if (submission.status !== "success" || ktpError) {
    return data({ reply: submission.reply(ktpError ? { fieldErrors: { ktp: [ktpError] } } : undefined) }, { status: 400 });
  }
  const order = checkoutSubmissionOf(submission.value, checkout);
  const insentif = order.insentif;
  const rules = await checkOrderRules(user.id, order);
  if (!rules.ok) return data({ reply: ruleReply(submission, rules) }, { status: 409 });

  // Spec §4: with the incentive the order is made now (status 100) and the success sheet opens;
  // otherwise the payment method is chosen next (the order is made there). Either way a method and
  // tenor chosen before this submit are forgotten.
  await clearDraftPaymentChoice(user.id);
  if (!insentif) throw redirect("/paymentmethod");
  const created = await createOrderFromDraft(user.id, idempotencyKey, order, { statusId: 100 });
  if (!created.ok) return data({ reply: ruleReply(submission, created) }, { status: 409 });
  throw redirect(`/checkout?${DONE_PARAM}=${created.orderId}`);
}

/** The posted form read without validation, only to find the order of a repeated submit. */
function submissionFromForm(form: FormData): CheckoutSubmission {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  return {
    note: text("note"),
    buyerName: text("buyerName"),
    buyerPhoneNumber: text("buyerPhoneNumber"),
    buyerEmail: text("buyerEmail"),
    buyerNik: text("buyerNik"),
    buyerNip: text("buyerNip") || null,
    buyerDadName: text("buyerDadName") || null,
    insentif: form.get("insentif") !== null,
    ajukanInsentifPegawai: form.get("ajukanInsentifPegawai") !== null,
  };
}

export default function CheckoutScreen({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.screen === "done") return <IncentiveSubmitted order={loaderData.order} />;
  return <CheckoutForm {...loaderData} lastResult={actionData && "reply" in actionData ? actionData.reply : undefined} />;
}

function IncentiveSubmitted({ order }: { order: { invoiceId: string; statusName: string } }) {
  return (
    <Sheet title="Pengajuan Insentif Berhasil" closeHref="/home" height="auto">
      <div className="done-sheet" data-testid="checkout-done">
        <p>
          Pesanan <strong>{order.invoiceId}</strong> telah dibuat dengan status <strong>{order.statusName}</strong>.
        </p>
        <p className="muted">Kami akan memverifikasi pengajuan insentif Anda. Pantau statusnya di daftar transaksi.</p>
        <Link to="/transaction" className="btn btn-primary btn-block">
          Periksa Status
        </Link>
        <Link to="/home" className="btn btn-outline btn-block">
          Kembali ke Beranda
        </Link>
      </div>
    </Sheet>
  );
}

type FormScreenData = Extract<Route.ComponentProps["loaderData"], { screen: "form" }>;

/** The checkout's fields in the order the form shows them: the error summary names and links them so. */
const LABELS = {
  note: "Catatan",
  buyerName: "Nama Pembeli",
  buyerPhoneNumber: "No. HP",
  buyerEmail: "Email",
  buyerNik: "NIK",
  buyerNip: "NIP",
  ktp: "Foto KTP",
  buyerDadName: "Nama Ayah Kandung",
  nikValidation: "Pernyataan NIK",
  ajukanInsentifPegawai: "Promo Pegawai",
  address: "Alamat Pengiriman",
  bbnValidation: "Pernyataan biaya pengiriman",
  domisiliValidation: "Pernyataan alamat domisili",
};

/**
 * The form. Memoised: React Router's own updates right after hydration (the router starting, its
 * route discovery) re-render every route component; the form's props are the loader's data, which
 * they do not change, so the form is rendered once by hydration, not three times (issue 29).
 */
const CheckoutForm = memo(function CheckoutForm({
  product,
  values,
  ktp,
  address,
  employeePromo,
  idempotencyKey,
  lastResult,
}: FormScreenData & { lastResult?: SubmissionResult<string[]> }) {
  const checkout: CheckoutContext = {
    ktpOnFile: ktp !== null,
    addressOnFile: address !== null,
    hasIncentive: product.hasIncentive,
    hasEmployeePromo: employeePromo !== null,
  };
  const [form, fields] = useForm<Record<string, string | undefined>>({
    lastResult,
    defaultValue: values,
    // The schema is built when the form is first validated (a blur, a submit), not while the page
    // hydrates: the server has validated what it rendered. The address button saves the draft
    // without validating (the server does not validate it either).
    onValidate: ({ formData, submitter }) =>
      submitter?.getAttribute("value") === "address"
        ? parse(formData, { resolve: () => ({ value: {} }) })
        : parseForm(withOneKtpFile(formData), checkoutSchema(checkout)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  // The boxes drive the price breakdown and the button's words as they change (with JavaScript);
  // without it the server renders them for the draft, and CSS (:has) swaps the words and fields.
  const [insentif, setInsentif] = useState(values.insentif === "on");
  const [promoPegawai, setPromoPegawai] = useState(values.ajukanInsentifPegawai === "on");
  const draftSave = useDraftSaver(values);
  // A box ticked before the scripts ran (the page works without them) is what the price and the
  // button follow once they run.
  useLayoutEffect(() => {
    const ticked = (name: string) => (draftSave.formRef.current?.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
    setInsentif(ticked("insentif"));
    setPromoPegawai(ticked("ajukanInsentifPegawai"));
  }, []);
  const pricing = checkoutPricing(product.pricing, {
    insentif: product.hasIncentive && insentif,
    promoPegawai: employeePromo !== null && promoPegawai,
  });

  // A preview of a newly picked KTP photo at once (the server re-checks and re-encodes it).
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  // After the server accepted a photo the input starts empty again (its key changes), so the same
  // file is not sent twice.
  const ktpKey = ktp?.id ?? "none";
  const [shownKtpKey, setShownKtpKey] = useState(ktpKey);
  if (shownKtpKey !== ktpKey) {
    setShownKtpKey(ktpKey);
    setPreview(null);
  }
  const ktpImage = preview ?? ktp?.url ?? null;
  const title = displayTitle(product.title, ORDER_TITLE_LENGTH);
  const { key: ktpInputKey, ...ktpInputProps } = getInputProps(fields.ktp, { type: "file", ariaAttributes: true });
  const cameraId = `${fields.ktp.id}-kamera`;

  // Spec §5: once JavaScript runs, the submit waits while the form shows a field's message.
  const showsErrors = invalidFields(form.allErrors).length > 0;
  const [ktpSheet, setKtpSheet] = useState(false);
  const pickKtp = (id: string) => {
    setKtpSheet(false);
    (document.getElementById(id) as HTMLInputElement | null)?.click();
  };

  const formProps = getFormProps(form);

  return (
    <>
      <Form
        method="post"
        encType="multipart/form-data"
        className="checkout-form"
        {...formProps}
        ref={draftSave.formRef}
        onChange={draftSave.soon}
        onSubmit={(event) => {
          formProps.onSubmit(event);
          // Conform validates through submit events it cancels; only a real submit saves the draft.
          if (!event.defaultPrevented) draftSave.submitted();
        }}
      >
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <p className="warning-banner" role="note">
          Lengkapi data pembeli dan alamat pengiriman sebelum melanjutkan ke pembayaran.
        </p>
        <FormError id={form.errorId} errors={form.errors} />
        {/* A refused submit comes back at the top (without JavaScript): this is what is read first. */}
        <ErrorSummary form={form} labels={LABELS} />

        <section className="card checkout-product" aria-label="Produk">
          {product.imageUrl ? (
            <img src={product.imageUrl} alt="" width={72} height={72} className="checkout-product-image" />
          ) : (
            <div className="checkout-product-image" aria-hidden="true" />
          )}
          <div className="checkout-product-info">
            <h2 className="checkout-product-title">{title}</h2>
            <p className="checkout-product-price" data-testid="checkout-price">
              {formatRupiah(pricing.price)}
            </p>
            {pricing.price < pricing.priceOri ? (
              <p className="checkout-product-original">
                <s data-testid="checkout-original-price">{formatRupiah(pricing.priceOri)}</s>
              </p>
            ) : null}
            <p className="muted">Jumlah: 1</p>
          </div>
        </section>

        <section className="card">
          <TextareaField meta={fields.note} label="Catatan (opsional)" maxLength={NOTE_MAX} hint={`Maksimal ${NOTE_MAX} karakter.`} />
        </section>

        <section className="card" aria-labelledby="buyer-heading">
          <h2 id="buyer-heading">Data Pembeli</h2>
          <Field meta={fields.buyerName} label="Nama Pembeli" autoComplete="name" />
          <Field meta={fields.buyerPhoneNumber} label="No. HP" type="tel" inputMode="numeric" autoComplete="tel" onInput={keepDigitsOnly} />
          <Field meta={fields.buyerEmail} label="Email" type="email" autoComplete="email" />
          <Field meta={fields.buyerNik} label="NIK" inputMode="numeric" autoComplete="off" hint="16 digit sesuai KTP." />
          <Field meta={fields.buyerNip} label="NIP" autoComplete="off" />

          <fieldset className="field ktp-field">
            {ktpImage ? (
              // A picked file the browser cannot show as a picture is no preview (the server will say why).
              <img src={ktpImage} alt="Foto KTP" className="ktp-image" onError={preview ? () => setPreview(null) : undefined} />
            ) : null}
            <legend>{ktp || preview ? "Ganti Foto KTP" : "Foto KTP"}</legend>
            <KtpSources
              sources={[
                { id: cameraId, label: "Kamera", capture: true },
                { id: fields.ktp.id, label: "Galeri", capture: false },
              ]}
              inputKey={`${ktpInputKey ?? ""}${ktpKey}`}
              inputProps={ktpInputProps}
              invalid={!!fields.ktp.errors}
              onOpenSheet={() => setKtpSheet(true)}
              onPicked={setPreview}
            />
            <p className="field-hint">
              {ktp ? "Foto KTP sudah tersimpan. Pilih file baru hanya jika ingin menggantinya." : "Format .jpg, .jpeg atau .png."}
            </p>
            <FieldError id={fields.ktp.errorId} errors={fields.ktp.errors} />
          </fieldset>
        </section>

        {product.hasIncentive || employeePromo ? (
          <section className="card" aria-labelledby="promo-heading">
            <h2 id="promo-heading">Insentif &amp; Promo</h2>
            {product.hasIncentive ? (
              <>
                <CheckboxField
                  meta={fields.insentif}
                  onChange={(event) => {
                    const ticked = event.currentTarget.checked;
                    setInsentif(ticked);
                    // Unticking the incentive clears the father's name (spec §4).
                    const dadName = document.getElementById(fields.buyerDadName.id) as HTMLInputElement | null;
                    if (!ticked && dadName) dadName.value = "";
                  }}
                >
                  Ajukan Insentif
                  <small className="check-hint">
                    Insentif Pemerintah untuk kendaraan listrik. Wajib foto KTP; satu NIK hanya untuk satu unit.
                  </small>
                </CheckboxField>
                <div className="when-insentif" hidden={!insentif}>
                  <Field meta={fields.buyerDadName} label="Nama Ayah Kandung" autoComplete="off" />
                  <CheckboxField meta={fields.nikValidation}>
                    Saya menyatakan NIK di atas belum pernah digunakan untuk pengajuan insentif kendaraan listrik.
                  </CheckboxField>
                </div>
              </>
            ) : null}
            {employeePromo ? (
              <CheckboxField meta={fields.ajukanInsentifPegawai} onChange={(event) => setPromoPegawai(event.currentTarget.checked)}>
                Ajukan Promo Pegawai
                <small className="check-hint">
                  {employeePromo.title}: potongan {formatRupiah(employeePromo.discount)} untuk NIP akun Anda.
                </small>
              </CheckboxField>
            ) : null}
          </section>
        ) : null}

        <section className="card" aria-labelledby="address-heading">
          <h2 id="address-heading">Alamat Pengiriman</h2>
          {address ? (
            <address className="checkout-address" data-testid="checkout-address">
              {address.fullAddress}
              <br />
              {address.kelurahan}, {address.kecamatan}, {address.kota}, {address.provinsi} {address.kodePos}
            </address>
          ) : (
            <p className="muted">Belum ada alamat pengiriman.</p>
          )}
          <FieldError id={fields.address.errorId} errors={fields.address.errors} />
          {/* The summary's 'Alamat Pengiriman' link lands here. */}
          <button type="submit" name="intent" value="address" id={fields.address.id} className="btn btn-outline btn-block" formNoValidate>
            {address ? "Ubah Alamat" : "Isi Alamat"}
          </button>
        </section>

        <section className="card" aria-labelledby="price-heading">
          <h2 id="price-heading">Rincian Harga</h2>
          <dl className="price-lines" data-testid="price-lines">
            <div>
              <dt>Harga</dt>
              <dd>{formatRupiah(pricing.priceOri)}</dd>
            </div>
            {pricing.productDiscount > 0 ? (
              <div>
                <dt>Diskon Produk</dt>
                <dd>-{formatRupiah(pricing.productDiscount)}</dd>
              </div>
            ) : null}
            {pricing.promoLines.map((line) => (
              <div key={line.title}>
                <dt>{line.title}</dt>
                <dd>-{formatRupiah(line.amount)}</dd>
              </div>
            ))}
            {pricing.insentifValue > 0 ? (
              <div>
                <dt>Insentif Pemerintah</dt>
                <dd>-{formatRupiah(pricing.insentifValue)}</dd>
              </div>
            ) : null}
            {pricing.promoPegawaiValue > 0 ? (
              <div>
                <dt>Promo Pegawai</dt>
                <dd>-{formatRupiah(pricing.promoPegawaiValue)}</dd>
              </div>
            ) : null}
            <div className="price-total">
              <dt>Total</dt>
              <dd data-testid="checkout-total">{formatRupiah(pricing.total)}</dd>
            </div>
          </dl>
        </section>

        <section className="card" aria-label="Pernyataan">
          <CheckboxField meta={fields.bbnValidation}>
            Saya memahami bahwa biaya pengiriman dibayarkan langsung kepada dealer di luar aplikasi.
          </CheckboxField>
          <CheckboxField meta={fields.domisiliValidation}>Saya menyatakan alamat domisili saya sesuai dengan KTP.</CheckboxField>
        </section>

        <div className="checkout-bar">
          <p className="checkout-bar-total">
            <span className="muted">Total</span> <strong>{formatRupiah(pricing.total)}</strong>
          </p>
          <CheckoutSubmit insentif={insentif} showsErrors={showsErrors} />
        </div>
      </Form>
      {ktpSheet ? (
        <Sheet title="Upload KTP" closeHref="/checkout" onClose={() => setKtpSheet(false)} height="25vh">
          <div className="ktp-sheet" data-testid="ktp-sheet">
            <button type="button" className="btn btn-outline btn-block" onClick={() => pickKtp(cameraId)}>
              Kamera
            </button>
            <button type="button" className="btn btn-outline btn-block" onClick={() => pickKtp(fields.ktp.id)}>
              Galeri
            </button>
          </div>
        </Sheet>
      ) : null}
    </>
  );
});

/**
 * Spec §2 'Upload KTP': the camera or the gallery. Without JavaScript both are plain inputs; with it
 * they are picked from a sheet that 'Upload KTP' opens (the inputs stay in the form, unseen). Its own
 * component, so that only it draws again when the scripts start, not the whole form.
 */
function KtpSources({
  sources,
  inputKey,
  inputProps,
  invalid,
  onOpenSheet,
  onPicked,
}: {
  sources: { id: string; label: string; capture: boolean }[];
  inputKey: string;
  inputProps: Omit<ReturnType<typeof getInputProps>, "key">;
  invalid: boolean;
  onOpenSheet: () => void;
  onPicked: (preview: string | null) => void;
}) {
  const hydrated = useHydrated();
  return (
    <>
      {hydrated ? (
        <button type="button" className="btn btn-outline btn-block" aria-haspopup="dialog" onClick={onOpenSheet}>
          Upload KTP
        </button>
      ) : null}
      <div className={hydrated ? "sr-only" : "ktp-sources"}>
        {sources.map((source) => (
          <div key={source.id} className="ktp-source">
            <label htmlFor={source.id}>{source.label}</label>
            <input
              key={inputKey}
              {...inputProps}
              id={source.id}
              accept={KTP_ACCEPT}
              capture={source.capture ? "environment" : undefined}
              tabIndex={hydrated ? -1 : undefined}
              className={invalid ? "is-invalid" : undefined}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                // The other source forgets its file: the photo is the one picked last.
                const other = sources.find((s) => s.id !== source.id);
                const otherInput = other ? (document.getElementById(other.id) as HTMLInputElement | null) : null;
                if (file && otherInput) otherInput.value = "";
                onPicked(file && /^image\/(jpeg|png)$/.test(file.type) ? URL.createObjectURL(file) : null);
              }}
            />
          </div>
        ))}
      </div>
    </>
  );
}

/** The submit, worded for the incentive or the payment; it waits while the form is on its way or,
 * once JavaScript runs, while the form shows a field's message (spec §5). */
function CheckoutSubmit({ insentif, showsErrors }: { insentif: boolean; showsErrors: boolean }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/checkout");
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={submitting || (hydrated && showsErrors)}>
      <span className="when-insentif-inline" hidden={!insentif}>
        {SUBMIT_INSENTIF}
      </span>
      <span className="when-no-insentif-inline" hidden={insentif}>
        {SUBMIT_PAYMENT}
      </span>
    </button>
  );
}

/**
 * Spec §4 "any change is saved to a local draft": with JavaScript the form is posted in the
 * background (a fetcher, intent=draft, no revalidation) a moment after each change, and at once when
 * the buyer leaves (a navigation, the back arrow) or the tab is hidden or closed. The KTP file is
 * not part of it: the submit and 'Isi Alamat' send it. Without JavaScript every submit saves the draft.
 */
function useDraftSaver(saved: Record<string, string | undefined>) {
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Changes made, and how many of them the server has confirmed: a save in flight when the page
  // goes may never arrive (a fetcher of an unmounted page), so only a confirmed save counts.
  const changes = useRef(0);
  const sent = useRef(0);
  const confirmed = useRef(0);
  const fetcher = useFetcher<{ draftSaved: boolean }>();
  const submit = useRef(fetcher.submit);
  submit.current = fetcher.submit;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.draftSaved) confirmed.current = Math.max(confirmed.current, sent.current);
  }, [fetcher.state, fetcher.data]);

  const body = () => {
    const values = new FormData(formRef.current!);
    values.delete("ktp");
    values.delete("idempotencyKey");
    values.set("intent", "draft");
    return values;
  };
  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  const now = () => {
    cancel();
    if (!formRef.current) return;
    sent.current = changes.current;
    void submit.current(body(), { method: "post", action: "/checkout", encType: "multipart/form-data", defaultShouldRevalidate: false });
  };
  // What the form holds after the last change (the form itself is gone when the page unmounts).
  const latest = useRef<FormData | null>(null);
  const soon = () => {
    changes.current++;
    latest.current = body();
    cancel();
    timer.current = setTimeout(now, DRAFT_SAVE_DELAY_MS);
  };
  // The submit saves the draft itself.
  const submitted = () => {
    cancel();
    confirmed.current = changes.current;
  };

  // Leaving (another page of the store, the back arrow, closing or hiding the tab) with a change the
  // server has not confirmed: it goes at once, as a request that outlives the page.
  const flush = () => {
    const values = latest.current;
    if (changes.current === confirmed.current || !values) return;
    cancel();
    confirmed.current = changes.current;
    void fetch("/checkout", { method: "POST", body: values, keepalive: true, credentials: "same-origin" }).catch(() => {});
  };
  // What was typed or ticked before the scripts ran is a change too.
  useEffect(() => {
    if (formRef.current && differsFrom(formRef.current, saved)) soon();
  }, []);
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", onHide);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", onHide);
      // The page is going (another page of the store, the back arrow): its last change goes with it.
      flush();
    };
  }, []);
  return { formRef, soon, submitted };
}

/** Whether the form's text fields and boxes hold anything other than the draft it was drawn from. */
function differsFrom(form: HTMLFormElement, saved: Record<string, string | undefined>) {
  for (const element of Array.from(form.elements)) {
    if (
      !(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) ||
      !element.name ||
      element.name === "idempotencyKey"
    )
      continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox") {
      if (element.checked !== (saved[element.name] === "on")) return true;
    } else if (element.type !== "file" && element.type !== "hidden" && element.value !== (saved[element.name] ?? "")) return true;
  }
  return false;
}
