import { useCallback, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/otp";
import { requireUser } from "~/.server/http/auth";
import { formatDateTimeWib } from "~/.server/dates";
import { clientAddress, readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { getOtpState, OTP_WRONG, validateOtp } from "~/.server/store/payments";
import { getPaymentFlowSummary, getPaymentSummary, paylaterPhone, payDraft, requestPaylaterOtp } from "~/.server/store/checkout";
import { type PayResult, setOrderPayment } from "~/.server/store/payments";
import { Countdown } from "~/components/countdown";
import { FieldError, FormError } from "~/components/field";
import { useHydrated } from "~/components/use-hydrated";
import { paylaterFailureUrl, type PaymentFlow, paymentFlowHref, paymentPageHref, readPaymentFlow } from "~/lib/payment-flow";
import type { RouteHandle } from "~/lib/route-handle";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
import paymentStylesUrl from "~/styles/payments.css?url";

export const handle: RouteHandle = { title: "Kode OTP", back: "/paymentmethod" };
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: paymentStylesUrl }];

const IDEMPOTENCY_KEY = /^[A-Za-z0-9-]{8,64}$/;
const CODE_SENT = "Kode OTP telah dikirim.";
/** Spec §3, §9: the code has 4 digits (the store checks the same). */
const OTP_LENGTH = 4;

/** This screen prices the method alone: a tenor in the address does not apply here. */
const summaryOf = (userId: number, flow: PaymentFlow) => getPaymentFlowSummary(userId, { ...flow, tenor: undefined });

/** 0812****7890: enough to recognise one's own number. */
function maskPhone(phone: string) {
  return phone.length > 8 ? `${phone.slice(0, 4)}${"*".repeat(phone.length - 8)}${phone.slice(-4)}` : phone;
}

/** The BRI-CERIA one-time code (spec §2 /otp, §5 OTP): only while a paylater payment is being chosen. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const summary = await summaryOf(user.id, flow);
  if (!summary) throw redirect("/transaction");
  if (!summary.method || !PAYMENT_KINDS[summary.method.type].otp) throw redirect(paymentFlowHref("/paymentmethod", flow));
  const phone = await paylaterPhone(user.id, flow);
  const state = await getOtpState(user.id);
  // A code sent to another number (an earlier checkout) is not this one.
  const code = state && phone && state.phone === phone ? state : null;
  const now = new Date();
  return {
    flow: { orderId: flow.orderId, paymentMethodId: flow.paymentMethodId } satisfies PaymentFlow,
    phone: phone ? maskPhone(phone) : "-",
    code: code
      ? {
          expiresAt: formatDateTimeWib(code.expiresAt),
          resendAt: code.resendAvailableAt.toISOString(),
          resendAtText: formatDateTimeWib(code.resendAvailableAt),
          resendWaiting: code.resendAvailableAt > now,
        }
      : null,
    now: now.toISOString(),
    idempotencyKey: crypto.randomUUID(),
  };
}

/** The order of this page's earlier submit, when a double submit's second press finds the code used. */
async function earlierPayment(userId: number, flow: PaymentFlow, key: string): Promise<PayResult | null> {
  if (flow.orderId === undefined) return (await getPaymentSummary(userId)) ? null : payDraft(userId, key);
  return (await summaryOf(userId, flow)) ? null : setOrderPayment(userId, flow.orderId, { paymentMethodId: flow.paymentMethodId });
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const here = paymentFlowHref("/otp", flow);
  const form = await readForm(request);
  const summary = await summaryOf(user.id, flow);

  if (form.get("intent") === "send") {
    if (!summary?.method || !PAYMENT_KINDS[summary.method.type].otp) throw redirect(paymentFlowHref("/paymentmethod", flow));
    // Only to the phone of what waits for this code (issue 45 item 10): the store decides, not the form.
    const sent = await requestPaylaterOtp(user.id, flow, new Date(), clientAddress(request));
    if (!sent.ok && paylaterFailureUrl(sent.message)) throw redirect(paylaterFailureUrl(sent.message)!);
    if (!sent.ok)
      return data(
        { formError: sent.message, codeError: null },
        { status: sent.code === "COOLDOWN" || sent.code === "TOO_MANY" ? 429 : sent.code === "NO_PAYLATER" ? 409 : 400 },
      );
    flash(context, "toast", { type: "success", message: CODE_SENT });
    throw redirect(here);
  }

  const posted = form.get("idempotencyKey");
  const key = typeof posted === "string" && IDEMPOTENCY_KEY.test(posted) ? posted : crypto.randomUUID();
  const typed = form.get("otp");
  const checked = await validateOtp(user.id, typeof typed === "string" ? typed : "");
  if (!checked.ok) {
    const earlier = checked.message === OTP_WRONG ? await earlierPayment(user.id, flow, key) : null;
    if (earlier?.ok) throw redirect(paymentPageHref(earlier.orderId, earlier.redirectUrl));
    if (!summary) throw redirect("/transaction");
    return data({ formError: null, codeError: checked.message }, { status: checked.retryAfterSeconds ? 429 : 400 });
  }
  // The code is right: the order is made (or its payment set) with the code's one-use secret.
  const paid =
    flow.orderId === undefined
      ? await payDraft(user.id, key, { otpSecretId: checked.secretId })
      : await setOrderPayment(user.id, flow.orderId, { paymentMethodId: flow.paymentMethodId, otpSecretId: checked.secretId });
  if (paid.ok) throw redirect(paymentPageHref(paid.orderId, paid.redirectUrl));
  // Spec §8: a paylater failure whose message is a URL sends the browser there.
  const failureUrl = paylaterFailureUrl(paid.message);
  if (failureUrl) throw redirect(failureUrl);
  flash(context, "toast", { type: "danger", message: paid.message });
  throw redirect(summary ? paymentFlowHref("/paymentmethod", flow) : "/transaction");
}

