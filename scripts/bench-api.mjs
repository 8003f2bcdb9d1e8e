#!/usr/bin/env node
// `npm run bench:api`: the JSON API next to the HTML pages that show the same data, in one run on
// one server: GET /api/core/api/v1/product/page beside /res-search (the same search), and
// GET /api/core/api/v1/order/history beside /transaction (the same buyer's orders, signed in with a
// bearer token and with a session cookie).
//
// Builds nothing: it runs the existing build (`npm run build`, or $BUILD_DIR) on a fresh temporary
// DATA_DIR with DEMO_DATA=1, signs the demo account in through both doors, gives it BENCH_ORDERS
// orders through POST /order/create, warms up, then drives the four routes in turns (five rounds, as
// bench:load does) with keep-alive connections.
//
// Environment: BENCH_SECONDS per route (10), BENCH_CONNECTIONS (10), BENCH_ORDERS (12), BENCH_PORT,
// BUILD_DIR. The last line of the output is one JSON object.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { freePort, root, spawnServer, stopServer, waitForHealth } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

await useProjectNode();

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const orderCount = Number(process.env.BENCH_ORDERS ?? 12);
const ROUNDS = 5;
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const DEMO = { email: "demo@pln.co.id", password: "Demo12345!" };
const API = "/api/core/api/v1";

if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
  console.error(`No build in ${buildDir}: run \`npm run build\` first (bench:api builds nothing).`);
  process.exit(1);
}

const port = Number(process.env.BENCH_PORT) || (await freePort());
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-bench-api-"));
const base = `http://127.0.0.1:${port}`;
const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: "1", PAYMENT_GATEWAY: "sandbox", BUILD_DIR: buildDir });
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));

