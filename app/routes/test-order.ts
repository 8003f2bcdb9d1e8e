import { data, type ActionFunctionArgs } from "react-router";
import { readForm } from "~/.server/http/request";
import { getUser } from "~/.server/http/session";
import { testDoorNotFound as notFound, testDoorOpen } from "~/.server/http/test-door";
import { isEmptyFile } from "~/.server/images";
import { readFields } from "~/lib/forms";
import { checkoutFieldsSchema } from "~/lib/schemas/checkout";
import { listDistricts, listProvinces, listRegencies, listVillages, submitCheckout } from "~/.server/store/checkout";
import { listPaymentMethods } from "~/.server/store/payments";

/**
 * The end-to-end tests' second precondition (issue 44, decision 0066): POST /__test/order makes an
 * order of the signed-in buyer with the store's one checkout workflow, `submitCheckout`, exactly as
 * the JSON API's POST /order/create does ('Beli Sekarang', the checkout form's fields and KTP photo,
 * the address, then the payment method), so every rule of the checkout holds for it. A spec about
 * what happens to an order (its list and detail, the back office's decisions, refunds, data rights)
 * starts from it; the checkout's and the payment's screens are driven by checkout.spec.ts and
 * payment.spec.ts. No SQL of its own; 404 without STORE_TEST_DOOR=1, as /__test/account.
 *
 * Form fields (multipart): productId; the checkout form's own fields as it posts them (buyerName,
 * buyerPhoneNumber, buyerEmail, buyerNik, insentif, buyerDadName, nikValidation, bbnValidation,
 * domisiliValidation, ajukanInsentifPegawai…); ktp (a photo); method (a payment method's code, e.g.
 * BNI-VA or BNI-TRANSFER, among those /paymentmethod lists; for an order without the incentive); tenor. The address is Jl. Asia
 * Afrika No. 1 in the first district and village of Kota Bandung, Jawa Barat (what the specs pick
 * on /address). Answers JSON {orderId}, or the checkout's refusal with its status.
 */
export function loader() {
  return notFound();
}

const ADDRESS = { province: "Jawa Barat", regency: "Kota Bandung", fullAddress: "Jl. Asia Afrika No. 1", kodePos: "40111" };

async function testAddress() {
  const province = (await listProvinces()).find((area) => area.name === ADDRESS.province);
  const regency = province && (await listRegencies(province.id)).find((area) => area.name === ADDRESS.regency);
  const [district] = regency ? await listDistricts(regency.id) : [];
  const [village] = district ? await listVillages(district.id) : [];
  if (!province || !regency || !district || !village) throw new Error("the reference areas lack Kota Bandung");
  return {
    fullAddress: ADDRESS.fullAddress,
    provinsiId: province.id,
    kotaId: regency.id,
    kecamatanId: district.id,
    kelurahanId: village.id,
    kodePos: ADDRESS.kodePos,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!testDoorOpen()) return notFound();
  const user = getUser(context);
  if (!user) return data({ error: "sign in first (POST /__test/account)" }, { status: 401 });
  const form = await readForm(request);
  const picked = form.getAll("ktp").find((value) => !isEmptyFile(value));
  form.delete("ktp");
  const productId = Number(form.get("productId"));
  const methodCode = String(form.get("method") ?? "");
  form.delete("method");
  let methodId: number | undefined;
  if (methodCode) {
    // Among the methods /paymentmethod lists (the list already leaves out what is switched off).
    const methods = (await listPaymentMethods(0)).flatMap((group) => group.methods);
    methodId = methods.find((method) => method.code === methodCode)?.id;
    if (methodId === undefined) return data({ error: `no payment method ${methodCode} on offer` }, { status: 400 });
  }
  const result = await submitCheckout({
    buyer: user,
    idempotencyKey: crypto.randomUUID(),
    fields: readFields(form, checkoutFieldsSchema),
    ktp: picked instanceof File ? { file: picked } : null,
    start: { productId, address: await testAddress() },
    payment: methodId === undefined ? undefined : { methodId, tenor: form.get("tenor") ?? undefined },
  });
  if (!result.ok) return data({ error: result.message, errors: result.errors }, { status: result.status });
  if (result.next !== "done") return data({ error: "no payment method given for an order without the incentive" }, { status: 400 });
  return data({ orderId: result.orderId });
}