export default function OtpScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { flow, phone, code, now, idempotencyKey } = loaderData;
  const here = paymentFlowHref("/otp", flow);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";

  return (
    <div className="pay-screen pay-page otp-screen">
      <section className="card">
        <h2>Verifikasi BRI Ceria</h2>
        {code ? (
          <p>
            Masukkan {OTP_LENGTH} digit kode OTP yang dikirim lewat SMS ke nomor <strong>{phone}</strong>. Kode berlaku sampai{" "}
            <strong>{code.expiresAt}</strong>.
          </p>
        ) : (
          <p>
            Kirim kode OTP ke nomor <strong>{phone}</strong> untuk menyetujui pembayaran dengan BRI Ceria.
          </p>
        )}
        <FormError errors={actionData?.formError ? [actionData.formError] : undefined} />

        {code ? (
          <Form method="post" action={here} className="otp-form" replace>
            <input type="hidden" name="intent" value="verify" />
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <div className="field">
              <label htmlFor="otp">Kode OTP</label>
              <input
                type="text"
                id="otp"
                name="otp"
                className={`otp-input${actionData?.codeError ? " is-invalid" : ""}`}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{4}"
                maxLength={OTP_LENGTH}
                required
                aria-invalid={actionData?.codeError ? true : undefined}
                aria-describedby="otp-error"
              />
              <FieldError id="otp-error" errors={actionData?.codeError ? [actionData.codeError] : undefined} />
            </div>
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              Verifikasi
            </button>
          </Form>
        ) : null}
      </section>

      <ResendForm key={code?.resendAt ?? "none"} here={here} code={code} now={now} busy={busy} />
    </div>
  );
}

/** 'Kirim Ulang Kode': the wait as an absolute time plus the time left (ticking with JavaScript). */
function ResendForm({
  here,
  code,
  now,
  busy,
}: {
  here: string;
  code: Route.ComponentProps["loaderData"]["code"];
  now: string;
  busy: boolean;
}) {
  const hydrated = useHydrated();
  const [waitOver, setWaitOver] = useState(!code?.resendWaiting);
  const endWait = useCallback(() => setWaitOver(true), []);
  return (
    <Form method="post" action={here} className="card otp-resend" replace>
      <input type="hidden" name="intent" value="send" />
      {code?.resendWaiting && !(hydrated && waitOver) ? (
        <p className="muted small" data-testid="otp-resend-wait">
          Kode baru dapat dikirim ulang pukul {code.resendAtText} (dalam{" "}
          <Countdown until={code.resendAt} renderedAt={now} onDone={endWait} />
          ).
        </p>
      ) : null}
      {/* Without JavaScript the button is always there; the server refuses during the wait. */}
      <button type="submit" className="btn btn-outline btn-block" disabled={busy || (hydrated && !waitOver)}>
        {code ? "Kirim Ulang Kode" : "Kirim Kode OTP"}
      </button>
    </Form>
  );
}
