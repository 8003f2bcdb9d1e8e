import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "~/.server/db/client";
import { orders, products } from "~/.server/db/schema";
import { settleMessages } from "~/.server/testing/messages";
import { readOutbox } from "~/.server/store/messages";
import { createProduct, createVerifiedUser, EMPLOYEE_PROMO, INCENTIVE_PROMO, randomNik, realAddress } from "~/.server/testing/fixtures";
import { transitionOrder } from "~/.server/store/orders";
import { OTP_NO_PAYLATER } from "~/.server/store/checkout";
import { createSession } from "~/.server/store/people";
import { methodId } from "~/.server/testing/payment-fixtures";
import { apiCaller } from "../../.server/testing/api-client";
import { RouterContextProvider } from "react-router";
import { sessionMiddleware } from "~/.server/http/session";
import * as uploadsRoute from "../uploads";
import * as apiRoute from "./index";
import { buildOpenApi, API_AREAS } from "./openapi.server";

const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));

// Contract tests of spec §7 (issue 19): every call's status, envelope, field names and messages,
// through the same dispatcher as the resource routes, on the real database.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let db: Db;
let png: Uint8Array;

beforeAll(async () => {
  db = await getDb();
  png = new Uint8Array(
    await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 20, g: 90, b: 160 } } })
      .png()
      .toBuffer(),
  );
});

const expectEnvelope = (body: { success: boolean; code: number; message: string }, status: number) => {
  expect(Object.keys(body)).toEqual(expect.arrayContaining(["success", "code", "message", "data"]));
  expect(body.success).toBe(status < 400);
  expect(body.code).toBe(status);
  expect(typeof body.message).toBe("string");
};

async function latestMailTo(email: string, pattern: RegExp): Promise<string> {
  await settleMessages();
  const mail = (await readOutbox(200)).find((m) => m.to === email && pattern.test(m.text));
  const match = mail && pattern.exec(mail.text);
  if (!match?.[1]) throw new Error(`no mail to ${email} matching ${pattern}`);
  return decodeURIComponent(match[1]);
}

async function tokenFor(userId: number) {
  return createSession(userId, "api");
}

const uploadForm = (type: string, bytes = png, name = "ktp.png") => {
  const form = new FormData();
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], name, { type: "image/png" }));
  form.set("type", type);
  return form;
};

