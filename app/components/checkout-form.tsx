import { getFormProps, getInputProps, parse, type SubmissionResult, useForm } from "@conform-to/react";
import { memo, useEffect, useLayoutEffect, useState } from "react";
import { Form } from "react-router";
import { CheckboxField } from "~/components/checkbox-field";
import { CheckoutSubmit, KtpSources, SavedValueButton } from "~/components/checkout-parts";
import { ErrorSummary } from "~/components/error-summary";
import { Field, FieldError, FormError } from "~/components/field";
import { type PriceLine, PriceLines } from "~/components/price-lines";
import { Sheet } from "~/components/sheet";
import { TextareaField } from "~/components/textarea-field";
import { useDraftSaver } from "~/components/use-draft-saver";
import { displayTitle, ORDER_TITLE_LENGTH } from "~/lib/display";
import { invalidFields, parseForm } from "~/lib/forms";
import { formatRupiah } from "~/lib/money";
import { type CheckoutPricing, type CheckoutPricingInput, type CheckoutPromo, checkoutPricing } from "~/lib/pricing";
import { keepDigitsOnly } from "~/lib/schemas/account";
import { type CheckoutContext, checkoutSchema, NOTE_MAX, withOneKtpFile } from "~/lib/schemas/checkout";

// The checkout form (spec §2 Checkout, §4 Checkout flow) as app/routes/checkout.tsx renders it from
// its loader: the buyer's data, the KTP photo, the incentive and the employee promo, the address,
// the price lines and the statements. It posts to /checkout (the route's action judges it).
// Its sections share the form state, the draft saver and the saved NIK/KTP (issue 38); the pieces
// that stand alone (the KTP sources, the saved values' buttons, the submit) are in checkout-parts.tsx.

/** The form's id: its fields' ids follow from it (conform: `<form id>-<name>`), so the server can link one. */
const FORM_ID = "checkout";
/** Where 'Ganti' and 'Pakai NIK sebelumnya' come back to: the NIK field, or the saved NIK's 'Ganti'. */
export const NIK_ANCHOR = `${FORM_ID}-buyerNik`;

/** What the form is drawn from (the route's loader: the checkout draft and the employee promo). */
export type CheckoutFormProps = {
  product: { title: string; imageUrl: string | null; hasIncentive: boolean; pricing: CheckoutPricingInput };
  /** The draft's values as the form's strings (a ticked box is "on"). */
  values: Record<string, string | undefined>;
  /** A KTP photo is kept (its picture is not shown: it carries the NIK in print). */
  ktp: { key: string } | null;
  /** The masked NIK of the buyer's previous order, offered instead of the NIK field (issue 38). */
  savedNik: string | null;
  /** After 'Ganti': that NIK, masked, to take again ('Pakai NIK sebelumnya'). */
  previousNik: string | null;
  /** The buyer's data or the address lacks something: the yellow note shows. */
  buyerDataMissing: boolean;
  address: { fullAddress: string; kelurahan: string; kecamatan: string; kota: string; provinsi: string; kodePos: string } | null;
  employeePromo: CheckoutPromo | null;
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]>;
};

