import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as checkoutRoute from "../checkout";
import * as detailRoute from "../detail";
import * as paymentMethodRoute from "../paymentmethod";
import * as paymentMethodListRoute from "../paymentmethodlist";
import { getDb, type Db } from "~/.server/db/client";
import { orderProducts, orders } from "~/.server/db/schema";
import { saveDraftAddress } from "~/.server/store/checkout";
import {
  createProduct,
  createVerifiedUser,
  EMPLOYEE_PROMO,
  INCENTIVE_PROMO,
  productStock,
  randomNik,
  realAddress,
  type TestUser,
} from "~/.server/testing/fixtures";
import { methodId } from "~/.server/testing/payment-fixtures";
import { createSession } from "~/.server/store/people";
import { apiCaller } from "../../.server/testing/api-client";
import { API_AREAS, buildOpenApi } from "./openapi.server";
import { TestBrowser } from "../../.server/testing/test-browser";

const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));

// Issue 19: two doors, one store. The same purchase made through the web's own forms (detail →
// checkout form with the KTP photo → address → payment screens) and through POST /order/create
// makes equal orders: amounts, promos, status, and one unit of stock each.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let db: Db;
let png: Uint8Array;

beforeAll(async () => {
  db = await getDb();
  png = new Uint8Array(
    await sharp({ create: { width: 400, height: 260, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .png()
      .toBuffer(),
  );
});

const ORDINARY_PROMO = { title: "Diskon Akhir Tahun", discount: 5, discountType: "%" as const };

type Input = { nik: string; insentif: boolean; promoPegawai: boolean; method: string | null };

/** What must be equal between the two doors (ids, buyer identity and dates aside). */
async function orderFacts(orderId: number) {
  const [order] = await db
    .select({
      statusId: orders.statusId,
      productId: orders.productId,
      amount: orders.amount,
      totalAmount: orders.totalAmount,
      priceOri: orders.priceOri,
      insentif: orders.insentif,
      insentifValue: orders.insentifValue,
      promoPegawai: orders.promoPegawai,
      promoPegawaiValue: orders.promoPegawaiValue,
      paymentMethodId: orders.paymentMethodId,
      note: orders.note,
      buyerDadName: orders.buyerDadName,
      kodePos: orders.kodePos,
      kelurahan: orders.kelurahan,
      hasKtp: orders.ktpUploadId,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  const lines = await db
    .select({
      qty: orderProducts.qty,
      price: orderProducts.price,
      priceOri: orderProducts.priceOri,
      totalDiscount: orderProducts.totalDiscount,
      promo: orderProducts.promo,
    })
    .from(orderProducts)
    .where(eq(orderProducts.orderId, orderId))
    .orderBy(asc(orderProducts.id));
  return { ...order!, hasKtp: order!.hasKtp !== null, lines };
}

async function viaWeb(user: TestUser, productId: number, input: Input): Promise<number> {
  const browser = await new TestBrowser().signIn(user.id);
  const order = new FormData();
  order.set("intent", "order");
  expect((await browser.post(detailRoute.action, `/detail/${productId}`, order, { id: String(productId) })).location).toBe("/checkout");
  await saveDraftAddress(user.id, await realAddress(db)); // what /address saves
  const form = new FormData();
  form.set("buyerName", user.fullname);
  form.set("buyerPhoneNumber", user.phoneNo);
  form.set("buyerEmail", user.email);
  form.set("buyerNik", input.nik);
  form.set("buyerNip", user.nip);
  form.set("note", "Tolong telepon dulu");
  if (input.insentif) {
    form.set("insentif", "on");
    form.set("buyerDadName", "Ahmad");
    form.set("nikValidation", "on");
  }
  if (input.promoPegawai) form.set("ajukanInsentifPegawai", "on");
  form.set("bbnValidation", "on");
  form.set("domisiliValidation", "on");
  form.set("idempotencyKey", randomUUID());
  form.set("ktp", new File([png as Uint8Array<ArrayBuffer>], "ktp.png", { type: "image/png" }));
  const submitted = await browser.post(checkoutRoute.action, "/checkout", form);
  if (input.insentif) {
    const id = /selesai=(\d+)/.exec(submitted.location ?? "")?.[1];
    expect(id, JSON.stringify(submitted)).toBeDefined();
    return Number(id);
  }
  expect(submitted.location).toBe("/paymentmethod");
  const chosen = new FormData();
  chosen.set("paymentMethodId", String(await methodId(input.method!)));
  expect((await browser.post(paymentMethodListRoute.action, "/paymentmethodlist", chosen)).location).toBe("/paymentmethod");
  const pay = new FormData();
  pay.set("idempotencyKey", randomUUID());
  const paid = await browser.post(paymentMethodRoute.action, "/paymentmethod", pay);
  const id = /\/payment\/(\d+)/.exec(paid.location ?? "")?.[1];
  expect(id, JSON.stringify(paid)).toBeDefined();
  return Number(id);
}

async function viaApi(user: TestUser, productId: number, input: Input): Promise<number> {
  const token = await createSession(user.id, "api");
  const form = new FormData();
  form.set("file", new File([png as Uint8Array<ArrayBuffer>], "ktp.png", { type: "image/png" }));
  const ktp = await callApi("POST", "/upload", { token, form });
  const created = await callApi("POST", "/order/create", {
    token,
    headers: { "Idempotency-Key": randomUUID() },
    json: {
      buyerName: user.fullname,
      buyerPhoneNumber: user.phoneNo,
      buyerEmail: user.email,
      buyerNik: input.nik,
      nip: user.nip,
      note: "Tolong telepon dulu",
      insentif: input.insentif,
      ...(input.insentif ? { buyerDadName: "Ahmad", nikValidation: true } : {}),
      ajukanInsentifPegawai: input.promoPegawai,
      bbnValidation: true,
      domisiliValidation: true,
      ktpImageUrl: ktp.body.data.path,
      address: await realAddress(db),
      orderProducts: [{ id: productId, qty: 1 }],
      ...(input.method ? { paymentMethodId: await methodId(input.method) } : {}),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.orderId;
}

describe("the web checkout and POST /order/create make equal orders", () => {
  const cases: [string, Omit<Input, "nik">][] = [
    ["incentive and employee promo (status 100)", { insentif: true, promoPegawai: true, method: null }],
    ["virtual account with the employee promo (status 200)", { insentif: false, promoPegawai: true, method: "BNI-VA" }],
    ["manual transfer without the employee promo (status 200)", { insentif: false, promoPegawai: false, method: "MANUAL-BNI" }],
  ];
  it.each(cases)("%s", async (_name, input) => {
    const productId = await createProduct(db, {
      price: 27_000_000,
      discount: 500_000,
      discountType: "v",
      stock: 5,
      promos: [INCENTIVE_PROMO, EMPLOYEE_PROMO, ORDINARY_PROMO],
    });
    const webBuyer = await createVerifiedUser(db);
    const apiBuyer = await createVerifiedUser(db);
    const webOrder = await viaWeb(webBuyer, productId, { ...input, nik: randomNik() });
    expect(await productStock(db, productId)).toBe(4);
    const apiOrder = await viaApi(apiBuyer, productId, { ...input, nik: randomNik() });
    expect(await productStock(db, productId)).toBe(3);
    const [web, api] = [await orderFacts(webOrder), await orderFacts(apiOrder)];
    expect(api).toEqual(web);
    expect(web.insentif).toBe(input.insentif);
    expect(web.promoPegawai).toBe(input.promoPegawai);
  });
});
