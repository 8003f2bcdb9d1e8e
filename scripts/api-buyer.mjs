#!/usr/bin/env node
// `npm run api:buyer`: a headless buyer that uses nothing but the JSON API (issue 19) against a
// running store (`npm start`, or the e2e server): registers, activates the account from the e-mail,
// searches, reads a product, uploads a KTP photo, creates an incentive order, and — after the
// operator approves it with the ops CLI (`orders:approve-incentive`, which reaches the running
// server over DATA_DIR/ops.sock) — chooses a virtual account, pays it through the sandbox gateway,
// confirms the delivery with a photo (after `orders:ship`) and reads its balance.
//
// Environment: API_BASE_URL (default http://localhost:$PORT, PORT 3000), DATA_DIR (the server's:
// its outbox/ holds the activation e-mail, ops.sock takes the ops commands; default ./data),
// OUTBOX_KEY (reads /outbox?key=… instead when the outbox folder is not reachable).
// Exit status 0 when the whole purchase went through; the last line is one JSON object.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { apiClient, firstAddress } from "./api-client.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const base = (process.env.API_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
const dataDir = path.resolve(root, process.env.DATA_DIR ?? "data");
// As a client behind the store's proxy (TRUST_PROXY): an address of its own, so the buyer's
// registration and login never count against anyone else's rate limits.
const clientAddress = `198.18.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`;

const started = Date.now();
const steps = [];

function step(name, detail) {
  const line = `${String(((Date.now() - started) / 1000).toFixed(1)).padStart(5)} s  ${name}${detail ? `: ${detail}` : ""}`;
  steps.push(name);
  console.log(line);
}

function fail(message) {
  console.error(`api-buyer: ${message}`);
  console.log(JSON.stringify({ ok: false, error: message, steps, seconds: (Date.now() - started) / 1000 }));
  process.exit(1);
}

/** One call; answers `data`, or stops with the server's message. */
const client = apiClient(base, { "X-Forwarded-For": clientAddress });
const call = (method, pathname, options) => client.call(method, pathname, options).catch((error) => fail(error.message));

/** The activation link's code from the demo outbox (the folder, else the outbox page with its key). */
async function activationCode(email) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const texts = [];
    const folder = path.join(dataDir, "outbox");
    if (fs.existsSync(folder)) {
      for (const file of fs.readdirSync(folder).filter((f) => f.endsWith(".json"))) {
        const mail = JSON.parse(fs.readFileSync(path.join(folder, file), "utf8"));
        if (mail.to === email) texts.push(mail.text);
      }
    } else if (process.env.OUTBOX_KEY) {
      const page = await fetch(`${base}/outbox?key=${encodeURIComponent(process.env.OUTBOX_KEY)}`).then((r) => r.text());
      if (page.includes(email)) texts.push(page.replaceAll("&amp;", "&"));
    }
    for (const text of texts) {
      const match = /verificationCode=([A-Za-z0-9_%-]+)/.exec(text);
      if (match) return decodeURIComponent(match[1]);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fail(`no activation e-mail for ${email} in ${path.join(dataDir, "outbox")}`);
}

/** The operator's part, through the ops CLI (over the running server's socket). */
function ops(...args) {
  // tsx on this same Node (the .bin shim would pick whatever `node` is first on PATH).
  const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const result = spawnSync(process.execPath, [tsx, path.join(root, "scripts", "ops.ts"), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: "utf8",
  });
  if (result.status !== 0) fail(`ops ${args.join(" ")}: ${(result.stderr || result.stdout || "").trim()}`);
  return result.stdout.trim();
}

