import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { checkoutDrafts, orderEvents, orderProducts, orders, type AddressInput } from "../../db/schema";
import { processImageUpload } from "../../images";
import { getCheckoutDraft, saveDraftAddress, setDraftKtp, startCheckout } from "../checkout";
import {
  createProduct,
  createVerifiedUser,
  EMPLOYEE_PROMO,
  ICP_PROMO,
  INCENTIVE_PROMO,
  productStock,
  randomNik,
  realAddress,
  submission,
  type TestUser,
} from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { checkOrderRules, createOrderFromDraft, EMPLOYEE_PROMO_USED, NIK_ALREADY_USED, NIP_NOT_ACCOUNTS, NO_DRAFT } from "../checkout";
import { getOwnedOrderSummary, ORDER_TRANSITIONS, transitionOrder } from "./orders";
import { saveUpload } from "./uploads";
import { readNik } from "../privacy";

// Orders, stock and statuses through the one store module. Runs on this file's PGlite, or with
// DATABASE_URL on a database of its own on that server (it creates products, which would move the
// catalogue tests' listings).

let db: Db;
let address: AddressInput;
let ktpFile: Awaited<ReturnType<typeof makeKtp>>;

async function makeKtp() {
  const png = await sharp({ create: { width: 900, height: 570, channels: 3, background: { r: 90, g: 140, b: 210 } } })
    .png()
    .toBuffer();
  const result = await processImageUpload(new File([new Uint8Array(png)], "ktp.png", { type: "image/png" }));
  if (!result.ok) throw new Error(result.message);
  return result.file;
}

ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  address = await realAddress(db);
  ktpFile = await makeKtp();
});

/** A user with a complete draft for `productId`: address chosen, KTP uploaded unless told otherwise. */
async function buyerWithDraft(productId: number, options: { user?: TestUser; ktp?: boolean; address?: boolean } = {}) {
  const user = options.user ?? (await createVerifiedUser(db));
  const started = await startCheckout({ id: user.id, verified: true }, productId);
  if (!started.ok) throw new Error(started.message);
  if (options.address !== false) await saveDraftAddress(user.id, address);
  if (options.ktp !== false) await setDraftKtp(user.id, await saveUpload(user.id, "ktp", ktpFile));
  return user;
}

const key = () => randomUUID();

async function statusOf(orderId: number) {
  const [row] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  return row!.statusId;
}

async function eventsOf(orderId: number) {
  return db
    .select({ fromStatus: orderEvents.fromStatus, toStatus: orderEvents.toStatus, actor: orderEvents.actor })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));
}

