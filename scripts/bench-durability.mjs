// npm run bench:durability — does an acknowledged write survive `kill -9` of the server? (PGlite)
//
// NEEDS A BUILD: run `npm run build` (or BUILD_DIR=… npx react-router build) first; the script uses
// BUILD_DIR (default build) and stops with a message when it is missing.
//
// One PGlite DATA_DIR (temporary), ROUNDS rounds (default 20) of:
//   1. start the production server (node server.js, demo data) and wait for /healthz;
//   2. over HTTP as the verified demo account: 'Beli Sekarang' on an incentive product (POST
//      /detail/{id}), the address (POST /address), the checkout form with a KTP photo (POST /checkout)
//      → the order is made (status 100) and the answer names it: acknowledged write A;
//   3. through the server's ops socket (what `npm run ops` uses while the server runs):
//      orders:approve-incentive A (100 → 200) → exit 0: acknowledged write B;
//   4. a second order over HTTP the same way → acknowledged write C, and `kill -9` of the server
//      the moment its response arrives (no clean shutdown, no chance to flush anything later);
//   5. restart on the same DATA_DIR and check through the socket (orders:list) that A is in 200
//      and C exists in 100.
// A round "survived" when all three acknowledged writes are there; "restarted" counts the restarts
// that came up (healthz within RESTART_TIMEOUT_MS). Prints one line per round and, as the LAST line,
// one JSON object {"rounds", "survived", "restarted"}. Exit 0 when every round survived.
//
// Environment: ROUNDS (20), PORT (3490), BUILD_DIR (build), KEEP_DATA=1 keeps the data directory.
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { root, spawnServer } from "./lib.mjs";
import { useProjectNode } from "./node-runtime.mjs";

// Measured on the Node the store runs on (24), also where the system Node is older.
await useProjectNode();

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const PORT = Number(process.env.PORT ?? 3490);
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const BASE = `http://localhost:${PORT}`;
const START_TIMEOUT_MS = 300_000; // the first start creates the database and loads every area of Indonesia
const RESTART_TIMEOUT_MS = 180_000;
const DEMO = { email: "demo@pln.co.id", password: "Demo12345!" };
// A real address chain (Kota Bandung, Sumur Bandung, Sukarasa) from idn-area-data.
const ADDRESS = {
  fullAddress: "Jl. Asia Afrika No. 63",
  provinsiId: "32",
  kotaId: "32.73",
  kecamatanId: "32.73.01",
  kelurahanId: "32.73.01.1001",
  kodePos: "40111",
};

if (!fs.existsSync(path.join(root, BUILD_DIR, "server", "index.js"))) {
  console.error(`bench:durability needs a production build in ${BUILD_DIR}/: run \`npm run build\` first.`);
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-durability-"));
const socketPath = path.join(dataDir, "ops.sock");
let server = null;
let serverLog = "";

function startServer() {
  serverLog = "";
  const child = spawnServer({
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DEMO_DATA: "1",
    PAYMENT_GATEWAY: "sandbox",
    BUILD_DIR,
    DATABASE_URL: "",
    SMTP_URL: "",
  });
  const keep = (chunk) => void (serverLog = (serverLog + chunk).slice(-4000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  server = child;
  return child;
}

async function waitHealthy(child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      const res = await fetch(`${BASE}/healthz`);
      if (res.ok && fs.existsSync(socketPath)) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function kill9(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

// --- HTTP as a browser without JavaScript would do it: forms, cookies, redirects by hand ---------
const jar = new Map();
function remember(res) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

async function request(method, pathname, body) {
  const res = await fetch(`${BASE}${pathname}`, {
    method,
    body,
    redirect: "manual",
    headers: { cookie: cookieHeader(), origin: BASE, "sec-fetch-site": "same-origin" },
  });
  remember(res);
  await res.arrayBuffer();
  return res;
}

const form = (fields) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
};

async function login() {
  const res = await request("POST", "/login", form({ ...DEMO, redirect: "/home" }));
  if (res.status !== 302) throw new Error(`login answered ${res.status}`);
}

// A small real PNG (the server checks the bytes and re-encodes with sharp).
const { default: sharp } = await import("sharp");
const ktpPng = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 210, b: 230 } } })
  .png()
  .toBuffer();
const randomNik = () => `32${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}${String(crypto.randomInt(0, 1e6)).padStart(6, "0")}`;

