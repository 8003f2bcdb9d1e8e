import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { checkoutDrafts, orderEvents, orders, payments } from "../../db/schema";
import {
  createBuyer,
  createStockedProduct,
  methodId,
  placeOrder,
  productStock,
  proofUpload,
  readyDraft,
} from "../../testing/payment-fixtures";
import { chooseDraftMethod, chooseDraftTenor, getPaymentSummary, payDraft } from "../checkout";
import { expireOverduePayments } from "./settlement";
import { getPaymentDetail, markPaid } from "./page";
import {
  listPaymentMethods,
  listTenorOptions,
  METHOD_REQUIRED,
  OTP_REQUIRED,
  PAYMENT_EXPIRED,
  PROOF_REQUIRED,
  TENOR_REQUIRED,
} from "./methods";
import { setOrderPayment } from "./set-payment";
import { transitionOrder } from "../orders";
import { requestOtp, validateOtp } from "./otp";
import { waitForOutbox } from "../../testing/messages";
import { getOwnedOrderDetail, listOrderHistoryPages } from "../orders";
import { exportOrdersCsv, getOrderForOps, searchOrders } from "../back-office";
import { runOpsCommand } from "../../ops/commands";

// The payments store against this file's PGlite, or a shared PostgreSQL (DATABASE_URL): every buyer,
// product and order here is new. Reference data: BNI-VA fee 4,000; MANUAL-BNI fee 0.

const HOUR = 60 * 60 * 1000;

// Each case goes through the whole buyer path (draft, order, payment) on PGlite; on a machine shared
// by several builds that is slow, and opening the database (migrations, areas) is slower still.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
beforeAll(async () => {
  await getDb();
});
const later = (ms: number) => new Date(Date.now() + ms);

async function paymentOf(orderId: number) {
  const db = await getDb();
  const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  return row;
}
async function statusOf(orderId: number) {
  const db = await getDb();
  const [row] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  return row!.statusId;
}