describe("auth", () => {
  it("registers with the form's messages, signs in, activates from the e-mail, resets the password and logs out", async () => {
    const address = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const empty = await callApi("POST", "/auth/register", { json: {}, address });
    expect(empty.status).toBe(400);
    expectEnvelope(empty.body, 400);
    expect(empty.body.errors).toMatchObject({
      fullname: ["Nama Lengkap tidak boleh kosong."],
      phoneNo: ["Nomor HP tidak boleh kosong."],
      nip: ["NIP tidak boleh kosong."],
      companyId: ["Perusahaan tidak boleh kosong."],
      email: ["Email tidak boleh kosong."],
      password: ["Kata Sandi tidak boleh kosong."],
      matchPassword: ["Konfirmasi Kata Sandi tidak boleh kosong."],
    });
    const companies = await callApi("GET", "/company/list");
    expect(companies.status).toBe(200);
    expect(companies.body.data[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });

    const email = `api-${randomUUID().slice(0, 8)}@example.test`;
    const payload = {
      fullname: "Budi Santoso",
      username: "budi",
      email,
      phoneNo: "081234567890",
      password: "Rahasia123!",
      matchPassword: "Rahasia12!",
      nip: "9001234",
      companyId: companies.body.data[0].id,
    };
    const mismatch = await callApi("POST", "/auth/register", { json: payload, address });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual({ matchPassword: ["Konfirmasi Kata Sandi anda tidak sesuai."] });
    expect(mismatch.body.message).toBe("Konfirmasi Kata Sandi anda tidak sesuai.");

    const registered = await callApi("POST", "/auth/register", { json: { ...payload, matchPassword: payload.password }, address });
    expect(registered.status).toBe(201);
    expectEnvelope(registered.body, 201);
    expect(registered.body.data).toEqual({
      user: { email, fullname: "Budi Santoso", verified: false },
      tokenType: "Bearer",
      token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    expect(registered.headers.get("set-cookie")).toBeNull();
    const token = registered.body.data.token as string;

    // The same e-mail again: the same answer without a token (no account discovery).
    const again = await callApi("POST", "/auth/register", { json: { ...payload, matchPassword: payload.password }, address });
    expect(again.status).toBe(201);
    expect(again.body.data.token).toBeNull();

    expect((await callApi("GET", "/user/short-info", { token })).body.data.verified).toBe(false);
    const resent = await callApi("POST", "/auth/resend-email-verification", { token, json: {} });
    expect(resent.status).toBe(200);
    expect(typeof resent.body.data.resendAvailableAt).toBe("string");
    const code = await latestMailTo(email, /verificationCode=([^\s&]+)/);
    const verified = await callApi("POST", "/auth/play-action-with-secret", { json: { secret: code } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      success: true,
      message: "Akun berhasil diaktivasi!",
      data: { action: "verify", alreadyActive: false },
    });
    expect((await callApi("GET", "/user/short-info", { token })).body.data.verified).toBe(true);
    const bad = await callApi("POST", "/auth/play-action-with-secret", { json: { secret: "nope-nope-nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ secret: ["Kode aktivasi tidak valid atau sudah kedaluwarsa."] });

    const resend = await callApi("POST", "/auth/resend-email-verification", { token, json: { email } });
    expect(resend.status).toBe(400);
    expect(resend.body.message).toBe("Akun Anda sudah aktif.");

    const wrong = await callApi("POST", "/auth/login", { json: { email, password: "salah-salah" }, address });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("Email atau Kata Sandi salah.");
    const noEmail = await callApi("POST", "/auth/login", { json: { email: "bukan-email", password: "" }, address });
    expect(noEmail.body.errors).toEqual({ email: ["Email tidak valid."], password: ["Kata Sandi tidak boleh kosong."] });
    const login = await callApi("POST", "/auth/login", { json: { email, password: payload.password }, address });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ user: { email, verified: true }, tokenType: "Bearer" });
    const second = login.body.data.token as string;

    const forgot = await callApi("POST", "/auth/email-forgot-password", { json: { email }, address });
    expect(forgot.status).toBe(200);
    expect(forgot.body.message).toBe("Jika email Anda terdaftar, tautan untuk mengatur ulang kata sandi telah dikirim ke email Anda.");
    const unknown = await callApi("POST", "/auth/email-forgot-password", {
      json: { email: `nobody-${randomUUID()}@example.test` },
      address,
    });
    expect(unknown.body).toEqual(forgot.body);
    const secret = await latestMailTo(email, /secretCode=([^\s&]+)/);
    const looked = await callApi("POST", "/auth/play-action-with-secret", { json: { secret } });
    expect(looked.body.data).toEqual({ action: "reset-password", email });
    const notSame = await callApi("POST", "/auth/change-forgotten-password", {
      json: { secret, email, password: "BaruSekali1!", matchPassword: "Lain" },
    });
    expect(notSame.body.errors).toEqual({ matchPassword: ["Konfirmasi Kata Sandi tidak sama."] });
    const changed = await callApi("POST", "/auth/change-forgotten-password", {
      json: { secret, email, password: "BaruSekali1!", matchPassword: "BaruSekali1!" },
    });
    expect(changed.status).toBe(200);
    // A password reset ends every token of the account, as it ends web sessions.
    for (const t of [token, second]) expect((await callApi("GET", "/user/my-profile", { token: t })).status).toBe(401);
    const used = await callApi("POST", "/auth/change-forgotten-password", {
      json: { secret, password: "BaruSekali1!", matchPassword: "BaruSekali1!" },
    });
    expect(used.body.errors).toEqual({ secret: ["Mohon maaf, link reset password anda tidak valid."] });

    const third = (await callApi("POST", "/auth/login", { json: { email, password: "BaruSekali1!" }, address })).body.data.token as string;
    const logout = await callApi("POST", "/auth/logout", { token: third });
    expect(logout.status).toBe(200);
    const after = await callApi("GET", "/user/my-profile", { token: third });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ success: false, code: 401, message: "Sesi Anda telah berakhir. Silakan login kembali.", data: null });
  });

  it("answers 429 with Retry-After from the web's login limit, and 400 for a body that is not JSON", async () => {
    const address = `192.0.2.${Math.floor(Math.random() * 200)}`;
    const email = `limit-${randomUUID().slice(0, 8)}@example.test`;
    let last = await callApi("POST", "/auth/login", { json: { email, password: "x" }, address });
    for (let i = 0; i < 10; i++) last = await callApi("POST", "/auth/login", { json: { email, password: "x" }, address });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last.body.message).toMatch(/^Terlalu banyak percobaan masuk\. Coba lagi dalam \d+ menit\.$/);
    const broken = await callApi("POST", "/auth/login", { json: "{not json" });
    expect(broken.status).toBe(400);
    expectEnvelope(broken.body, 400);
  });
});