describe("createOrderFromDraft", () => {
  it("creates an incentive order at 100 with the snapshot, the amounts, one product row and an event; reserves a unit; clears the draft", async () => {
    const product = await createProduct(db, {
      price: 28_500_000,
      discount: 5,
      discountType: "%",
      stock: 3,
      promos: [EMPLOYEE_PROMO, ICP_PROMO, INCENTIVE_PROMO],
    });
    const user = await buyerWithDraft(product);
    const nik = randomNik();
    const result = await createOrderFromDraft(
      user.id,
      key(),
      submission(user, { buyerNik: nik, insentif: true, buyerDadName: "Ahmad Yani", ajukanInsentifPegawai: true, note: "Kirim pagi" }),
      { statusId: 100 },
    );
    expect(result).toMatchObject({ ok: true, created: true });
    if (!result.ok) return;
    expect(await productStock(db, product)).toBe(2);
    expect(await getCheckoutDraft(user.id)).toBeNull();

    const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order).toMatchObject({
      userId: user.id,
      productId: product,
      statusId: 100,
      buyerDadName: "Ahmad Yani",
      note: "Kirim pagi",
      provinsi: "Jawa Barat",
      kota: "Kota Bandung",
      kodePos: address.kodePos,
      insentif: true,
      insentifValue: 7_000_000,
      promoPegawai: true,
      promoPegawaiValue: 1_000_000,
      priceOri: 28_500_000,
      // 28,500,000 − 5% − 250,000 (ICP) = 26,825,000; − 7,000,000 incentive − 1,000,000 employee
      amount: 18_825_000,
      totalAmount: 18_825_000,
    });
    expect(order!.ktpUploadId).toBeTruthy();
    // Issue 35: the NIK is stored sealed, with its keyed hash; it opens only through the store.
    expect(order!.buyerNik).not.toContain(nik);
    expect(readNik(order!.buyerNik, { orderId: result.orderId })).toBe(nik);
    expect(order!.buyerNikHash).toMatch(/^[0-9a-f]{64}$/);
    expect(order!.invoiceId).toMatch(/^INV\/20\d{6}\/\d{6,}$/);
    expect(order!.invoiceId.endsWith(String(result.orderId).padStart(6, "0"))).toBe(true);

    const [line] = await db.select().from(orderProducts).where(eq(orderProducts.orderId, result.orderId));
    expect(line).toMatchObject({ qty: 1, price: 26_825_000, priceOri: 28_500_000, totalDiscount: 9_675_000 });
    expect(line!.promo.map((p) => p.title).sort()).toEqual([EMPLOYEE_PROMO.title, ICP_PROMO.title, INCENTIVE_PROMO.title].sort());
    expect(await eventsOf(result.orderId)).toEqual([{ fromStatus: null, toStatus: 100, actor: `buyer:${user.id}` }]);
    expect(await getOwnedOrderSummary(result.orderId, user.id)).toEqual({
      id: result.orderId,
      invoiceId: order!.invoiceId,
      statusId: 100,
      statusName: "Menunggu Verifikasi Insentif",
    });
  });

  it("creates an order without incentive at 200 with only the ordinary promos; KTP not needed", async () => {
    const product = await createProduct(db, { price: 1_000_000, promos: [ICP_PROMO, INCENTIVE_PROMO, EMPLOYEE_PROMO] });
    const user = await buyerWithDraft(product, { ktp: false });
    const result = await createOrderFromDraft(user.id, key(), submission(user, { buyerDadName: "dropped" }), { statusId: 200 });
    expect(result).toMatchObject({ ok: true, created: true });
    if (!result.ok) return;
    const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order).toMatchObject({
      statusId: 200,
      insentif: false,
      insentifValue: 0,
      promoPegawai: false,
      promoPegawaiValue: 0,
      amount: 750_000,
      buyerDadName: null,
      ktpUploadId: null,
    });
  });

  it("refuses without a draft, without an address, and an incentive without a KTP photo or on a product without incentive", async () => {
    const product = await createProduct(db, { promos: [INCENTIVE_PROMO] });
    const plain = await createProduct(db);
    const nobody = await createVerifiedUser(db);
    expect(await createOrderFromDraft(nobody.id, key(), submission(nobody), { statusId: 200 })).toEqual({
      ok: false,
      field: "product",
      message: NO_DRAFT,
    });
    const noAddress = await buyerWithDraft(product, { address: false });
    expect(await createOrderFromDraft(noAddress.id, key(), submission(noAddress), { statusId: 200 })).toEqual({
      ok: false,
      field: "address",
      message: "Alamat tidak boleh kosong.",
    });
    const noKtp = await buyerWithDraft(product, { ktp: false });
    expect(
      await createOrderFromDraft(noKtp.id, key(), submission(noKtp, { insentif: true, buyerDadName: "Ahmad" }), { statusId: 100 }),
    ).toEqual({ ok: false, field: "ktp", message: "File KTP tidak boleh kosong." });
    const noIncentive = await buyerWithDraft(plain);
    expect(
      await createOrderFromDraft(noIncentive.id, key(), submission(noIncentive, { insentif: true, buyerDadName: "Ahmad" }), {
        statusId: 100,
      }),
    ).toMatchObject({ ok: false, field: "insentif" });
    // Nothing was reserved, and the drafts are still there to fix.
    expect(await productStock(db, product)).toBe(10);
    expect(await productStock(db, plain)).toBe(10);
    expect(await getCheckoutDraft(noKtp.id)).not.toBeNull();
  });

  it("is idempotent: the same key twice (one after the other, or at once) makes one order", async () => {
    const product = await createProduct(db, { stock: 5 });
    const user = await buyerWithDraft(product);
    const formKey = key();
    const first = await createOrderFromDraft(user.id, formKey, submission(user), { statusId: 200 });
    const again = await createOrderFromDraft(user.id, formKey, submission(user), { statusId: 200 });
    expect(first).toMatchObject({ ok: true, created: true });
    expect(again).toEqual({ ok: true, orderId: (first as { orderId: number }).orderId, created: false });
    // Even when the repeat's form differs (a re-render in between), the key decides.
    expect(await createOrderFromDraft(user.id, formKey, submission(user, { insentif: true }), { statusId: 100 })).toEqual(again);

    const racer = await buyerWithDraft(product);
    const raceKey = key();
    const both = await Promise.all([1, 2, 3].map(() => createOrderFromDraft(racer.id, raceKey, submission(racer), { statusId: 200 })));
    expect(both.filter((r) => r.ok && r.created)).toHaveLength(1);
    expect(new Set(both.map((r) => (r.ok ? r.orderId : null))).size).toBe(1);
    expect(await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, racer.id))).toHaveLength(1);
    expect(await productStock(db, product)).toBe(3);
  });

  it("never takes stock below 0: 30 buyers at once on stock 10 make exactly 10 orders", async () => {
    const product = await createProduct(db, { stock: 10 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => buyerWithDraft(product, { ktp: false })));
    const results = await Promise.all(buyers.map((user) => createOrderFromDraft(user.id, key(), submission(user), { statusId: 200 })));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? "" : r.message))).toEqual(Array(20).fill("Stok produk habis."));
    expect(await productStock(db, product)).toBe(0);
    expect(await db.select({ id: orders.id }).from(orders).where(eq(orders.productId, product))).toHaveLength(10);
    // The refused buyers keep their drafts.
    const refused = buyers.filter((_, i) => !results[i]!.ok);
    expect(
      await db.select({ userId: checkoutDrafts.userId }).from(checkoutDrafts).where(eq(checkoutDrafts.productId, product)),
    ).toHaveLength(refused.length);
  });
});