const photo = async (r, g, b) =>
  new Blob(
    [
      await sharp({ create: { width: 640, height: 400, channels: 3, background: { r, g, b } } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ],
    { type: "image/jpeg" },
  );

async function upload(type, r, g, b) {
  const form = new FormData();
  form.set("file", await photo(r, g, b), `${type}.jpg`);
  form.set("type", type);
  return (await call("POST", "/upload", { form })).path;
}

// ————————————————————————————————————————————— the purchase

const companies = await call("GET", "/company/list");
const email = `api-buyer-${crypto.randomUUID().slice(0, 8)}@example.test`;
const password = `Rahasia-${crypto.randomUUID().slice(0, 8)}`;
const nik = `32${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}${String(crypto.randomInt(0, 1e6)).padStart(6, "0")}`;
const registered = await call("POST", "/auth/register", {
  json: {
    fullname: "Pembeli API",
    username: email.split("@")[0],
    email,
    phoneNo: "081277770000",
    password,
    matchPassword: password,
    nip: `API${crypto.randomInt(1e5, 1e6)}`,
    companyId: companies[0].id,
  },
});
client.token = registered.token;
step("registered", email);

const code = await activationCode(email);
await call("POST", "/auth/play-action-with-secret", { json: { secret: code } });
if (!(await call("GET", "/user/short-info")).verified) fail("still not verified after the activation link");
step("activated from the e-mail");

const found = await call("GET", "/product/page?page=0&size=10&keyword=motor&sort=price:1");
let product = null;
for (const item of found.content) {
  const detail = await call("GET", `/product/detail?id=${item.id}`);
  if (detail.orderable && detail.stock > 0 && detail.promo.some((p) => p.incentive)) {
    product = detail;
    break;
  }
}
if (!product) fail(`no orderable product with the government incentive among ${found.content.length} results for "motor"`);
step("searched and read a product", `${found.total} results; #${product.id} ${product.title}`);

const ktpImageUrl = await upload("ktp", 30, 80, 160);
step("uploaded the KTP", ktpImageUrl);

const address = await firstAddress(call);
const order = await call("POST", "/order/create", {
  headers: { "Idempotency-Key": crypto.randomUUID() },
  json: {
    buyerName: "Pembeli API",
    buyerPhoneNumber: "081277770000",
    buyerEmail: email,
    buyerNik: nik,
    insentif: true,
    buyerDadName: "Ahmad",
    nikValidation: true,
    bbnValidation: true,
    domisiliValidation: true,
    ktpImageUrl,
    note: "Pesanan dari klien API",
    address,
    orderProducts: [{ id: product.id, qty: 1 }],
  },
});
step("created an incentive order", `#${order.orderId}`);

ops("orders:approve-incentive", String(order.orderId));
if ((await call("GET", `/order/detail?orderId=${order.orderId}`)).statusId !== 200)
  fail("the order is not waiting for payment after the approval");
step("approved by the operator (ops CLI)");

const methods = await call("POST", "/payment/methods", { json: { productId: product.id } });
const va = methods.find((m) => m.type === "virtual_account");
if (!va) fail("no virtual-account method");
await call("POST", "/order/set-payment", { json: { id: order.orderId, paymentMethodId: va.id } });
const payment = await call("GET", `/order/open-va?orderId=${order.orderId}`);
if (!payment.vaNo) fail("no VA number");
step("chose a virtual account", `${va.name} ${payment.vaNo}, Rp ${payment.totalAmount}`);

await call("POST", "/payment/sandbox-pay", { json: { orderId: order.orderId } });
const paid = await call("GET", `/order/detail?orderId=${order.orderId}`);
if (paid.statusId !== 300) fail(`after the sandbox payment the order is in ${paid.statusId}, not 300`);
step("paid through the sandbox", paid.statusName);

ops("orders:ship", String(order.orderId), "JNE", `JNE${Date.now()}`);
const proof = await upload("delivery-proof", 40, 140, 60);
const confirmed = await call("POST", "/order/confirm", { json: { orderId: order.orderId, buktiImageUrls: [proof] } });
step("confirmed the delivery with a photo", confirmed.reward ? `reward Rp ${confirmed.reward.amount}` : "no reward");

const { balance } = await call("GET", "/balance/check");
const history = await call("GET", "/balance/history");
if (confirmed.reward && balance !== confirmed.reward.amount) fail(`balance ${balance}, expected the reward ${confirmed.reward.amount}`);
step("read the balance", `Rp ${balance}, ${history.content.length} entr${history.content.length === 1 ? "y" : "ies"}`);

await call("POST", "/auth/logout");
await call("GET", "/user/short-info", { expect: [401] });
client.token = null;
step("logged out (the token no longer works)");

console.log(
  JSON.stringify({
    ok: true,
    email,
    orderId: order.orderId,
    productId: product.id,
    amount: payment.totalAmount,
    balance,
    steps: steps.length,
    seconds: (Date.now() - started) / 1000,
  }),
);
