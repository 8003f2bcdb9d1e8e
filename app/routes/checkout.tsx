import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/checkout";
import { requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { parseOrderId } from "~/.server/http/route-params";
import { flash } from "~/.server/http/session";
import {
  checkEmployeePromo,
  type CheckoutDraft,
  checkoutContextOf,
  getCheckoutDraft,
  NO_DRAFT,
  previousNikOf,
  saveCheckoutForm,
  submitCheckout,
} from "~/.server/store/checkout";
import { getOwnedOrderSummary } from "~/.server/store/orders";
import { maskNik } from "~/.server/store/privacy";
import { isEmptyFile } from "~/.server/images";
import { CheckoutForm, NIK_ANCHOR } from "~/components/checkout-form";
import { Sheet } from "~/components/sheet";
import { parseForm, readFields, replyWithErrors } from "~/lib/forms";
import { type CheckoutContext, checkoutFieldsSchema, checkoutSchema } from "~/lib/schemas/checkout";
import type { RouteHandle } from "~/lib/route-handle";

// Spec §2 Checkout: the page and its form's door. The form is app/components/checkout-form.tsx; what
// a submit does (the draft, the KTP photo, the form's rules, the order) is the store's checkout
// workflow (store/checkout submitCheckout), the same one the API's /order/create calls.

export const handle: RouteHandle = { title: "Checkout", back: "/home" };

/** Where the success sheet of an incentive order is rendered (server-side, so it needs no JavaScript). */
const DONE_PARAM = "selesai";

/** The draft's values as the form's strings (a ticked box is "on"); an offered NIK is not among them (it is shown masked). */
function formDefaults(values: CheckoutDraft["values"]): Record<string, string | undefined> {
  const defaults: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === "nikSaved" || (name === "buyerNik" && values.nikSaved)) continue;
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
    const orderId = parseOrderId(done);
    const order = orderId ? await getOwnedOrderSummary(orderId, user.id) : null;
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
  const values = formDefaults(draft.values);
  // After 'Ganti' the offered NIK stays one press away ('Pakai NIK sebelumnya', issue 43 item 8).
  const previousNik = draft.values.nikSaved ? null : await previousNikOf(user.id);
  return {
    screen: "form" as const,
    product: draft.product,
    values,
    // Only that a photo is kept: the card carries the NIK in print, so the page never shows it, nor
    // gets its upload's address (issue 43 item 8). The key tells one kept photo from the next.
    ktp: draft.ktp ? { key: await keyOf(draft.ktp.id) } : null,
    // The previous order's NIK, offered again (issue 38): only its mask reaches the page.
    savedNik: draft.values.nikSaved && draft.values.buyerNik ? maskNik(draft.values.buyerNik) : null,
    previousNik: previousNik ? maskNik(previousNik) : null,
    buyerDataMissing: buyerDataMissing(values, checkoutContextOf(draft, employeePromo !== null)),
    address: draft.address,
    employeePromo,
    // A fresh key per render of the form: a double submit of this render makes one order.
    idempotencyKey: crypto.randomUUID(),
  };
}

/** The fields the yellow 'Lengkapi data…' note is about: the buyer's data and the address. */
const BUYER_DATA = ["buyerName", "buyerPhoneNumber", "buyerEmail", "buyerNik", "buyerNip", "ktp", "address", "buyerDadName"];

/**
 * Whether the draft lacks (or holds a wrong) piece of the buyer's data or the address, by the
 * checkout's own rules: the note shows only then, not on a second checkout whose data all came
 * filled in (issue 43 item 8). The statements are not the note's business (their boxes say so).
 */
function buyerDataMissing(values: Record<string, string | undefined>, context: CheckoutContext): boolean {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) form.append(name, value);
  const checked = parseForm(form, checkoutSchema(context));
  return checked.status === "error" && Object.keys(checked.error ?? {}).some((name) => BUYER_DATA.includes(name));
}

/** A kept photo's key for the page: from its upload id, which it does not reveal. */
async function keyOf(uploadId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(uploadId));
  return Buffer.from(digest).toString("base64url").slice(0, 12);
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9-]{8,64}$/;

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const noDraft = () => {
    flash(context, "toast", { type: "danger", message: NO_DRAFT });
    return redirect("/home");
  };
  // With JavaScript the form posts here in the background on every change (debounced): what was
  // typed is kept, nothing is validated, the page stays (spec §4: "any change is saved to a draft").
  // Without a draft there is nothing to save into: it says so and goes nowhere.
  // The store takes the form's fields as the one schema both doors read them with.
  const fields = readFields(form, checkoutFieldsSchema);
  if (intent === "draft")
    return (await saveCheckoutForm(user, fields)) ? data({ draftSaved: true }) : data({ draftSaved: false }, { status: 404 });

  // 'Kamera' or 'Galeri': the one input that holds a file.
  const picked = form.getAll("ktp").find((value) => !isEmptyFile(value));
  form.delete("ktp");
  const ktp = picked instanceof File ? { file: picked } : null;
  // 'Isi Alamat' (or the address's 'Ganti') is a button of this form: the draft and a picked photo are kept, nothing is validated.
  if (intent === "address") throw (await saveCheckoutForm(user, fields, ktp)) ? redirect("/address") : noDraft();
  // 'Ganti' beside the offered NIK: the form is kept as it is, and comes back with an empty NIK field,
  // scrolled to it (not to the top of the page, issue 43 item 8); 'Pakai NIK sebelumnya' is the way back.
  if (intent === "nik")
    throw (await saveCheckoutForm(user, fields, ktp, { forgetSavedNik: true })) ? redirect(`/checkout#${NIK_ANCHOR}`) : noDraft();
  if (intent === "nik-saved")
    throw (await saveCheckoutForm(user, fields, ktp, { useSavedNik: true })) ? redirect(`/checkout#${NIK_ANCHOR}`) : noDraft();

  const keyValue = form.get("idempotencyKey");
  const idempotencyKey = typeof keyValue === "string" && IDEMPOTENCY_KEY.test(keyValue) ? keyValue : crypto.randomUUID();
  const result = await submitCheckout({ buyer: user, idempotencyKey, fields, ktp });
  // Spec §4: with the incentive the order is made now (status 100) and the success sheet opens (so
  // does the second press of a double submit: the same key finds that order); otherwise the payment
  // method is chosen next, where the order is made.
  if (result.ok) throw redirect(result.next === "done" ? `/checkout?${DONE_PARAM}=${result.orderId}` : "/paymentmethod");
  if (result.status === 404) throw noDraft();
  // Field errors next to their fields; a refusal of the order as a whole above the form.
  const { product: formErrors, ...fieldErrors } = result.errors;
  return data({ reply: replyWithErrors(form, { formErrors, fieldErrors }) }, { status: result.status });
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