/** The checkout's price lines (spec §2 'Rincian Harga'): the price, each discount, the total. */
function checkoutPriceLines(pricing: CheckoutPricing): PriceLine[] {
  return [
    { label: "Harga", amount: pricing.priceOri },
    ...(pricing.productDiscount > 0 ? [{ label: "Diskon Produk", amount: -pricing.productDiscount }] : []),
    ...pricing.promoLines.map((line) => ({ label: line.title, amount: -line.amount })),
    ...(pricing.insentifValue > 0 ? [{ label: "Insentif Pemerintah", amount: -pricing.insentifValue }] : []),
    ...(pricing.promoPegawaiValue > 0 ? [{ label: "Promo Pegawai", amount: -pricing.promoPegawaiValue }] : []),
    { label: "Total", amount: pricing.total, total: true, testId: "checkout-total" },
  ];
}

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
export const CheckoutForm = memo(function CheckoutForm({
  product,
  values,
  ktp,
  savedNik,
  previousNik,
  buyerDataMissing,
  address,
  employeePromo,
  idempotencyKey,
  lastResult,
}: CheckoutFormProps) {
  const checkout: CheckoutContext = {
    ktpOnFile: ktp !== null,
    nikOnFile: savedNik !== null,
    addressOnFile: address !== null,
    hasIncentive: product.hasIncentive,
    hasEmployeePromo: employeePromo !== null,
  };
  const [form, fields] = useForm<Record<string, string | undefined>>({
    id: FORM_ID,
    lastResult,
    defaultValue: values,
    // The schema is built when the form is first validated (a blur, a submit), not while the page
    // hydrates: the server has validated what it rendered. The address button and the NIK's
    // 'Ganti' save the draft without validating (the server does not validate them either).
    onValidate: ({ formData, submitter }) =>
      submitter?.getAttribute("name") === "intent"
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
  const ktpKey = ktp?.key ?? "none";
  const [shownKtpKey, setShownKtpKey] = useState(ktpKey);
  if (shownKtpKey !== ktpKey) {
    setShownKtpKey(ktpKey);
    setPreview(null);
  }
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
        {buyerDataMissing ? (
          <p className="warning-banner" role="note" data-testid="checkout-incomplete">
            Lengkapi data pembeli dan alamat pengiriman sebelum melanjutkan ke pembayaran.
          </p>
        ) : null}
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
          {savedNik ? (
            <div className="field saved-nik" data-testid="saved-nik">
              <label htmlFor={fields.buyerNik.id}>NIK</label>
              <div className="saved-value">
                <span>
                  <strong>{savedNik}</strong>
                  <small className="muted"> dari pesanan sebelumnya</small>
                </span>
                {/* Kept in the draft as the form is; the page comes back at an empty NIK field. */}
                <SavedValueButton intent="nik" id={fields.buyerNik.id} label="Ganti NIK">
                  Ganti
                </SavedValueButton>
              </div>
              <FieldError id={fields.buyerNik.errorId} errors={fields.buyerNik.errors} />
            </div>
          ) : (
            <>
              <Field meta={fields.buyerNik} label="NIK" inputMode="numeric" autoComplete="off" hint="16 digit sesuai KTP." />
              {previousNik ? (
                // The way back after 'Ganti': the previous order's NIK again, the form kept as it is.
                <div className="saved-value saved-offer" data-testid="previous-nik">
                  <span>
                    <strong>{previousNik}</strong>
                    <small className="muted"> dari pesanan sebelumnya</small>
                  </span>
                  <SavedValueButton intent="nik-saved" label="Pakai NIK sebelumnya">
                    Pakai
                  </SavedValueButton>
                </div>
              ) : null}
            </>
          )}
          <Field meta={fields.buyerNip} label="NIP" autoComplete="off" />

          <fieldset className="field ktp-field">
            {/* A fieldset's legend comes first (HTML content model); the preview follows it. */}
            <legend>Foto KTP</legend>
            {preview ? (
              // Only the file just picked, on this device (a picture the browser cannot show is no
              // preview; the server will say why). A kept photo is never shown: it carries the NIK.
              <img src={preview} alt="Foto KTP" className="ktp-image" onError={() => setPreview(null)} />
            ) : null}
            <KtpSources
              saved={ktp !== null && !preview}
              sources={[
                { id: cameraId, label: "Kamera", capture: true },
                { id: fields.ktp.id, label: "Galeri", capture: false },
              ]}
              inputKey={`${ktpInputKey ?? ""}${ktpKey}`}
              inputProps={ktpInputProps}
              invalid={!!fields.ktp.errors}
              onOpenSheet={() => setKtpSheet(true)}
              replacing={ktp !== null}
              onPicked={setPreview}
            />
            <p className="field-hint">{ktp ? "Pilih file baru hanya jika ingin mengganti foto KTP." : "Format .jpg, .jpeg atau .png."}</p>
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
          {/* Like the NIK and the KTP: a kept value with a small 'Ganti' beside it, or a full-width
              button to fill it in. The summary's 'Alamat Pengiriman' link lands on the button. */}
          {address ? (
            <div className="saved-value">
              <address className="checkout-address" data-testid="checkout-address">
                {address.fullAddress}
                <br />
                {address.kelurahan}, {address.kecamatan}, {address.kota}, {address.provinsi} {address.kodePos}
              </address>
              <SavedValueButton intent="address" id={fields.address.id} label="Ganti Alamat">
                Ganti
              </SavedValueButton>
            </div>
          ) : (
            <>
              <p className="muted">Belum ada alamat pengiriman.</p>
              <button
                type="submit"
                name="intent"
                value="address"
                id={fields.address.id}
                className="btn btn-outline btn-block"
                formNoValidate
              >
                Isi Alamat
              </button>
            </>
          )}
          <FieldError id={fields.address.errorId} errors={fields.address.errors} />
        </section>

        <section className="card" aria-labelledby="price-heading">
          <h2 id="price-heading">Rincian Harga</h2>
          <PriceLines lines={checkoutPriceLines(pricing)} testId="price-lines" />
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