/** 'Beli Sekarang' → address → checkout with the incentive; returns the new order's id (status 100). */
async function orderOverHttp(productId) {
  const buy = await request("POST", `/detail/${productId}`, form({ intent: "order" }));
  if (buy.status !== 302 || buy.headers.get("location") !== "/checkout")
    throw new Error(`Beli Sekarang answered ${buy.status} ${buy.headers.get("location")}`);
  const address = await request("POST", "/address", form({ intent: "simpan", ...ADDRESS }));
  if (address.status !== 302) throw new Error(`address answered ${address.status}`);
  const fields = form({
    buyerName: "Demo Pegawai",
    buyerPhoneNumber: "081234567890",
    buyerEmail: DEMO.email,
    buyerNik: randomNik(),
    insentif: "on",
    buyerDadName: "Ahmad",
    nikValidation: "on",
    bbnValidation: "on",
    domisiliValidation: "on",
    idempotencyKey: crypto.randomUUID(),
    note: "",
  });
  fields.append("ktp", new File([ktpPng], "ktp.png", { type: "image/png" }));
  const checkout = await request("POST", "/checkout", fields);
  const id = Number(new URL(checkout.headers.get("location") ?? "/", BASE).searchParams.get("selesai"));
  if (checkout.status !== 302 || !id) throw new Error(`checkout answered ${checkout.status} ${checkout.headers.get("location")}`);
  return id;
}

// --- the ops socket (the same protocol as `npm run ops` while the server runs) ------------------
function ops(...argv) {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let received = "";
    conn.setEncoding("utf8");
    conn.on("connect", () => conn.write(`${JSON.stringify({ argv })}\n`));
    conn.on("data", (chunk) => void (received += chunk));
    conn.on("error", reject);
    conn.on("end", () => {
      try {
        resolve(JSON.parse(received));
      } catch {
        reject(new Error("no answer on the ops socket"));
      }
    });
  });
}

async function statusesOf(ids) {
  const reply = await ops("orders:list");
  if (reply.code !== 0) throw new Error(`orders:list: ${reply.err.join(" ")}`);
  const found = new Map();
  for (const line of reply.out) {
    const m = line.match(/^(\d+)\s+\S+\s+(\d+)\s/);
    if (m && ids.includes(Number(m[1]))) found.set(Number(m[1]), Number(m[2]));
  }
  return found;
}

/** Demo products that carry the government incentive (their detail page offers it at checkout). */
async function incentiveProducts() {
  const found = [];
  for (let id = 1; id <= 60 && found.length < 4; id++) {
    const res = await fetch(`${BASE}/detail/${id}`, { headers: { cookie: cookieHeader() } });
    const html = await res.text();
    if (res.ok && html.includes("Insentif Pemerintah Kendaraan Listrik") && !html.includes("Stok produk habis")) found.push(id);
  }
  if (found.length === 0) throw new Error("no demo product with the government incentive");
  return found;
}

// --- the rounds -------------------------------------------------------------------------------
let survived = 0;
let restarted = 0;
let fatal = null;
console.log(`bench:durability: ${ROUNDS} rounds, PGlite in ${dataDir}, port ${PORT}, build ${BUILD_DIR}/`);
try {
  let child = startServer();
  if (!(await waitHealthy(child, START_TIMEOUT_MS))) throw new Error(`the server did not start:\n${serverLog}`);
  await login();
  const products = await incentiveProducts();
  let unit = 0;
  const nextProduct = () => products[unit++ % products.length];

  for (let round = 1; round <= ROUNDS; round++) {
    const a = await orderOverHttp(nextProduct());
    const approved = await ops("orders:approve-incentive", String(a));
    if (approved.code !== 0) throw new Error(`round ${round}: approve ${a}: ${approved.err.join(" ")}`);
    const c = await orderOverHttp(nextProduct());
    await kill9(child); // right after the response that acknowledged C

    const began = Date.now();
    child = startServer();
    const up = await waitHealthy(child, RESTART_TIMEOUT_MS);
    if (!up) {
      console.log(`round ${round}: orders ${a}, ${c} — the server did NOT restart:\n${serverLog}`);
      break;
    }
    restarted++;
    const statuses = await statusesOf([a, c]);
    const ok = statuses.get(a) === 200 && statuses.get(c) === 100;
    if (ok) survived++;
    console.log(
      `round ${round}: order ${a} created+approved → ${statuses.get(a) ?? "MISSING"}, order ${c} created → ${statuses.get(c) ?? "MISSING"}; ` +
        `restart ${((Date.now() - began) / 1000).toFixed(1)} s; ${ok ? "survived" : "LOST"}`,
    );
  }
} catch (error) {
  fatal = error;
  console.log(`bench:durability stopped: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (server) await kill9(server);
  if (process.env.KEEP_DATA !== "1") fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify({ rounds: ROUNDS, survived, restarted }));
process.exitCode = !fatal && survived === ROUNDS ? 0 : 1;