describe("method list and tenors", () => {
  it("groups the methods, badges the VA group and prices each method for the amount", async () => {
    const groups = await listPaymentMethods(28_500_000);
    expect(groups.map((g) => g.name)).toEqual(["Virtual Account", "Manual", "Cicilan", "Lainnya"]);
    expect(groups[0]!.badge).toBe("-3% Diskon Pembelian Tunai");
    const bni = groups[0]!.methods.find((m) => m.code === "BNI-VA")!;
    expect(bni).toMatchObject({ fee: 4_000, totalPayment: 28_500_000 - 855_000 + 4_000, needsTenor: false });
    const instalment = groups[2]!.methods[0]!;
    expect(instalment).toMatchObject({ code: "BNI-INSTALLMENT", fee: 0, needsTenor: true });
    expect(instalment.additionalData.applyUrl).toMatch(/^https:\/\//);
    const tenors = await listTenorOptions(12_000_000, instalment.id);
    expect(tenors!.map((t) => [t.tenor, t.allMount])).toEqual([
      [3, 4_000_000],
      [6, 2_060_000],
      [12, 1_060_000],
    ]);
    expect(await listTenorOptions(12_000_000, bni.id)).toBeNull();
  });

  it("saves the method and tenor on the draft; BNI-INSTALLMENT without a tenor: 'Tenor wajib dipilih'", async () => {
    const buyer = await createBuyer();
    const product = await createStockedProduct({ price: 12_000_000 });
    await readyDraft(buyer, product);
    expect(await chooseDraftMethod(buyer.id, "")).toMatchObject({ ok: false, message: METHOD_REQUIRED });
    expect(await chooseDraftMethod(buyer.id, 999_999)).toMatchObject({ ok: false });
    expect(await chooseDraftMethod(buyer.id, await methodId("BNI-INSTALLMENT"))).toEqual({ ok: true, needsTenor: true });
    expect(await chooseDraftTenor(buyer.id, "")).toMatchObject({ ok: false, field: "tenor", message: TENOR_REQUIRED });
    expect(await chooseDraftTenor(buyer.id, "5")).toMatchObject({ ok: false, message: TENOR_REQUIRED });
    expect(await chooseDraftTenor(buyer.id, "6")).toEqual({ ok: true });
    const summary = await getPaymentSummary(buyer.id);
    expect(summary).toMatchObject({
      source: "draft",
      amount: 12_000_000,
      totalPayment: 12_000_000,
      method: { code: "BNI-INSTALLMENT" },
      tenor: { tenor: 6, allMount: 2_060_000 },
    });

    // Another method clears the tenor; the summary's total is that method's.
    expect(await chooseDraftMethod(buyer.id, await methodId("BRI-VA"))).toEqual({ ok: true, needsTenor: false });
    expect(await getPaymentSummary(buyer.id)).toMatchObject({ tenor: null, totalPayment: 12_000_000 - 360_000 + 4_000 });
  });

  it("has no summary without a draft or for someone else's order (the screen goes to /transaction)", async () => {
    const buyer = await createBuyer();
    expect(await getPaymentSummary(buyer.id)).toBeNull();
    const owner = await createBuyer();
    const orderId = await placeOrder(owner, await createStockedProduct(), "BNI-VA");
    expect(await getPaymentSummary(buyer.id, { orderId })).toBeNull();
    // The owner's order already has its method: not a set-payment order either.
    expect(await getPaymentSummary(owner.id, { orderId })).toBeNull();
  });
});

describe("continue: creating the order and opening its payment", () => {
  it("makes a VA order in 200 with one payment, −3% + fee, a BNI VA number and a 24-hour expiry; a double submit makes nothing more", async () => {
    const buyer = await createBuyer();
    const product = await createStockedProduct({ price: 28_500_000, stock: 3 });
    await readyDraft(buyer, product);
    expect(await payDraft(buyer.id, randomUUID())).toMatchObject({ ok: false, code: "METHOD", message: METHOD_REQUIRED });
    await chooseDraftMethod(buyer.id, await methodId("BNI-VA"));
    const key = randomUUID();
    const [first, second] = await Promise.all([payDraft(buyer.id, key), payDraft(buyer.id, key)]);
    expect(first).toMatchObject({ ok: true, redirectUrl: null });
    expect(second).toMatchObject({ ok: true });
    const orderId = (first as { orderId: number }).orderId;
    expect((second as { orderId: number }).orderId).toBe(orderId);
    expect(await payDraft(buyer.id, key)).toMatchObject({ ok: true, orderId, created: false });

    const db = await getDb();
    expect(await db.select().from(orders).where(eq(orders.userId, buyer.id))).toHaveLength(1);
    expect(await statusOf(orderId)).toBe(200);
    expect(await productStock(product)).toBe(2);
    expect(await db.select().from(checkoutDrafts).where(eq(checkoutDrafts.userId, buyer.id))).toHaveLength(0);
    const payment = (await paymentOf(orderId))!;
    expect(payment).toMatchObject({
      type: "virtual_account",
      amount: 28_500_000,
      discount: 855_000,
      fee: 4_000,
      total: 27_649_000,
      uniqueCode: null,
    });
    expect(payment.vaNumber).toMatch(/^8808\d{12}$/);
    expect(Math.abs(payment.expiresAt!.getTime() - (Date.now() + 24 * HOUR))).toBeLessThan(60_000);
  });

  it("sends instalment and paylater to 301; BRI-CERIA only with a validated OTP sent to the buyer's phone", async () => {
    const product = await createStockedProduct({ price: 15_000_000 });
    const cardBuyer = await createBuyer();
    const instalment = await placeOrder(cardBuyer, product, "BNI-INSTALLMENT", { tenor: 12 });
    expect(await statusOf(instalment)).toBe(301);
    expect(await paymentOf(instalment)).toMatchObject({
      type: "installment",
      tenor: 12,
      total: 15_000_000,
      vaNumber: null,
      expiresAt: null,
    });

    const paylaterBuyer = await createBuyer();
    await readyDraft(paylaterBuyer, product);
    await chooseDraftMethod(paylaterBuyer.id, await methodId("BRI-CERIA"));
    expect(await payDraft(paylaterBuyer.id, randomUUID())).toMatchObject({ ok: false, code: "OTP", message: OTP_REQUIRED });
    expect(await requestOtp(paylaterBuyer.id, paylaterBuyer.phoneNo)).toMatchObject({ ok: true });
    // The code goes by the SMS queue (issue 28): wait for it to arrive.
    const sms = (await waitForOutbox((entries) => entries.some((m) => m.to === paylaterBuyer.phoneNo))).find(
      (m) => m.to === paylaterBuyer.phoneNo,
    )!;
    const validated = await validateOtp(paylaterBuyer.id, sms.text.match(/\b(\d{4})\b/)![1]!);
    expect(validated.ok).toBe(true);
    const secretId = (validated as { secretId: string }).secretId;
    const made = await payDraft(paylaterBuyer.id, randomUUID(), { otpSecretId: secretId });
    expect(made).toMatchObject({ ok: true });
    expect(await statusOf((made as { orderId: number }).orderId)).toBe(301);

    // The secret is spent: it cannot pay for a second paylater order.
    await readyDraft(paylaterBuyer, product);
    await chooseDraftMethod(paylaterBuyer.id, await methodId("BRI-CERIA"));
    expect(await payDraft(paylaterBuyer.id, randomUUID(), { otpSecretId: secretId })).toMatchObject({ ok: false, code: "OTP" });
  });

  it("refuses a draft whose checkout form is incomplete", async () => {
    const buyer = await createBuyer();
    await readyDraft(buyer, await createStockedProduct());
    const db = await getDb();
    await db
      .update(checkoutDrafts)
      .set({ values: { buyerName: buyer.fullname } })
      .where(eq(checkoutDrafts.userId, buyer.id));
    await chooseDraftMethod(buyer.id, await methodId("BNI-VA"));
    expect(await payDraft(buyer.id, randomUUID())).toMatchObject({ ok: false, code: "CHECKOUT" });
    expect(await db.select().from(orders).where(eq(orders.userId, buyer.id))).toHaveLength(0);
  });

  it("sets the payment of an approved order in 200 once (set-payment), and opens it", async () => {
    const buyer = await createBuyer();
    const product = await createStockedProduct({ price: 10_000_000 });
    // An incentive order approved by ops arrives in 200 without a method; made here the same way.
    const orderId = await placeOrder(buyer, product, "BNI-VA");
    const db = await getDb();
    await db.delete(payments).where(eq(payments.orderId, orderId));
    await db.update(orders).set({ paymentMethodId: null }).where(eq(orders.id, orderId));

    expect(await getPaymentSummary(buyer.id, { orderId, choice: { paymentMethodId: await methodId("MANDIRI-VA") } })).toMatchObject({
      source: "order",
      orderId,
      amount: 10_000_000,
      totalPayment: 9_704_000,
    });
    const instalment = await methodId("BNI-INSTALLMENT");
    expect(await setOrderPayment(buyer.id, orderId, { paymentMethodId: instalment })).toMatchObject({
      ok: false,
      code: "TENOR",
      message: TENOR_REQUIRED,
    });
    const stranger = await createBuyer();
    expect(await setOrderPayment(stranger.id, orderId, { paymentMethodId: instalment, tenor: 3 })).toMatchObject({
      ok: false,
      code: "NOT_PAYABLE",
    });
    const [a, b] = await Promise.all([
      setOrderPayment(buyer.id, orderId, { paymentMethodId: instalment, tenor: "3" }),
      setOrderPayment(buyer.id, orderId, { paymentMethodId: instalment, tenor: "3" }),
    ]);
    expect(a).toMatchObject({ ok: true, orderId });
    expect(b).toMatchObject({ ok: true, orderId });
    expect(await statusOf(orderId)).toBe(301);
    expect(
      await db
        .select()
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 301))),
    ).toHaveLength(1);
    expect(await setOrderPayment(buyer.id, orderId, { paymentMethodId: await methodId("BNI-VA") })).toMatchObject({
      ok: false,
      code: "NOT_PAYABLE",
    });
  });
});

