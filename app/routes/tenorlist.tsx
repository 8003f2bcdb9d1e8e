import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/tenorlist";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { checkPaymentChoice, listTenorOptions } from "~/.server/store/payments";
import { chooseDraftTenor, getPaymentFlowSummary, getPaymentSummary } from "~/.server/store/checkout";
import { FormError } from "~/components/field";
import { useHydrated } from "~/components/use-hydrated";
import { formatRupiah } from "~/lib/money";
import { type PaymentFlow, paymentFlowHref, readPaymentFlow } from "~/lib/payment-flow";
import type { RouteHandle } from "~/lib/route-handle";
import paymentStylesUrl from "~/styles/payments.css?url";

export const handle: RouteHandle = { title: "Pilih Tenor", back: "/paymentmethodlist" };
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: paymentStylesUrl }];

/** Spec §2 Tenor list: the tenors of the chosen instalment method; any other method goes back to the list. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const summary = await getPaymentFlowSummary(user.id, flow);
  if (!summary) throw redirect("/transaction");
  const options = summary.method ? await listTenorOptions(summary.amount, summary.method.id) : null;
  if (!summary.method || !options) throw redirect(paymentFlowHref("/paymentmethodlist", { orderId: flow.orderId }));
  return {
    flow: { orderId: flow.orderId, paymentMethodId: flow.paymentMethodId } satisfies PaymentFlow,
    method: { name: summary.method.name, imageUrl: summary.method.imageUrl, applyUrl: summary.method.additionalData.applyUrl },
    methodTotal: summary.method.totalPayment,
    chosenTenor: summary.tenor?.tenor ?? null,
    options,
  };
}

/** 'Pilih': 'Tenor wajib dipilih' without a choice; then back to the payment summary. */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const tenor = (await readForm(request)).get("tenor");
  if (flow.orderId === undefined) {
    const saved = await chooseDraftTenor(user.id, tenor);
    if (saved.ok) throw redirect("/paymentmethod");
    if (saved.field === "tenor") return data({ error: saved.message }, { status: 400 });
    throw redirect((await getPaymentSummary(user.id)) ? "/paymentmethodlist" : "/transaction");
  }
  const summary = await getPaymentFlowSummary(user.id, { orderId: flow.orderId });
  if (!summary) throw redirect("/transaction");
  const check = await checkPaymentChoice(summary.amount, flow.paymentMethodId, tenor);
  if (!check.ok && check.field === "tenor") return data({ error: check.message }, { status: 400 });
  if (!check.ok || !check.tenor) throw redirect(paymentFlowHref("/paymentmethodlist", { orderId: flow.orderId }));
  throw redirect(paymentFlowHref("/paymentmethod", { orderId: flow.orderId, paymentMethodId: check.method.id, tenor: check.tenor.tenor }));
}

export default function TenorListScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { options, method, flow, chosenTenor, methodTotal } = loaderData;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [selected, setSelected] = useState<number | null>(chosenTenor);
  const option = options.find((o) => o.tenor === selected) ?? null;

  return (
    <Form method="post" action={paymentFlowHref("/tenorlist", flow)} className="pay-screen" replace>
      <fieldset className="card pay-group">
        <legend className="pay-group-title">
          <span className="pay-method">
            <img src={method.imageUrl} alt="" width={48} height={20} />
            <span>{method.name}</span>
          </span>
        </legend>
        <ul className="pay-options">
          {options.map((o) => (
            <li key={o.tenor} className="pay-option">
              <label className="pay-option-label">
                <input
                  type="radio"
                  name="tenor"
                  value={o.tenor}
                  defaultChecked={o.tenor === chosenTenor}
                  onChange={() => setSelected(o.tenor)}
                />
                <span className="pay-option-text">
                  <span className="pay-option-name">{o.label}</span>
                  <span className="muted small">
                    {formatRupiah(o.perMonth)} / bulan · total {formatRupiah(o.totalPayment)}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {method.applyUrl ? (
          <a className="pay-apply-link" href={method.applyUrl} target="_blank" rel="noopener noreferrer">
            Belum punya BNI CC? Daftar disini
          </a>
        ) : null}
      </fieldset>

      <div className="checkout-bar">
        <FormError errors={actionData?.error ? [actionData.error] : undefined} />
        <p className="checkout-bar-total">
          <span className="muted">Total Pembayaran</span>{" "}
          <strong data-testid="tenor-total">{formatRupiah(option ? option.totalPayment : methodTotal)}</strong>
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={(hydrated && !option) || navigation.state === "submitting"}>
          Pilih
        </button>
      </div>
    </Form>
  );
}