describe("user", () => {
  it("reads and updates the profile with the form's messages, and saves the delivery address", async () => {
    const user = await createVerifiedUser(db);
    const token = await tokenFor(user.id);
    const profile = await callApi("GET", "/user/my-profile", { token });
    expect(profile.body.data).toEqual({
      fullname: user.fullname,
      phoneNo: user.phoneNo,
      email: user.email,
      nip: user.nip,
      companyName: expect.any(String),
    });
    expect((await callApi("GET", "/user/edit-profile", { token })).body.data).toEqual({ fullname: user.fullname, phoneNo: user.phoneNo });
    const short = await callApi("PUT", "/user/update-profile", { token, json: { fullname: "", phoneNo: "0812" } });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ fullname: ["Nama Lengkap tidak boleh kosong."], phoneNo: ["Nomor HP minimal 11 digit."] });
    const updated = await callApi("PUT", "/user/update-profile", { token, json: { fullname: "Siti Baru", phoneNo: "0812-3456-7891" } });
    expect(updated.body).toMatchObject({
      success: true,
      message: "Profil berhasil diperbarui.",
      data: { fullname: "Siti Baru", phoneNo: "081234567891" },
    });

    expect((await callApi("GET", "/user/order/location", { token })).body.data).toBeNull();
    const address = await realAddress(db);
    const wrongChain = await callApi("POST", "/user/order/set-location", { token, json: { ...address, kotaId: "11.01" } });
    expect(wrongChain.status).toBe(400);
    expect(wrongChain.body.errors).toEqual({ kotaId: ["Kota/Kabupaten tidak berada di provinsi yang dipilih."] });
    const saved = await callApi("POST", "/user/order/set-location", { token, json: address });
    expect(saved.status).toBe(200);
    const read = await callApi("GET", "/user/order/location", { token });
    expect(read.body.data).toMatchObject({
      ...address,
      provinsi: expect.any(String),
      kota: expect.any(String),
      kecamatan: expect.any(String),
      kelurahan: expect.any(String),
    });
  });
});

describe("catalogue and reference lists", () => {
  it("pages products with the spec's fields and filters; details, categories, cities, banners, locations, offices", async () => {
    const title = `Kompor Induksi Api ${randomUUID().slice(0, 6)}`;
    const productId = await createProduct(db, { title, price: 2_000_000, promos: [EMPLOYEE_PROMO] });
    const found = await callApi("GET", `/product/page?page=0&size=10&keyword=${encodeURIComponent(title)}&sort=price:1`);
    expect(found.status).toBe(200);
    expectEnvelope(found.body, 200);
    expect(Object.keys(found.body.data).sort()).toEqual(["content", "isLastPage", "page", "total"]);
    expect(found.body.data).toMatchObject({ total: 1, page: 0, isLastPage: true });
    expect(Object.keys(found.body.data.content[0])).toEqual(
      expect.arrayContaining([
        "cityName",
        "discount",
        "discountType",
        "id",
        "imageUrl",
        "price",
        "promo",
        "ratingPercentage",
        "sellCount",
        "title",
      ]),
    );
    const none = await callApi("GET", `/product/page?keyword=${encodeURIComponent(title)}&pmin=3000000`);
    expect(none.body.data).toEqual({ content: [], total: 0, page: 0, isLastPage: true });
    const odd = await callApi("GET", "/product/page?page=abc&size=-3&sort=zzz");
    expect(odd.status).toBe(200);

    const detail = await callApi("GET", `/product/detail?id=${productId}`);
    expect(detail.body.data).toMatchObject({ id: productId, title, price: 2_000_000, addInfo: { minimum_purchase: 1 }, viewCount: 1 });
    expect((await callApi("GET", "/product/detail?id=999999999")).status).toBe(404);
    const noId = await callApi("GET", "/product/detail?id=x");
    expect(noId.status).toBe(400);
    expect(noId.body.errors).toEqual({ id: ["Produk tidak ditemukan."] });

    expect((await callApi("GET", "/product/categories")).body.data.every((c: object) => Object.keys(c).join() === "id,title")).toBe(true);
    expect((await callApi("GET", "/product/cities")).status).toBe(200);
    const banners = await callApi("GET", "/banner/list");
    expect(Array.isArray(banners.body.data)).toBe(true);
    expect((await callApi("GET", "/banner/detail?id=999999")).status).toBe(404);
    expect((await callApi("GET", "/office/list")).body.data).toEqual([]);

    const provinces = await callApi("GET", "/location/provinsi");
    expect(provinces.body.data.length).toBeGreaterThan(30);
    expect(Object.keys(provinces.body.data[0])).toEqual(["id", "name"]);
    const kota = await callApi("GET", "/location/kota?provinsiId=32");
    expect(kota.body.data.some((k: { id: string }) => k.id === "32.73")).toBe(true);
    expect((await callApi("GET", "/location/kecamatan?kotaId=32.73")).body.data.length).toBeGreaterThan(0);
    expect((await callApi("GET", "/location/kelurahan?kecamatanId=32.73.01")).body.data.length).toBeGreaterThan(0);
    expect((await callApi("GET", "/location/kota")).body.data).toEqual([]);
    const unknownCall = await callApi("GET", "/product/nowhere", { outsideDocument: true });
    expect(unknownCall.status).toBe(404);
    expect(unknownCall.body.message).toBe("Alamat API tidak ditemukan.");
    const wrongMethod = await callApi("POST", "/product/page", { json: {}, outsideDocument: true });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    const viaRoute = (path: string) =>
      apiRoute.loader({
        request: new Request(`http://store.test${path}`),
        params: { "*": path.split("?")[0]!.slice("/api/".length) },
      } as never);
    const elsewhere = await viaRoute("/api/nothing/here");
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ success: false, code: 404, message: "Alamat API tidak ditemukan.", data: null });
    const unknownArea = await viaRoute("/api/core/api/v1/nowhere/list");
    expect(unknownArea.status).toBe(404);
    const products = await viaRoute("/api/core/api/v1/product/page?keyword=x");
    expect((await products.json()).data).toMatchObject({ page: 0 });
    const openapi = await viaRoute("/api/core/openapi.json");
    expect((await openapi.json()).openapi).toBe("3.1.0");
    const docs = await viaRoute("/api/core/docs");
    expect(docs.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await docs.text();
    expect(html).toContain("POST /api/core/api/v1/order/create");
    expect(html).not.toContain("<script");
  });
});