describe("manual transfer", () => {
  it("gives concurrent manual transfers different 3-digit codes, added to the amount", async () => {
    const product = await createStockedProduct({ price: 8_750_000, stock: 30 });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => createBuyer()));
    for (const buyer of buyers) {
      await readyDraft(buyer, product);
      await chooseDraftMethod(buyer.id, await methodId("MANUAL-BNI"));
    }
    const made = await Promise.all(buyers.map((buyer) => payDraft(buyer.id, randomUUID())));
    const rows = await Promise.all(made.map((m) => paymentOf((m as { orderId: number }).orderId)));
    const codes = rows.map((r) => r!.uniqueCode!);
    expect(new Set(codes).size).toBe(12);
    for (const row of rows) {
      expect(row!.uniqueCode).toBeGreaterThanOrEqual(1);
      expect(row!.uniqueCode).toBeLessThanOrEqual(999);
      expect(row!.total).toBe(8_750_000 + row!.uniqueCode!);
    }
    // Opening again (the payment page) keeps the code.
    const detail = await getPaymentDetail(rows[0]!.orderId, buyers[0]!.id);
    expect(detail).toMatchObject({
      uniqueCode: codes[0],
      totalAmount: 8_750_000 + codes[0]!,
      canMarkPaid: true,
      canSandboxPay: false,
      marker: false,
    });
    expect(detail!.manualInfoDetail).toMatchObject({ bankAccountName: "PT Toko Pegawai PLN", bankAccountNumber: detail!.vaNo });
  });

  it("moves to 302 with the buyer's own proof; 'Bukti Pembayaran tidak boleh kosong.' without it; 404 for anyone else", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI");
    expect(await markPaid(orderId, buyer.id, null)).toEqual({ ok: false, message: PROOF_REQUIRED });
    expect(await markPaid(orderId, buyer.id, "")).toEqual({ ok: false, message: PROOF_REQUIRED });
    const stranger = await createBuyer();
    const strangersProof = await proofUpload(stranger);
    expect(await markPaid(orderId, stranger.id, strangersProof)).toMatchObject({ ok: false, notFound: true });
    // Someone else's upload is no proof for this buyer.
    expect(await markPaid(orderId, buyer.id, strangersProof)).toEqual({ ok: false, message: PROOF_REQUIRED });
    const proof = await proofUpload(buyer);
    const [a, b] = await Promise.all([markPaid(orderId, buyer.id, proof), markPaid(orderId, buyer.id, proof)]);
    expect(a).toEqual({ ok: true });
    expect(b).toEqual({ ok: true });
    expect(await statusOf(orderId)).toBe(302);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 302))),
    ).toHaveLength(1);
    expect(await getPaymentDetail(orderId, buyer.id)).toMatchObject({ marker: true, canMarkPaid: false, expired: false });
    // Proof sent: the 24 hours no longer apply.
    expect(await getPaymentDetail(orderId, buyer.id, later(25 * HOUR))).toMatchObject({ statusId: 302, expired: false });
  });
});