describe("one NIK, one live incentive", () => {
  it("refuses a NIK already on a live incentive order, and allows it again once that order is cancelled", async () => {
    const product = await createProduct(db, { stock: 10, promos: [INCENTIVE_PROMO] });
    const nik = randomNik();
    const first = await buyerWithDraft(product);
    const created = await createOrderFromDraft(
      first.id,
      key(),
      submission(first, { buyerNik: nik, insentif: true, buyerDadName: "Ahmad" }),
      { statusId: 100 },
    );
    expect(created.ok).toBe(true);

    const second = await buyerWithDraft(product);
    const sameNik = submission(second, { buyerNik: nik, insentif: true, buyerDadName: "Budi" });
    expect(await checkOrderRules(second.id, sameNik)).toEqual({ ok: false, field: "buyerNik", message: NIK_ALREADY_USED });
    expect(await createOrderFromDraft(second.id, key(), sameNik, { statusId: 100 })).toEqual({
      ok: false,
      field: "buyerNik",
      message: NIK_ALREADY_USED,
    });
    // The same NIK without the incentive is fine (the rule is about the incentive).
    expect(await checkOrderRules(second.id, { ...sameNik, insentif: false })).toEqual({ ok: true });

    expect(await transitionOrder((created as { orderId: number }).orderId, 100, 1, `buyer:${first.id}`)).toEqual({ ok: true });
    expect(await createOrderFromDraft(second.id, key(), sameNik, { statusId: 100 })).toMatchObject({ ok: true, created: true });
  });

  it("lets only one of several buyers submitting the same NIK at once through", async () => {
    const product = await createProduct(db, { stock: 10, promos: [INCENTIVE_PROMO] });
    const nik = randomNik();
    const buyers = await Promise.all([1, 2, 3, 4].map(() => buyerWithDraft(product)));
    const results = await Promise.all(
      buyers.map((u) =>
        createOrderFromDraft(u.id, key(), submission(u, { buyerNik: nik, insentif: true, buyerDadName: "Ahmad" }), { statusId: 100 }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array(3).fill({ ok: false, field: "buyerNik", message: NIK_ALREADY_USED }));
    expect(await productStock(db, product)).toBe(9);
  });
});

describe("one employee promo per employee per product", () => {
  it("needs the account's own NIP, and refuses a second live use on the same product", async () => {
    const product = await createProduct(db, { stock: 10, promos: [EMPLOYEE_PROMO] });
    const other = await createProduct(db, { stock: 10, promos: [EMPLOYEE_PROMO] });
    const user = await buyerWithDraft(product);
    expect(await checkOrderRules(user.id, submission(user, { buyerNip: "0000000000", ajukanInsentifPegawai: true }))).toEqual({
      ok: false,
      field: "buyerNip",
      message: NIP_NOT_ACCOUNTS,
    });
    const first = await createOrderFromDraft(user.id, key(), submission(user, { ajukanInsentifPegawai: true }), { statusId: 200 });
    expect(first).toMatchObject({ ok: true, created: true });

    await buyerWithDraft(product, { user });
    expect(await createOrderFromDraft(user.id, key(), submission(user, { ajukanInsentifPegawai: true }), { statusId: 200 })).toEqual({
      ok: false,
      field: "ajukanInsentifPegawai",
      message: EMPLOYEE_PROMO_USED,
    });
    // Without the promo the same product can be bought again; another product still has its own promo.
    expect(await createOrderFromDraft(user.id, key(), submission(user), { statusId: 200 })).toMatchObject({ ok: true, created: true });
    await buyerWithDraft(other, { user });
    expect(await createOrderFromDraft(user.id, key(), submission(user, { ajukanInsentifPegawai: true }), { statusId: 200 })).toMatchObject({
      ok: true,
      created: true,
    });

    // Once the first order is cancelled, the promo may be used again on that product.
    expect(await transitionOrder((first as { orderId: number }).orderId, 200, 1, `buyer:${user.id}`)).toEqual({ ok: true });
    await buyerWithDraft(product, { user });
    expect(await createOrderFromDraft(user.id, key(), submission(user, { ajukanInsentifPegawai: true }), { statusId: 200 })).toMatchObject({
      ok: true,
      created: true,
    });
  });
});

describe("getOwnedOrderSummary", () => {
  it("answers the owner only", async () => {
    const product = await createProduct(db);
    const user = await buyerWithDraft(product);
    const stranger = await createVerifiedUser(db);
    const result = await createOrderFromDraft(user.id, key(), submission(user), { statusId: 200 });
    if (!result.ok) throw new Error(result.message);
    expect(await getOwnedOrderSummary(result.orderId, user.id)).toMatchObject({ statusId: 200, statusName: "Menunggu Pembayaran" });
    expect(await getOwnedOrderSummary(result.orderId, stranger.id)).toBeNull();
  });
});

describe("transitionOrder (DESIGN §6)", () => {
  const STATUSES = [100, 200, 301, 302, 300, 400, 500, 1, 2];

  it("has exactly the table of DESIGN §6 (with 300 → 1 of decision 0057), with 500, 1 and 2 terminal", () => {
    expect(ORDER_TRANSITIONS).toEqual({
      100: [200, 1, 2],
      200: [301, 302, 300, 1, 2],
      301: [300, 1, 2],
      302: [300, 200, 1, 2],
      300: [400, 1],
      400: [500],
      500: [],
      1: [],
      2: [],
    });
  });

  it("performs every allowed transition and refuses every other, changing nothing when refused", async () => {
    const product = await createProduct(db, { stock: 100 });
    const user = await createVerifiedUser(db);
    for (const from of STATUSES) {
      await buyerWithDraft(product, { user, ktp: false });
      const created = await createOrderFromDraft(user.id, key(), submission(user), { statusId: 200 });
      if (!created.ok) throw new Error(created.message);
      for (const to of STATUSES) {
        // Put the order in `from` (test setup; the app only gets there through transitions).
        await db.update(orders).set({ statusId: from }).where(eq(orders.id, created.orderId));
        const stockBefore = await productStock(db, product);
        const eventsBefore = await eventsOf(created.orderId);
        const allowed = ORDER_TRANSITIONS[from as keyof typeof ORDER_TRANSITIONS]!.includes(to as never);
        const result = await transitionOrder(created.orderId, from, to, "ops", "uji");
        expect(result.ok, `${from} → ${to}`).toBe(allowed);
        expect(await statusOf(created.orderId)).toBe(allowed ? to : from);
        expect(await eventsOf(created.orderId)).toEqual(
          allowed ? [...eventsBefore, { fromStatus: from, toStatus: to, actor: "ops" }] : eventsBefore,
        );
        // Leaving a live status for 1 or 2 gives the unit back; nothing else touches the stock.
        const returnsUnit = allowed && (to === 1 || to === 2);
        expect(await productStock(db, product), `${from} → ${to} stock`).toBe(stockBefore + (returnsUnit ? 1 : 0));
      }
    }
  });

  it("refuses when the order is not in the expected status any more, so two racing cancels return one unit", async () => {
    const product = await createProduct(db, { stock: 2 });
    const user = await buyerWithDraft(product);
    const created = await createOrderFromDraft(user.id, key(), submission(user), { statusId: 200 });
    if (!created.ok) throw new Error(created.message);
    expect(await productStock(db, product)).toBe(1);
    expect(await transitionOrder(created.orderId, 100, 200, "ops")).toEqual({ ok: false, message: "Status pesanan tidak dapat diubah." });
    const racing = await Promise.all([
      transitionOrder(created.orderId, 200, 1, "buyer"),
      transitionOrder(created.orderId, 200, 2, "system"),
      transitionOrder(created.orderId, 200, 1, "buyer"),
    ]);
    expect(racing.filter((r) => r.ok)).toHaveLength(1);
    expect(await productStock(db, product)).toBe(2);
    expect(await eventsOf(created.orderId)).toHaveLength(2);
    // Terminal: nothing moves it again.
    const final = await statusOf(created.orderId);
    for (const to of STATUSES) expect((await transitionOrder(created.orderId, final, to, "ops")).ok).toBe(false);
  });

  it("a cancelled order's unit can be bought again", async () => {
    const product = await createProduct(db, { stock: 1 });
    const first = await buyerWithDraft(product);
    const created = await createOrderFromDraft(first.id, key(), submission(first), { statusId: 200 });
    const second = await buyerWithDraft(product).catch((e: Error) => e.message);
    expect(second).toBe("Stok produk habis.");
    await transitionOrder((created as { orderId: number }).orderId, 200, 1, `buyer:${first.id}`);
    const buyer = await buyerWithDraft(product);
    expect(await createOrderFromDraft(buyer.id, key(), submission(buyer), { statusId: 200 })).toMatchObject({ ok: true, created: true });
    expect(await productStock(db, product)).toBe(0);
  });
});
