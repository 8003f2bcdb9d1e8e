import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/paymentmethod";
import { requireUser } from "~/.server/http/auth";
import { clientAddress, readForm } from "~/.server/http/request";
import { getPaymentFlowSummary, payDraft, requestPaylaterOtp } from "~/.server/store/checkout";
import { METHOD_REQUIRED, type PayResult, setOrderPayment } from "~/.server/store/payments";
import { FormError } from "~/components/field";
import { useHydrated } from "~/components/use-hydrated";
import { formatRupiah } from "~/lib/money";
import { cashDiscountLine } from "~/lib/payment-pricing";
import { paylaterFailureUrl, type PaymentFlow, paymentFlowHref, paymentPageHref, readPaymentFlow } from "~/lib/payment-flow";
import type { RouteHandle } from "~/lib/route-handle";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
import paymentStylesUrl from "~/styles/payments.css?url";

export const handle: RouteHandle = { title: "Pembayaran", back: "/checkout" };
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: paymentStylesUrl }];

const CONTINUE = "Bayar Sekarang";
const IDEMPOTENCY_KEY = /^[A-Za-z0-9-]{8,64}$/;

/** Spec §2 Payment summary: the draft, or `?orderId=` of an order in 200 without a method; else /transaction. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const summary = await getPaymentFlowSummary(user.id, flow);
  if (!summary) throw redirect("/transaction");
  return {
    flow: { orderId: flow.orderId, paymentMethodId: flow.paymentMethodId, tenor: flow.tenor } satisfies PaymentFlow,
    summary,
    // A fresh key per render: a double submit of this page makes one order and one payment.
    idempotencyKey: crypto.randomUUID(),
  };
}

function refused(message: string, status = 400) {
  return data({ error: message }, { status });
}

/**
 * 'continue' (spec §4 Payment flow): BRI-CERIA first sends the one-time code and goes to /otp; the
 * others create the order from the draft (payDraft) or set the order's payment (setOrderPayment),
 * then go to /payment/{id} or the gateway's page.
 */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const form = await readForm(request);
  const posted = form.get("idempotencyKey");
  const key = typeof posted === "string" && IDEMPOTENCY_KEY.test(posted) ? posted : crypto.randomUUID();
  const summary = await getPaymentFlowSummary(user.id, flow);

  if (!summary) {
    // The second press of a double submit arrives after the first made the order (the draft is
    // gone, or the order has its method): the same key / the same choice answers with that order.
    const repeat =
      flow.orderId === undefined
        ? await payDraft(user.id, key)
        : await setOrderPayment(user.id, flow.orderId, { paymentMethodId: flow.paymentMethodId, tenor: flow.tenor });
    if (repeat.ok) throw redirect(paymentPageHref(repeat.orderId, repeat.redirectUrl));
    throw redirect("/transaction");
  }
  if (!summary.method) return refused(METHOD_REQUIRED);

  if (PAYMENT_KINDS[summary.method.type].otp) {
    // BRI-CERIA: the code goes to the buyer's phone now; the order is made once it is entered.
    const sent = await requestPaylaterOtp(user.id, flow, new Date(), clientAddress(request));
    // A code sent less than a minute ago is still valid: the buyer enters that one.
    if (!sent.ok && paylaterFailureUrl(sent.message)) throw redirect(paylaterFailureUrl(sent.message)!); // spec §8
    if (!sent.ok && sent.code !== "COOLDOWN") return refused(sent.message, sent.code === "NO_PAYLATER" ? 409 : 400);
    throw redirect(paymentFlowHref("/otp", flow));
  }

  const paid: PayResult =
    flow.orderId === undefined
      ? await payDraft(user.id, key)
      : await setOrderPayment(user.id, flow.orderId, { paymentMethodId: flow.paymentMethodId, tenor: flow.tenor });
  if (!paid.ok) return refused(paid.message, paid.code === "RULE" || paid.code === "NOT_PAYABLE" ? 409 : 400);
  throw redirect(paymentPageHref(paid.orderId, paid.redirectUrl));
}