const stop = async () => {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on("SIGINT", () => stop().then(() => process.exit(130)));

async function api(method, pathname, token, json, headers = {}) {
  const response = await fetch(`${base}${API}${pathname}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(json ? { "Content-Type": "application/json" } : {}),
      ...headers,
    },
    body: json ? JSON.stringify(json) : undefined,
  });
  const body = await response.json();
  if (!body.success) throw new Error(`${method} ${pathname}: ${response.status} ${body.message} ${JSON.stringify(body.errors ?? {})}`);
  return body.data;
}

/** The web's login form: the session cookie. */
async function webCookie() {
  const response = await fetch(`${base}/login`, { method: "POST", body: new URLSearchParams(DEMO), redirect: "manual" });
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (response.status !== 302 || !cookie) throw new Error(`web login answered ${response.status}`);
  return cookie;
}

try {
  await waitForHealth(base, server);
  const { token } = await api("POST", "/auth/login", null, DEMO);
  const cookie = await webCookie();

  // The demo buyer's orders: virtual-account orders of the first orderable product, through the API.
  const [va] = (await api("POST", "/payment/methods", token, { totalDiscount: 1 })).filter((m) => m.type === "virtual_account");
  const [provinsi] = await api("GET", "/location/provinsi");
  const [kota] = await api("GET", `/location/kota?provinsiId=${provinsi.id}`);
  const [kecamatan] = await api("GET", `/location/kecamatan?kotaId=${kota.id}`);
  const [kelurahan] = await api("GET", `/location/kelurahan?kecamatanId=${kecamatan.id}`);
  const profile = await api("GET", "/user/my-profile", token);
  const { content } = await api("GET", "/product/page?keyword=motor");
  const form = new FormData();
  const photo = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 80, b: 160 } } })
    .png()
    .toBuffer();
  form.set("file", new Blob([photo], { type: "image/png" }), "ktp.png");
  for (let i = 0; i < orderCount; i++) {
    const product = content[i % content.length];
    const ktp = await fetch(`${base}${API}/upload`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form }).then(
      (r) => r.json(),
    );
    await api(
      "POST",
      "/order/create",
      token,
      {
        buyerName: profile.fullname,
        buyerPhoneNumber: profile.phoneNo.replace(/\D/g, ""),
        buyerEmail: profile.email,
        buyerNik: `32${String(crypto.randomInt(0, 1e14)).padStart(14, "0")}`,
        bbnValidation: true,
        domisiliValidation: true,
        ktpImageUrl: ktp.data?.path,
        address: {
          fullAddress: "Jl. Bench No. 1",
          provinsiId: provinsi.id,
          kotaId: kota.id,
          kecamatanId: kecamatan.id,
          kelurahanId: kelurahan.id,
          kodePos: "40111",
        },
        orderProducts: [{ id: product.id, qty: 1 }],
        paymentMethodId: va.id,
      },
      { "Idempotency-Key": crypto.randomUUID() },
    );
  }
  const history = await api("GET", "/order/history?page=0", token);
  console.log(`server ready; demo buyer signed in through both doors, ${history.total} orders`);

  const ROUTES = {
    apiProducts: { url: `${API}/product/page?page=0&size=10&keyword=motor`, headers: {} },
    htmlSearch: { url: "/res-search?keyword=motor", headers: {} },
    apiHistory: { url: `${API}/order/history?page=0&size=10`, headers: { Authorization: `Bearer ${token}` } },
    htmlTransaction: { url: "/transaction", headers: { Cookie: cookie } },
  };
  for (const route of Object.values(ROUTES)) await load(route, connections, 1);
  const samples = Object.fromEntries(Object.keys(ROUTES).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, route] of Object.entries(ROUTES)) samples[name].push(await load(route, connections, seconds / ROUNDS));
  }
  const results = {};
  for (const [name, route] of Object.entries(ROUTES)) {
    results[name] = summarize(samples[name]);
    console.log(
      `${name.padEnd(16)} ${route.url.padEnd(52)} ${String(results[name].rps).padStart(7)} req/s  p50 ${results[name].p50} ms  p99 ${results[name].p99} ms  ${results[name].bytes} bytes  (${results[name].requests} requests, ${results[name].errors} errors)`,
    );
  }
  const ratio = (a, b) => Math.round((results[a].rps / results[b].rps) * 100) / 100;
  const summary = {
    products: { api: pick(results.apiProducts), html: pick(results.htmlSearch), ratio: ratio("apiProducts", "htmlSearch") },
    history: {
      api: pick(results.apiHistory),
      html: pick(results.htmlTransaction),
      ratio: ratio("apiHistory", "htmlTransaction"),
      orders: history.total,
    },
    errors: Object.values(results).reduce((sum, r) => sum + r.errors, 0),
    connections,
    seconds,
  };
  console.log(`API/HTML requests per second: products ${summary.products.ratio}×, history ${summary.history.ratio}×`);
  await stop();
  console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(serverLog.slice(-4000));
  await stop();
  process.exit(1);
}

function pick(r) {
  return { rps: r.rps, p99: r.p99, bytes: r.bytes };
}

/** `count` keep-alive connections on one route for `duration` seconds; anything but 200 is an error. */
async function load(route, count, duration) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const latencies = [];
  let errors = 0;
  let bytes = 0;
  const endAt = performance.now() + duration * 1000;
  const one = () =>
    new Promise((resolve) => {
      const sent = performance.now();
      const req = http.get(`${base}${route.url}`, { agent, headers: route.headers }, (res) => {
        let size = 0;
        res.on("data", (chunk) => (size += chunk.length));
        res.on("end", () => {
          latencies.push(performance.now() - sent);
          bytes = size;
          if (res.statusCode !== 200) errors++;
          resolve();
        });
        res.on("error", () => (errors++, resolve()));
      });
      req.on("error", () => (errors++, resolve()));
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (performance.now() < endAt) await one();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, elapsed, errors, bytes };
}

function summarize(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const elapsed = runs.reduce((sum, r) => sum + r.elapsed, 0);
  const at = (q) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return {
    rps: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    bytes: runs.at(-1)?.bytes ?? 0,
  };
}
