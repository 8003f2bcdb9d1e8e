import { Form } from "react-router";
import type { DecisionFieldErrors } from "~/.server/store/back-office";
import { COURIER_NAME_MAX, REASON_MAX, TRACKING_MAX, type decisionsFrom, type OpsDecision } from "~/lib/ops-decisions";

// The 'Keputusan' card of /ops/orders/:id: one form per decision the order's status offers (the
// table in ~/lib/ops-decisions), drawn by its kind: a button with what was checked, a rejection
// with its 'Alasan', or the shipping form. Each posts its `intent`; a refused one comes back in
// `failed` with the operator's values and the field errors.

/** What the action answers when a decision was not applied. */
export type DecisionFailure = {
  intent: OpsDecision | null;
  errors: DecisionFieldErrors;
  values: Record<string, string>;
  conflict: string | null;
};

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="ops-error" id={id}>
      {message}
    </p>
  ) : null;
}

export function DecisionForms({
  decisions,
  couriers,
  failed,
}: {
  decisions: ReturnType<typeof decisionsFrom>;
  couriers: readonly string[];
  failed: DecisionFailure | undefined;
}) {
  const errorsFor = (intent: OpsDecision): DecisionFieldErrors => (failed?.intent === intent ? failed.errors : {});
  const valueOf = (intent: OpsDecision, field: string) => (failed?.intent === intent ? (failed.values[field] ?? "") : "");
  return (
    <section className="ops-card" aria-labelledby="decision-heading">
      <h2 id="decision-heading">Keputusan</h2>
      <div className="ops-decisions">
        {decisions.map(({ intent, kind, label, hint, reasonLabel, asksMoneyReceived }) => {
          const errors = errorsFor(intent);
          // A status may offer two rejections (302: upload again, or for good): each its own field ids.
          const reasonId = `${intent}-reason`;
          return (
            <Form key={intent} method="post" className="ops-form">
              <input type="hidden" name="intent" value={intent} />
              {kind === "approve" ? (
                <>
                  <p className="ops-muted">{hint}</p>
                  <button type="submit" className="ops-btn">
                    {label}
                  </button>
                </>
              ) : kind === "reject" ? (
                <>
                  <label htmlFor={reasonId}>{reasonLabel}</label>
                  <textarea
                    id={reasonId}
                    name="reason"
                    maxLength={REASON_MAX}
                    defaultValue={valueOf(intent, "reason")}
                    className={errors.reason ? "is-invalid" : undefined}
                    aria-invalid={errors.reason ? true : undefined}
                    aria-describedby={errors.reason ? `${reasonId}-error` : undefined}
                  />
                  <FieldError id={`${reasonId}-error`} message={errors.reason} />
                  {asksMoneyReceived ? (
                    // Every rejection of a proof says whether the money arrived (issue 45 item 1): no default.
                    <fieldset
                      className="ops-check"
                      aria-invalid={errors.moneyReceived ? true : undefined}
                      aria-describedby={errors.moneyReceived ? `${intent}-money-error` : undefined}
                    >
                      <legend>Apakah dana sudah masuk ke rekening toko?</legend>
                      <label>
                        <input type="radio" name="moneyReceived" value="yes" defaultChecked={valueOf(intent, "moneyReceived") === "yes"} />{" "}
                        Dana diterima (tim keuangan mengonfirmasi jumlahnya, lalu dana dikembalikan ke pembeli)
                      </label>
                      <label>
                        <input type="radio" name="moneyReceived" value="no" defaultChecked={valueOf(intent, "moneyReceived") === "no"} />{" "}
                        Dana belum diterima
                      </label>
                      <FieldError id={`${intent}-money-error`} message={errors.moneyReceived} />
                    </fieldset>
                  ) : null}
                  <button type="submit" className="ops-btn ops-btn-danger">
                    {label}
                  </button>
                </>
              ) : (
                <>
                  <label htmlFor="courier">Kurir</label>
                  <select
                    id="courier"
                    name="courier"
                    defaultValue={valueOf(intent, "courier")}
                    aria-invalid={errors.courier ? true : undefined}
                    aria-describedby={errors.courier ? "courier-error" : undefined}
                  >
                    <option value="">Pilih kurir</option>
                    {couriers.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                  <FieldError id="courier-error" message={errors.courier} />
                  <label htmlFor="courierOther">Nama Kurir (jika Lainnya)</label>
                  <input
                    type="text"
                    id="courierOther"
                    name="courierOther"
                    maxLength={COURIER_NAME_MAX}
                    defaultValue={valueOf(intent, "courierOther")}
                    aria-invalid={errors.courierOther ? true : undefined}
                    aria-describedby={errors.courierOther ? "courier-other-error" : undefined}
                  />
                  <FieldError id="courier-other-error" message={errors.courierOther} />
                  <label htmlFor="trackingNumber">Nomor Resi</label>
                  <input
                    type="text"
                    id="trackingNumber"
                    name="trackingNumber"
                    maxLength={TRACKING_MAX}
                    defaultValue={valueOf(intent, "trackingNumber")}
                    aria-invalid={errors.trackingNumber ? true : undefined}
                    aria-describedby={errors.trackingNumber ? "tracking-error" : undefined}
                  />
                  <FieldError id="tracking-error" message={errors.trackingNumber} />
                  <button type="submit" className="ops-btn">
                    {label}
                  </button>
                </>
              )}
            </Form>
          );
        })}
      </div>
    </section>
  );
}