describe("a rejected transfer proof (issue 16)", () => {
  it("302 → 200 clears the proof marker with the move: 'Saya sudah bayar' again with the reason; a new proof goes to 302; the old stays in the history", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI");
    const first = await proofUpload(buyer);
    expect(await markPaid(orderId, buyer.id, first)).toEqual({ ok: true });
    expect(await transitionOrder(orderId, 302, 200, "ops", "Nominal transfer tidak sesuai")).toEqual({ ok: true });
    expect(await paymentOf(orderId)).toMatchObject({ markedPaidAt: null, proofUploadId: null, closedAt: null });
    expect(await getPaymentDetail(orderId, buyer.id)).toMatchObject({
      statusId: 200,
      marker: false,
      canMarkPaid: true,
      proofRejected: { reason: "Nominal transfer tidak sesuai" },
    });

    const second = await proofUpload(buyer);
    expect(await markPaid(orderId, buyer.id, second)).toEqual({ ok: true });
    expect(await statusOf(orderId)).toBe(302);
    expect(await paymentOf(orderId)).toMatchObject({ proofUploadId: second });
    expect(await getPaymentDetail(orderId, buyer.id)).toMatchObject({ canMarkPaid: false, proofRejected: null });
    const db = await getDb();
    const sent = await db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 302)))
      .orderBy(orderEvents.id);
    expect(sent.map((e) => e.note)).toEqual([`Bukti transfer dikirim (bukti:${first})`, `Bukti transfer dikirim (bukti:${second})`]);
  });

  it("markPaid ends in every state: a marker left in 200 (a rejection before this fix) takes the new proof; a cancelled order refuses it", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI");
    const db = await getDb();
    await db
      .update(payments)
      .set({ markedPaidAt: new Date(), proofUploadId: await proofUpload(buyer) })
      .where(eq(payments.orderId, orderId));
    const proof = await proofUpload(buyer);
    expect(await markPaid(orderId, buyer.id, proof)).toEqual({ ok: true });
    expect(await statusOf(orderId)).toBe(302);

    const cancelled = await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI");
    expect(await transitionOrder(cancelled, 200, 1, `buyer:${buyer.id}`)).toEqual({ ok: true });
    expect(await markPaid(cancelled, buyer.id, await proofUpload(buyer))).toMatchObject({ ok: false });
  });
});

