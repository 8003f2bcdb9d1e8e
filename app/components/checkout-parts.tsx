import type { getInputProps } from "@conform-to/react";
import { useNavigation } from "react-router";
import { useHydrated } from "~/components/use-hydrated";
import { KTP_ACCEPT } from "~/lib/photo-files";

// The checkout form's pieces that stand alone (components/checkout-form.tsx draws them): the KTP's
// sources, the buttons beside a kept value, and the submit.

const SUBMIT_INSENTIF = "Ajukan Insentif";
const SUBMIT_PAYMENT = "Pilih Metode Pembayaran";

/**
 * Spec §2 'Upload KTP': the camera or the gallery. Without JavaScript both are plain inputs; with it
 * they are picked from a sheet that 'Upload KTP' opens (the inputs stay in the form, unseen). Its own
 * component, so that only it draws again when the scripts start, not the whole form.
 */
export function KtpSources({
  saved,
  sources,
  inputKey,
  inputProps,
  invalid,
  onOpenSheet,
  onPicked,
  replacing,
}: {
  /** A photo is kept and none picked since: 'KTP tersimpan', and (with JavaScript) 'Ganti' beside it. */
  saved: boolean;
  sources: { id: string; label: string; capture: boolean }[];
  inputKey: string;
  inputProps: Omit<ReturnType<typeof getInputProps>, "key">;
  invalid: boolean;
  onOpenSheet: () => void;
  onPicked: (preview: string | null) => void;
  /** A photo is kept already: the button (and without JavaScript the inputs' heading) says 'Ganti'. */
  replacing: boolean;
}) {
  const hydrated = useHydrated();
  return (
    <>
      {saved ? (
        <div className="saved-value">
          <span className="ktp-saved" data-testid="ktp-saved">
            KTP tersimpan
          </span>
          {hydrated ? (
            <button
              type="button"
              className="btn btn-outline btn-small"
              aria-label="Ganti Foto KTP"
              aria-haspopup="dialog"
              onClick={onOpenSheet}
            >
              Ganti
            </button>
          ) : null}
        </div>
      ) : hydrated ? (
        <button type="button" className="btn btn-outline btn-block" aria-haspopup="dialog" onClick={onOpenSheet}>
          {replacing ? "Ganti Foto KTP" : "Upload KTP"}
        </button>
      ) : null}
      <div className={hydrated ? "sr-only" : "ktp-sources"}>
        {replacing && !hydrated ? <p className="ktp-replace">Ganti:</p> : null}
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

/**
 * 'Ganti' or 'Pakai' beside a value the checkout kept (the NIK, the address): a submit of the form
 * as it is, with its intent, so nothing typed is lost and it works without JavaScript.
 */
export function SavedValueButton({
  intent,
  id,
  label,
  children,
}: {
  intent: string;
  id?: string;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <button type="submit" name="intent" value={intent} id={id} aria-label={label} className="btn btn-outline btn-small" formNoValidate>
      {children}
    </button>
  );
}

/** The submit, worded for the incentive or the payment; it waits while the form is on its way or,
 * once JavaScript runs, while the form shows a field's message (spec §5). */
export function CheckoutSubmit({ insentif, showsErrors }: { insentif: boolean; showsErrors: boolean }) {
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
