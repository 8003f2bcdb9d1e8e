import crypto from "node:crypto";
import sharp from "sharp";
import { apiClient, firstAddress } from "../api-client.mjs";

// The signed-in pages the benches measure (bench:lighthouse, bench:size): a session of the demo
// account, an order of it waiting for its VA payment (/payment/{id}), then product 1 chosen for the
// checkout (/checkout; the order used the checkout draft, so the choice comes second).

export const DEMO = { email: "demo@pln.co.id", password: "Demo12345!" };
export const PRODUCT_ID = 1;

/** Prepares the demo account on the store at `base`: its session cookie and its payment page's path. */
export async function prepareSignedInPages(base) {
  const cookie = await signIn(base);
  const orderId = await createVaOrder(base);
  await chooseProduct(base, cookie);
  console.log(`signed in as ${DEMO.email}; order #${orderId} waits for its VA payment; product ${PRODUCT_ID} chosen for the checkout`);
  return { cookie, paymentPath: `/payment/${orderId}` };
}

/** The cookies a response sets, over those of `jar` ("name=value; …"). */
function withCookies(jar, response) {
  const cookies = new Map(jar ? jar.split("; ").map((pair) => [pair.slice(0, pair.indexOf("=")), pair]) : []);
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    if (/expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line)) cookies.delete(name);
    else cookies.set(name, pair);
  }
  return [...cookies.values()].join("; ");
}

/** A form post as the browser sends it from the store's own page (the same-origin check wants Origin). */
function post(base, pathname, cookie, fields) {
  return fetch(base + pathname, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

/** Signs the demo account in through /login; answers its session cookie (after the welcome toast was shown). */
async function signIn(base) {
  const response = await post(base, "/login", "", { email: DEMO.email, password: DEMO.password, redirect: "" });
  await response.arrayBuffer();
  if (response.status !== 302)
    throw new Error(`/login answered ${response.status}, not a redirect: is ${DEMO.email} still the demo account?`);
  let cookie = withCookies("", response);
  // The welcome toast is a flash in the session: read once here, so the measured pages don't show it.
  const home = await fetch(base + "/home", { headers: { Cookie: cookie }, redirect: "manual" });
  await home.arrayBuffer();
  cookie = withCookies(cookie, home);
  return cookie;
}

/** 'Beli Sekarang' on /detail/1: starts the demo account's checkout draft for product 1. */
async function chooseProduct(base, cookie) {
  const response = await post(base, `/detail/${PRODUCT_ID}`, cookie, { intent: "order" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 302 || location !== "/checkout")
    throw new Error(`'Beli Sekarang' on /detail/${PRODUCT_ID} answered ${response.status} ${location ?? ""}, not a redirect to /checkout`);
}

/**
 * A plain order (no incentive) of the demo account paid by virtual account, through the JSON API as
 * scripts/api-buyer.mjs makes one: its payment page shows the VA number and the countdown.
 */
async function createVaOrder(base) {
  const client = apiClient(base);
  const call = client.call;
  client.token = (await call("POST", "/auth/login", { json: DEMO })).token;
  const user = await call("GET", "/user/short-info");
  const photo = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 30, g: 80, b: 160 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const upload = new FormData();
  upload.set("file", new Blob([photo], { type: "image/jpeg" }), "ktp.jpg");
  upload.set("type", "ktp");
  const ktpImageUrl = (await call("POST", "/upload", { form: upload })).path;
  const methods = await call("POST", "/payment/methods", { json: { productId: PRODUCT_ID } });
  const vas = methods.filter((m) => m.type === "virtual_account");
  const va = vas.find((m) => /bni/i.test(`${m.code ?? ""} ${m.name ?? ""}`)) ?? vas[0];
  if (!va) throw new Error(`no virtual-account method for product ${PRODUCT_ID}`);
  const order = await call("POST", "/order/create", {
    headers: { "Idempotency-Key": crypto.randomUUID() },
    json: {
      buyerName: user.fullname ?? "Demo",
      buyerPhoneNumber: "081277770000",
      buyerEmail: DEMO.email,
      buyerNik: "3273010101900001",
      insentif: false,
      bbnValidation: true,
      domisiliValidation: true,
      ktpImageUrl,
      address: await firstAddress(call),
      orderProducts: [{ id: PRODUCT_ID, qty: 1 }],
      paymentMethodId: va.id,
    },
  });
  const payment = await call("GET", `/order/open-va?orderId=${order.orderId}`);
  if (!payment.vaNo) throw new Error(`order #${order.orderId} has no VA number`);
  await call("POST", "/auth/logout");
  return order.orderId;
}