describe("the payment page", () => {
  it("shows the owner's VA payment with how-to per channel as sanitised HTML; nobody else's", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct({ price: 20_000_000 }), "BRI-VA");
    const detail = (await getPaymentDetail(orderId, buyer.id))!;
    expect(detail).toMatchObject({
      statusId: 200,
      statusName: "Menunggu Pembayaran",
      method: { code: "BRI-VA", type: "virtual_account" },
      totalAmount: 20_000_000 - 600_000 + 4_000,
      expired: false,
      canSandboxPay: true,
      canMarkPaid: false,
      manualInfoDetail: null,
    });
    expect(detail.vaNo).toMatch(/^26215\d{11}$/);
    expect(detail.howTo.map((h) => h.type)).toEqual(["ATM", "Mobile Banking", "Internet Banking"]);
    for (const step of detail.howTo) {
      expect(step.content).toContain(detail.vaNo);
      expect(step.content).not.toMatch(/<(?!\/?(ol|li|b)>)/);
    }
    const stranger = await createBuyer();
    expect(await getPaymentDetail(orderId, stranger.id)).toBeNull();
    expect(await getPaymentDetail(987_654_321, buyer.id)).toBeNull();
  });

  it("expires an overdue payment when it is read: status 2, the stock unit back, 'EXPIRED!' data; proof no longer accepted", async () => {
    const buyer = await createBuyer();
    const product = await createStockedProduct({ stock: 2 });
    const orderId = await placeOrder(buyer, product, "MANUAL-BNI");
    expect(await productStock(product)).toBe(1);
    const detail = await getPaymentDetail(orderId, buyer.id, later(24 * HOUR + 60_000));
    expect(detail).toMatchObject({ expired: true, statusId: 2, canMarkPaid: false, canSandboxPay: false });
    expect(await productStock(product)).toBe(2);
    expect(await paymentOf(orderId)).toMatchObject({ closedReason: "expired" });
    // Reading again changes nothing more.
    await getPaymentDetail(orderId, buyer.id, later(48 * HOUR));
    expect(await productStock(product)).toBe(2);
    expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toMatchObject({ ok: false });

    const other = await placeOrder(buyer, product, "MANUAL-BNI");
    const db = await getDb();
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.orderId, other));
    expect(await markPaid(other, buyer.id, await proofUpload(buyer))).toEqual({ ok: false, message: PAYMENT_EXPIRED });
    expect(await statusOf(other)).toBe(2);
  });

  it("expires overdue payments by the sweep, once, and frees the codes of cancelled orders", async () => {
    const buyer = await createBuyer();
    const product = await createStockedProduct({ stock: 5 });
    const overdue = await placeOrder(buyer, product, "BNI-VA");
    const fresh = await placeOrder(buyer, product, "MANDIRI-VA");
    const cancelled = await placeOrder(buyer, product, "MANUAL-BNI");
    expect(await productStock(product)).toBe(2);
    const db = await getDb();
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.orderId, overdue));
    expect((await transitionOrder(cancelled, 200, 1, `buyer:${buyer.id}`)).ok).toBe(true);

    expect(await expireOverduePayments()).toContain(overdue);
    expect(await statusOf(overdue)).toBe(2);
    expect(await statusOf(fresh)).toBe(200);
    expect(await productStock(product)).toBe(4);
    expect(await paymentOf(overdue)).toMatchObject({ closedReason: "expired" });
    expect(await paymentOf(cancelled)).toMatchObject({ closedReason: "order-closed" });
    expect((await paymentOf(cancelled))!.closedAt).not.toBeNull();
    await expireOverduePayments();
    expect(await productStock(product)).toBe(4);
    expect(
      await db
        .select()
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, overdue), eq(orderEvents.toStatus, 2))),
    ).toHaveLength(1);
  });
});