export default function PaymentSummaryScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, flow, idempotencyKey } = loaderData;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const { method, tenor, breakdown } = summary;
  const ready = method !== null && (!method.needsTenor || tenor !== null);
  const here = paymentFlowHref("/paymentmethod", flow);
  const listHref = paymentFlowHref("/paymentmethodlist", { orderId: flow.orderId, paymentMethodId: flow.paymentMethodId });
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";

  return (
    <div className="pay-screen" data-testid="payment-summary">
      <section className="card pay-total-card">
        <p className="muted">Total Pembayaran</p>
        <p className="pay-total" data-testid="summary-total">
          {formatRupiah(summary.totalPayment)}
        </p>
        {tenor ? (
          <p className="pay-monthly" data-testid="summary-monthly">
            {tenor.label}: <strong>{formatRupiah(tenor.perMonth)}</strong> / bulan
          </p>
        ) : null}
        <p className="muted small">{summary.productTitle}</p>
      </section>

      <section className="card" aria-labelledby="method-heading">
        <h2 id="method-heading">Metode Pembayaran</h2>
        {method ? (
          <div className="pay-method" data-testid="summary-method">
            <img src={method.imageUrl} alt="" width={60} height={25} />
            <div>
              <strong>{method.name}</strong>
              {tenor ? <p className="muted small">Tenor {tenor.tenor} bulan</p> : null}
            </div>
          </div>
        ) : (
          <p className="muted">Belum ada metode pembayaran yang dipilih.</p>
        )}
        {method?.needsTenor && !tenor ? (
          <p className="field-error" role="alert">
            Tenor wajib dipilih
          </p>
        ) : null}
        <div className="pay-method-actions">
          <Link to={listHref} className="btn btn-outline btn-block">
            {method ? "Ubah Metode Pembayaran" : "Pilih Metode Pembayaran"}
          </Link>
          {method?.needsTenor ? (
            <Link
              to={paymentFlowHref("/tenorlist", { orderId: flow.orderId, paymentMethodId: flow.paymentMethodId, tenor: flow.tenor })}
              className="btn btn-outline btn-block"
            >
              {tenor ? "Ubah Tenor" : "Pilih Tenor"}
            </Link>
          ) : null}
        </div>
      </section>

      <section className="card" aria-labelledby="breakdown-heading">
        <h2 id="breakdown-heading">Rincian Pembayaran</h2>
        <dl className="price-lines" data-testid="summary-breakdown">
          <div>
            <dt>Total Harga Barang</dt>
            <dd>{formatRupiah(summary.amount)}</dd>
          </div>
          {breakdown && breakdown.discount > 0 ? (
            <div>
              <dt>{cashDiscountLine(breakdown.discountPercent)}</dt>
              <dd>-{formatRupiah(breakdown.discount)}</dd>
            </div>
          ) : null}
          {breakdown ? (
            <div>
              <dt>Biaya layanan</dt>
              <dd>{formatRupiah(breakdown.fee)}</dd>
            </div>
          ) : null}
          <div className="price-total">
            <dt>Total Pembayaran</dt>
            <dd>{formatRupiah(summary.totalPayment)}</dd>
          </div>
        </dl>
        {method && PAYMENT_KINDS[method.type].transferProof ? (
          <p className="muted small">Kode unik 3 digit ditambahkan ke total saat pembayaran dibuat, agar transfer Anda mudah dikenali.</p>
        ) : null}
        {tenor ? (
          <p className="muted small">
            Cicilan {tenor.label}: {formatRupiah(tenor.perMonth)} per bulan selama {tenor.tenor} bulan, total{" "}
            {formatRupiah(tenor.totalPayment)} dibayar kepada penerbit kartu.
          </p>
        ) : null}
        {method && PAYMENT_KINDS[method.type].otp ? (
          <p className="muted small">Kode OTP akan dikirim ke nomor HP pembeli untuk menyetujui pembayaran BRI Ceria.</p>
        ) : null}
      </section>

      <Form method="post" action={here} className="checkout-bar" replace>
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <FormError errors={actionData?.error ? [actionData.error] : undefined} />
        <p className="checkout-bar-total">
          <span className="muted">Total Pembayaran</span> <strong>{formatRupiah(summary.totalPayment)}</strong>
        </p>
        {/* Without JavaScript the button is always there and the server says what is missing. */}
        <button type="submit" className="btn btn-primary btn-block" disabled={(hydrated && !ready) || submitting}>
          {CONTINUE}
        </button>
      </Form>
    </div>
  );
}