describe("orders", () => {
  it("uploads a KTP, creates an incentive order (idempotent), lists, details, pays after approval, confirms delivery and reads the balance", async () => {
    const user = await createVerifiedUser(db);
    const token = await tokenFor(user.id);
    const productId = await createProduct(db, { price: 30_000_000, stock: 3, promos: [INCENTIVE_PROMO] });

    const noFile = await callApi("POST", "/upload", { token, form: new FormData() });
    expect(noFile.status).toBe(400);
    expect(noFile.body.errors).toEqual({ file: ["File KTP tidak boleh kosong."] });
    const textFile = await callApi("POST", "/upload", { token, form: uploadForm("ktp", new TextEncoder().encode("hello"), "a.png") });
    expect(textFile.body.message).toBe("Invalid file selected, valid files are of .jpg,.jpeg,.png types.");
    const ktp = await callApi("POST", "/upload", { token, form: uploadForm("ktp") });
    expect(ktp.status).toBe(201);
    expect(ktp.body.data).toEqual({ path: expect.stringMatching(/^\/uploads\/[A-Za-z0-9_-]{22}$/), id: expect.any(String), type: "ktp" });
    // The owner reads it back with the same token; anyone else gets 404.
    const readBack = async (bearer: string) => {
      const request = new Request(`http://store.test${ktp.body.data.path}`, { headers: { authorization: `Bearer ${bearer}` } });
      const context = new RouterContextProvider();
      let answer: Response | undefined;
      await sessionMiddleware({ request, url: new URL(request.url), context } as never, async () => {
        answer = await uploadsRoute.loader({ request, context, params: { id: ktp.body.data.id } } as never);
        return answer;
      });
      return answer!;
    };
    const own = await readBack(token);
    expect([own.status, own.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
    // Issue 45 item 13: an identity card is not kept in the browser's cache either.
    expect(own.headers.get("cache-control")).toBe("no-store");
    expect((await readBack(await tokenFor((await createVerifiedUser(db)).id))).status).toBe(404);

    const empty = await callApi("POST", "/order/create", { token, json: { orderProducts: [{ id: productId, qty: 1 }], insentif: true } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toMatchObject({
      buyerName: ["Nama Pembeli tidak boleh kosong."],
      buyerPhoneNumber: ["No. HP tidak boleh kosong."],
      buyerEmail: ["Email tidak boleh kosong."],
      buyerNik: ["NIK tidak boleh kosong."],
      buyerDadName: ["Nama Ayah Kandung tidak boleh kosong."],
      nikValidation: ["Mohon ceklis keterangan diatas"],
      bbnValidation: ["Mohon ceklis keterangan diatas"],
      ktpImageUrl: ["File KTP tidak boleh kosong."],
      address: ["Alamat tidak boleh kosong."],
    });

    const payload = {
      buyerName: user.fullname,
      buyerPhoneNumber: user.phoneNo,
      buyerEmail: user.email,
      buyerNik: randomNik(),
      nip: user.nip,
      insentif: true,
      buyerDadName: "Ahmad",
      nikValidation: true,
      bbnValidation: true,
      domisiliValidation: true,
      ktpImageUrl: ktp.body.data.path,
      note: "Antar sore",
      address: await realAddress(db),
      orderProducts: [{ id: productId, qty: 1 }],
      totalAmount: 23_000_000,
    };
    // A photo uploaded as a delivery proof is no KTP.
    const otherPurpose = await callApi("POST", "/upload", { token, form: uploadForm("delivery-proof") });
    const notKtp = await callApi("POST", "/order/create", { token, json: { ...payload, ktpImageUrl: otherPurpose.body.data.path } });
    expect(notKtp.body.errors).toEqual({ ktpImageUrl: ["File KTP tidak boleh kosong."] });
    const key = randomUUID();
    const created = await callApi("POST", "/order/create", { token, json: payload, headers: { "Idempotency-Key": key } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, data: { orderId: expect.any(Number), redirectUrl: null, created: true } });
    const orderId = created.body.data.orderId as number;
    const repeat = await callApi("POST", "/order/create", { token, json: payload, headers: { "Idempotency-Key": key } });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toMatchObject({ orderId, created: false });
    const [{ stock }] = (await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId))) as [
      { stock: number },
    ];
    expect(stock).toBe(2);
    const sameNik = await callApi("POST", "/order/create", { token, json: payload, headers: { "Idempotency-Key": randomUUID() } });
    expect(sameNik.status).toBe(409);
    expect(sameNik.body.errors).toEqual({ buyerNik: ["NIK sudah digunakan untuk pengajuan insentif lain."] });
    expect((await callApi("POST", "/order/create", { token, json: payload, headers: { "Idempotency-Key": "x" } })).status).toBe(400);

    const history = await callApi("GET", "/order/history?page=0&size=10", { token });
    expect(history.body.data).toMatchObject({ total: 1, page: 0, isLastPage: true });
    expect(Object.keys(history.body.data.content[0])).toEqual(
      expect.arrayContaining([
        "id",
        "statusId",
        "statusName",
        "statusDate",
        "imageUrl",
        "productTitle",
        "quantity",
        "amount",
        "redirectUrl",
        "paymentMethodId",
      ]),
    );
    expect((await callApi("GET", "/order/history?statusId=500", { token })).body.data.total).toBe(0);
    const badDates = await callApi("GET", "/order/history?dateFrom=2026-01-01", { token });
    expect(badDates.status).toBe(400);
    expect(badDates.body.errors).toEqual({ dateTo: ["Tanggal akhir tidak boleh kosong."] });

    const detail = await callApi("GET", `/order/detail?orderId=${orderId}`, { token });
    expect(detail.body.data).toMatchObject({
      id: orderId,
      statusId: 100,
      insentif: true,
      insentifVal: 7_000_000,
      amount: 23_000_000,
      // Masked everywhere but the incentive review (issue 35).
      buyerNik: `${payload.buyerNik.slice(0, 4)}********${payload.buyerNik.slice(-4)}`,
      note: "Antar sore",
      kodePos: "40111",
    });
    expect(detail.body.data.orderProducts[0]).toMatchObject({
      qty: 1,
      price: 30_000_000,
      priceOri: 30_000_000,
      totalDiscount: 7_000_000,
      promo: [{ title: INCENTIVE_PROMO.title, value: 7_000_000, discountType: "v" }],
    });
    const statuses = await callApi("GET", "/order/status-list", { token });
    expect(statuses.body.data.map((s: { id: number }) => s.id)).toEqual([100, 200, 301, 302, 300, 400, 500, 1, 2]);

    // Too early for a payment: still waiting for the incentive check.
    const early = await callApi("POST", "/order/set-payment", { token, json: { id: orderId, paymentMethodId: await methodId("BNI-VA") } });
    expect(early.status).toBe(409);
    expect(await transitionOrder(orderId, 100, 200, "test")).toEqual({ ok: true });
    // Spec §7 (issue 25): a list of methods with the spec's fields, each naming its group, in the groups' order.
    const methods = await callApi("POST", "/payment/methods", { token, json: { productId, totalDiscount: 1 } });
    expect(Array.isArray(methods.body.data)).toBe(true);
    for (const method of methods.body.data) {
      expect(Object.keys(method).sort()).toEqual(["additionalData", "code", "groupName", "id", "imageUrl", "name", "totalPayment", "type"]);
      expect(Object.keys(method.additionalData).sort()).toEqual(["applyUrl", "fee"]);
    }
    const groupsInOrder = [...new Set(methods.body.data.map((m: { groupName: string }) => m.groupName))];
    expect(groupsInOrder).toEqual(["Virtual Account", "Manual", "Cicilan", "Lainnya"]);
    const va = methods.body.data.find((m: { code: string }) => m.code === "BNI-VA");
    expect(va).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      type: "virtual_account",
      imageUrl: expect.any(String),
      groupName: "Virtual Account",
      totalPayment: 30_000_000 - 900_000 + va.additionalData.fee,
      additionalData: { fee: expect.any(Number), applyUrl: null },
    });
    expect(methods.body.data.find((m: { code: string }) => m.code === "BNI-INSTALLMENT")).toMatchObject({
      type: "installment",
      groupName: "Cicilan",
      additionalData: { applyUrl: expect.any(String) },
    });
    const noMethod = await callApi("POST", "/order/set-payment", { token, json: { id: orderId } });
    expect(noMethod.body.errors).toEqual({ paymentMethodId: ["Metode Pembayaran wajib dipilih."] });
    const set = await callApi("POST", "/order/set-payment", { token, json: { id: orderId, paymentMethodId: va.id } });
    expect(set.status).toBe(200);
    const open = await callApi("GET", `/order/open-va?orderId=${orderId}`, { token });
    expect(open.body.data).toMatchObject({
      orderId,
      type: "virtual_account",
      vaNo: expect.stringMatching(/^\d+$/),
      expired: false,
      paid: false,
      howTo: expect.any(Array),
    });
    expect(typeof open.body.data.expiredAt).toBe("string");
    const markVa = await callApi("PUT", "/order/mark-paid", { token, json: { orderId, buktiImageUrl: ktp.body.data.path } });
    expect(markVa.status).toBe(409);

    // Paid, shipped (ops), then confirmed with a photo: the reward is on the balance.
    await transitionOrder(orderId, 200, 300, "test");
    await transitionOrder(orderId, 300, 400, "test");
    const noProof = await callApi("POST", "/order/confirm", { token, json: { orderId, buktiImageUrls: [] } });
    expect(noProof.body.errors).toEqual({ buktiImageUrls: ["Foto bukti barang sampai tidak boleh kosong."] });
    const wrongPurpose = await callApi("POST", "/order/confirm", { token, json: { orderId, buktiImageUrls: [ktp.body.data.path] } });
    expect(wrongPurpose.status).toBe(400);
    const photo = await callApi("POST", "/upload", { token, form: uploadForm("delivery-proof") });
    const confirmed = await callApi("POST", "/order/confirm", { token, json: { orderId, buktiImageUrls: [photo.body.data.path] } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.reward).toMatchObject({ title: "Reward Pembelian", amount: expect.any(Number) });
    const balance = await callApi("GET", "/balance/check", { token });
    expect(balance.body.data).toEqual({ balance: confirmed.body.data.reward.amount });
    const items = await callApi("GET", "/balance/history", { token });
    expect(items.body.data.content[0]).toEqual({
      id: expect.any(Number),
      title: "Reward Pembelian",
      description: expect.any(String),
      amount: confirmed.body.data.reward.amount,
      status: null,
      createdAt: expect.any(String),
    });
    const cancelDone = await callApi("POST", "/order/cancel", { token, json: { orderId } });
    expect(cancelDone.status).toBe(409);
    expect(cancelDone.body.message).toBe("Pesanan ini tidak dapat dibatalkan lagi.");
  });

  it("creates a virtual-account order at once, cancels it, checks the employee promo, lists tenors and checks a choice", async () => {
    const user = await createVerifiedUser(db);
    const token = await tokenFor(user.id);
    const productId = await createProduct(db, { price: 10_000_000, stock: 1, promos: [EMPLOYEE_PROMO] });
    const ktp = await callApi("POST", "/upload", { token, form: uploadForm("ktp") });
    const check = await callApi("GET", `/order/checkout-check?productId=${productId}&nip=${user.nip}`, { token });
    expect(check.body.data).toEqual([{ id: expect.any(Number), title: EMPLOYEE_PROMO.title, discount: 1_000_000, discountType: "v" }]);
    expect((await callApi("GET", `/order/checkout-check?productId=${productId}&nip=lain`, { token })).body.data).toEqual([]);

    const installment = await methodId("BNI-INSTALLMENT");
    const tenors = await callApi("POST", "/payment/installment", { token, json: { productId, paymentId: installment } });
    expect(tenors.body.data[0]).toMatchObject({
      id: expect.any(Number),
      tenor: expect.any(Number),
      interestPercentage: expect.any(Number),
      allMount: expect.any(Number),
      perMonth: expect.any(Number),
      totalPayment: expect.any(Number),
    });
    const noTenor = await callApi("POST", "/payment/select", { token, json: { productId, paymentMethodId: installment } });
    expect(noTenor.body.errors).toEqual({ tenor: ["Tenor wajib dipilih"] });
    expect(
      (await callApi("POST", "/payment/installment", { token, json: { productId, paymentId: await methodId("BNI-VA") } })).status,
    ).toBe(400);

    const base = {
      buyerName: user.fullname,
      buyerPhoneNumber: user.phoneNo,
      buyerEmail: user.email,
      buyerNik: randomNik(),
      nip: user.nip,
      ajukanInsentifPegawai: true,
      bbnValidation: true,
      domisiliValidation: true,
      ktpImageUrl: ktp.body.data.path,
      address: await realAddress(db),
      orderProducts: [{ id: productId, qty: 1 }],
    };
    const noMethod = await callApi("POST", "/order/create", { token, json: base });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body.errors).toEqual({ paymentMethodId: ["Metode Pembayaran wajib dipilih."] });
    const created = await callApi("POST", "/order/create", { token, json: { ...base, paymentMethodId: await methodId("BNI-VA") } });
    expect(created.status).toBe(201);
    const orderId = created.body.data.orderId as number;
    const [order] = await db
      .select({ statusId: orders.statusId, promoPegawai: orders.promoPegawai, amount: orders.amount })
      .from(orders)
      .where(eq(orders.id, orderId));
    expect(order).toEqual({ statusId: 200, promoPegawai: true, amount: 9_000_000 });
    const soldOut = await callApi("POST", "/order/create", { token, json: { ...base, paymentMethodId: await methodId("BNI-VA") } });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.message).toBe("Stok produk habis.");
    const cancelled = await callApi("POST", "/order/cancel", { token, json: { orderId } });
    expect(cancelled.body).toMatchObject({ success: true, message: "Pesanan berhasil dibatalkan." });
    expect((await callApi("POST", "/order/cancel", { token, json: { orderId } })).body.message).toBe("Pesanan sudah dibatalkan.");
    expect((await callApi("POST", "/order/cancel", { token, json: { orderId: "abc" } })).status).toBe(400);
  });

  it("refuses an unverified account's order with 403 and the web's message", async () => {
    const user = await createVerifiedUser(db, { verified: false });
    const token = await tokenFor(user.id);
    const productId = await createProduct(db);
    const refused = await callApi("POST", "/order/create", { token, json: { orderProducts: [{ id: productId }] } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Akun Anda belum aktif. Silakan aktivasi akun melalui e-mail sebelum bertransaksi.");
  });
});

describe("OTP", () => {
  it("sends a code only for a BRI Ceria payment waiting for it, to the phone it carries, never to a number of the caller's choosing (issue 45 item 10)", async () => {
    const phoneOf = () => `0812${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const smsTo = async (phone: string) => {
      await settleMessages();
      return (await readOutbox(500)).filter((m) => m.to === phone);
    };
    const stray = phoneOf();

    // A verified buyer with no paylater flow: 409, no SMS to the number in the body, none to the profile's.
    const idle = await createVerifiedUser(db, { phoneNo: phoneOf() });
    const idleToken = await tokenFor(idle.id);
    const refused = await callApi("POST", "/otp/request", { token: idleToken, json: { phone: stray } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(OTP_NO_PAYLATER);
    expect((await callApi("POST", "/otp/request", { token: idleToken, json: {} })).status).toBe(409);

    // An approved incentive order (200, no method yet): only with BRI Ceria chosen for it, to the order's phone.
    const buyer = await createVerifiedUser(db, { phoneNo: phoneOf() });
    const token = await tokenFor(buyer.id);
    const { createOrderInStatus } = await import("~/.server/testing/order-fixtures");
    const { orderId } = await createOrderInStatus(db, 100, { user: buyer });
    expect((await transitionOrder(orderId, 100, 200, "system", "test")).ok).toBe(true);
    const paylater = await methodId("BRI-CERIA");
    const va = await callApi("POST", "/otp/request", { token, json: { orderId, paymentMethodId: await methodId("BNI-VA") } });
    expect(va.status).toBe(409);
    expect((await callApi("POST", "/otp/request", { token: idleToken, json: { orderId, paymentMethodId: paylater } })).status).toBe(409);
    const sent = await callApi("POST", "/otp/request", { token, json: { orderId, paymentMethodId: paylater, phone: stray } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ phone: buyer.phoneNo, expiresAt: expect.any(String) });
    const again = await callApi("POST", "/otp/request", { token, json: { orderId, paymentMethodId: paylater } });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    const wrong = await callApi("POST", "/otp/validate", { token, json: { otp: "0000" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ otp: ["Kode OTP tidak sesuai"] });

    // A checkout whose chosen method is BRI Ceria (order/create without the code): to its buyer phone;
    // the code then makes the order.
    const shopper = await createVerifiedUser(db, { phoneNo: phoneOf() });
    const shopperToken = await tokenFor(shopper.id);
    const productId = await createProduct(db, { price: 5_000_000, stock: 2 });
    const checkoutPhone = phoneOf();
    const ktp = await callApi("POST", "/upload", { token: shopperToken, form: uploadForm("ktp") });
    const order = {
      ktpImageUrl: ktp.body.data.path,
      buyerName: shopper.fullname,
      buyerPhoneNumber: checkoutPhone,
      buyerEmail: shopper.email,
      buyerNik: randomNik(),
      bbnValidation: true,
      domisiliValidation: true,
      address: await realAddress(db),
      orderProducts: [{ id: productId, qty: 1 }],
      paymentMethodId: paylater,
    };
    const noCode = await callApi("POST", "/order/create", { token: shopperToken, json: order });
    expect(noCode.status).toBe(400);
    expect(Object.keys(noCode.body.errors ?? {})).toEqual(["otpSecretId"]);
    const toCheckout = await callApi("POST", "/otp/request", { token: shopperToken, json: { phone: stray } });
    expect(toCheckout.status).toBe(200);
    expect(toCheckout.body.data.phone).toBe(checkoutPhone);
    const code = (await smsTo(checkoutPhone))[0]?.text.match(/\b(\d{4})\b/)?.[1];
    const secret = await callApi("POST", "/otp/validate", { token: shopperToken, json: { otp: code } });
    expect(secret.status).toBe(200);
    const created = await callApi("POST", "/order/create", {
      token: shopperToken,
      json: { ...order, otpSecretId: secret.body.data.secretId },
    });
    expect(created.status).toBe(201);

    // No SMS ever went to the number the bodies named, nor to the idle buyer's own.
    expect(await smsTo(stray)).toEqual([]);
    expect(await smsTo(idle.phoneNo)).toEqual([]);
  });
});

describe("notifications", () => {
  it("lists the buyer's own, newest first with the unread count; marks them read; another buyer sees none", async () => {
    const user = await createVerifiedUser(db);
    const token = await tokenFor(user.id);
    const other = await tokenFor((await createVerifiedUser(db)).id);
    const { createOrderInStatus } = await import("~/.server/testing/order-fixtures");
    const { orderId } = await createOrderInStatus(db, 300, { user }); // 200 → 300: 'Pembayaran Diterima'
    const listed = await callApi("GET", "/notification/list", { token });
    expectEnvelope(listed.body, 200);
    expect(listed.body.data).toMatchObject({ unread: 1, hasMore: false });
    expect(listed.body.data.content).toEqual([
      {
        id: expect.any(Number),
        title: "Pembayaran Diterima",
        body: expect.stringContaining("telah kami terima"),
        link: `/transaction-detail/${orderId}`,
        orderId,
        createdAt: expect.any(String),
        unread: true,
      },
    ]);
    expect((await callApi("GET", "/notification/list?before=x", { token })).status).toBe(400);
    expect((await callApi("GET", "/notification/list", { token: other })).body.data).toEqual({ content: [], unread: 0, hasMore: false });
    expect((await callApi("POST", "/notification/read", { token: other, json: {} })).body.data).toEqual({ marked: 0, unread: 0 });
    const read = await callApi("POST", "/notification/read", { token, json: {} });
    expect(read.body.data).toEqual({ marked: 1, unread: 0 });
    expect((await callApi("GET", "/notification/list", { token })).body.data.content[0].unread).toBe(false);
    expect((await callApi("GET", "/notification/list")).status).toBe(401);
  });
});

describe("OpenAPI", () => {
  it("documents every call with the forms' schemas", () => {
    const document = buildOpenApi("http://store.test") as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>
      >;
    };
    expect(document.openapi).toBe("3.1.0");
    const paths = Object.keys(document.paths);
    expect(paths).toHaveLength(52);
    const register = document.paths["/api/core/api/v1/auth/register"]!.post!.requestBody!.content["application/json"]!.schema;
    expect(Object.keys(register.properties)).toEqual(
      expect.arrayContaining(["fullname", "phoneNo", "nip", "companyId", "email", "password", "matchPassword"]),
    );
    // §7 payment/methods answers a list of methods, each naming its group (issue 25).
    const methods = (
      document.paths["/api/core/api/v1/payment/methods"]!.post as unknown as {
        responses: Record<
          string,
          {
            content: Record<string, { schema: { properties: { data: { type: string; items: { properties: Record<string, unknown> } } } } }>;
          }
        >;
      }
    ).responses["200"]!.content["application/json"]!.schema.properties.data;
    expect(methods.type).toBe("array");
    expect(Object.keys(methods.items.properties).sort()).toEqual([
      "additionalData",
      "code",
      "groupName",
      "id",
      "imageUrl",
      "name",
      "totalPayment",
      "type",
    ]);
  });
});