describe("one amount everywhere (issue 25)", () => {
  /** Every place an order's amount is read: the invoice and detail, the list, orders:list, the back office, the finance CSV. */
  async function amountsShown(orderId: number, buyerId: number) {
    const detail = (await getOwnedOrderDetail(orderId, buyerId))!;
    const [page] = await listOrderHistoryPages(buyerId, {}, 0);
    const lines: string[] = [];
    await runOpsCommand(["orders:list"], { out: (line) => lines.push(line), err: () => {} });
    const cliLine = lines.find((line) => line.includes(detail.invoiceId))!;
    const search = await searchOrders({ invoice: detail.invoiceId }, 1);
    let csv = "";
    for await (const chunk of exportOrdersCsv({ invoice: detail.invoiceId })) csv += chunk;
    const [header, row] = csv
      .trim()
      .split("\n")
      .map((line) => line.split(","));
    return {
      invoice: detail.totalAmount,
      // The invoice's lines take 'Total Belanja' to 'Total Bayar'.
      invoiceLines: detail.amount - (detail.payment?.discount ?? 0) + (detail.payment?.fee ?? 0) + (detail.payment?.uniqueCode ?? 0),
      list: page!.content.find((item) => item.id === orderId)!.totalAmount,
      cli: Number(cliLine.trim().split(/\s{2,}/)[4]),
      backOfficeList: search.items[0]!.totalAmount,
      backOfficeOrder: (await getOrderForOps(orderId))!.totalAmount,
      csv: Number(row![header!.indexOf("Jumlah Bayar")]),
    };
  }

  it("a VA order, a manual transfer with its code and an instalment each show the gateway's amount on all five places", async () => {
    for (const [code, tenor] of [["BNI-VA"], ["MANUAL-BNI"], ["BNI-INSTALLMENT", 6]] as const) {
      const buyer = await createBuyer();
      const orderId = await placeOrder(buyer, await createStockedProduct({ price: 710_280 }), code, tenor ? { tenor } : {});
      const payment = (await paymentOf(orderId))!;
      if (code === "BNI-VA") expect(payment.total).toBe(710_280 - 21_308 + 4_000);
      if (code === "MANUAL-BNI") expect(payment.total).toBe(710_280 + payment.uniqueCode!);
      const shown = await amountsShown(orderId, buyer.id);
      expect(shown, code).toEqual({
        invoice: payment.total,
        invoiceLines: payment.total,
        list: payment.total,
        cli: payment.total,
        backOfficeList: payment.total,
        backOfficeOrder: payment.total,
        csv: payment.total,
      });
    }
  });

  it("orders whose payment was opened before the column existed get it from their payment (the migration's fill)", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct({ price: 710_280 }), "BNI-VA");
    const db = await getDb();
    await db.update(orders).set({ paymentTotal: null }).where(eq(orders.id, orderId));
    const migration = fs.readFileSync(path.resolve("app/.server/db/migrations/0013_ready_for_deployment.sql"), "utf8");
    const fill = migration
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .find((s) => s.includes('SET "payment_total"'))!;
    await db.execute(sql.raw(fill.replace(/^--.*$/gm, "")));
    expect((await amountsShown(orderId, buyer.id)).csv).toBe(710_280 - 21_308 + 4_000);
  });
});
