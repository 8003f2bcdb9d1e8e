import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/paymentmethodlist";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { checkPaymentChoice, listPaymentMethods } from "~/.server/store/payments";
import { chooseDraftMethod, getPaymentFlowSummary, getPaymentSummary } from "~/.server/store/checkout";
import { FormError } from "~/components/field";
import { useHydrated } from "~/components/use-hydrated";
import { formatRupiah } from "~/lib/money";
import { type PaymentFlow, paymentFlowHref, readPaymentFlow } from "~/lib/payment-flow";
import type { RouteHandle } from "~/lib/route-handle";
import paymentStylesUrl from "~/styles/payments.css?url";

export const handle: RouteHandle = { title: "Metode Pembayaran", back: "/paymentmethod" };
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: paymentStylesUrl }];

const INSTALMENT_CODE = "BNI-INSTALLMENT";

/** This screen prices the method alone: a tenor in the address does not apply here. */
const summaryOf = (userId: number, flow: PaymentFlow) => getPaymentFlowSummary(userId, { ...flow, tenor: undefined });

/** Spec §2 Payment method list: the four groups with every method's fee and total for this amount. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const summary = await summaryOf(user.id, flow);
  if (!summary) throw redirect("/transaction");
  return {
    flow: { orderId: flow.orderId, paymentMethodId: flow.paymentMethodId } satisfies PaymentFlow,
    amount: summary.amount,
    chosenId: summary.method?.id ?? null,
    groups: await listPaymentMethods(summary.amount),
  };
}

/** 'Pilih': the draft keeps the method; an order carries it on in the address. BNI-INSTALLMENT goes on to /tenorlist. */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = requireUser(context);
  const flow = readPaymentFlow(url.searchParams);
  if (flow.invalid) throw redirect("/transaction");
  const chosen = (await readForm(request)).get("paymentMethodId");
  if (flow.orderId === undefined) {
    const saved = await chooseDraftMethod(user.id, chosen);
    if (!saved.ok) {
      if (!(await getPaymentSummary(user.id))) throw redirect("/transaction");
      return data({ error: saved.message }, { status: 400 });
    }
    throw redirect(saved.needsTenor ? "/tenorlist" : "/paymentmethod");
  }
  const summary = await summaryOf(user.id, { orderId: flow.orderId });
  if (!summary) throw redirect("/transaction");
  const check = await checkPaymentChoice(summary.amount, chosen, undefined, { requireTenor: false });
  if (!check.ok) return data({ error: check.message }, { status: 400 });
  const next = { orderId: flow.orderId, paymentMethodId: check.method.id };
  throw redirect(paymentFlowHref(check.method.needsTenor ? "/tenorlist" : "/paymentmethod", next));
}

export default function PaymentMethodListScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { groups, flow, amount, chosenId } = loaderData;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [selectedId, setSelectedId] = useState<number | null>(chosenId);
  const methods = groups.flatMap((group) => group.methods);
  const selected = methods.find((m) => m.id === selectedId) ?? null;
  // Without JavaScript the footer shows the saved choice; with it, the one just ticked.
  const total = selected ? selected.totalPayment : amount;

  return (
    <Form method="post" action={paymentFlowHref("/paymentmethodlist", flow)} className="pay-screen pay-method-list" replace>
      {groups.map((group) => (
        <fieldset key={group.name} className="card pay-group" data-testid="method-group">
          <legend className="pay-group-title">
            <span>{group.name}</span>
            {group.badge ? <span className="pay-badge">{group.badge}</span> : null}
          </legend>
          <ul className="pay-options">
            {group.methods.map((method) => (
              <li key={method.id} className="pay-option">
                <label className="pay-option-label">
                  <input
                    type="radio"
                    name="paymentMethodId"
                    value={method.id}
                    defaultChecked={method.id === chosenId}
                    onChange={() => setSelectedId(method.id)}
                  />
                  <img src={method.imageUrl} alt="" width={48} height={20} />
                  <span className="pay-option-text">
                    <span className="pay-option-name">{method.name}</span>
                    <span className="muted small">Biaya layanan {formatRupiah(method.fee)}</span>
                  </span>
                </label>
                {method.code === INSTALMENT_CODE && method.additionalData.applyUrl ? (
                  <a className="pay-apply-link" href={method.additionalData.applyUrl} target="_blank" rel="noopener noreferrer">
                    Belum punya BNI CC? Daftar disini
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        </fieldset>
      ))}

      <div className="checkout-bar">
        <FormError errors={actionData?.error ? [actionData.error] : undefined} />
        <p className="checkout-bar-total">
          <span className="muted">Total Pembayaran</span> <strong data-testid="list-total">{formatRupiah(total)}</strong>
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={(hydrated && !selected) || navigation.state === "submitting"}>
          {hydrated && selected?.needsTenor ? "Lanjut Pilih Tenor" : "Pilih"}
        </button>
      </div>
    </Form>
  );
}
