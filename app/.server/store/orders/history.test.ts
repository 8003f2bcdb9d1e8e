import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { balanceEntries, orderEvents, orders, type AddressInput } from "../../db/schema";
import { processImageUpload } from "../../images";
import { dayWib } from "../../dates";
import { BUILT_IN_REWARD_RULE, getBalance, listBalanceHistory, rewardFor } from "./balance";
import { saveDraftAddress, setDraftKtp, startCheckout } from "../checkout";
import {
  createProduct,
  createVerifiedUser,
  INCENTIVE_PROMO,
  productStock,
  realAddress,
  submission,
  type TestUser,
} from "../../testing/fixtures";
import { costLines, getOwnedOrderDetail, hasOrders, listOrderHistoryPages, listOrderStatuses } from "./history";
import {
  cancelOrder,
  confirmDelivery,
  ORDER_ALREADY_CANCELLED,
  ORDER_ALREADY_DONE,
  ORDER_NOT_CANCELLABLE,
  ORDER_NOT_SHIPPED,
  PROOF_REQUIRED,
  transitionOrder,
} from "./orders";
import { createOrderFromDraft } from "../checkout";
import { saveUpload } from "./uploads";

// The buyer's side of orders: the list with its filters and pages, the owned detail, cancel and
// delivery confirmation by status, the reward credited once, and two tabs racing.

// Many orders through the real store on an embedded database: generous limits on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let db: Db;
let address: AddressInput;
let photo: Awaited<ReturnType<typeof makePhoto>>;

async function makePhoto() {
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();
  const result = await processImageUpload(new File([new Uint8Array(png)], "bukti.png", { type: "image/png" }));
  if (!result.ok) throw new Error(result.message);
  return result.file;
}

beforeAll(async () => {
  db = await getDb();
  address = await realAddress(db);
  photo = await makePhoto();
});

/** The path from the first status to each status (DESIGN §6). */
const PATHS: Record<number, number[]> = {
  100: [100],
  200: [200],
  301: [200, 301],
  302: [200, 302],
  300: [200, 300],
  400: [200, 300, 400],
  500: [200, 300, 400, 500],
  1: [200, 1],
  2: [200, 2],
};

/** An order of `user` brought to `statusId` through createOrderFromDraft and transitionOrder. */
async function orderAt(user: TestUser, statusId: number, productId?: number): Promise<{ orderId: number; productId: number }> {
  const path = PATHS[statusId]!;
  const incentive = path[0] === 100;
  const product = productId ?? (await createProduct(db, incentive ? { promos: [INCENTIVE_PROMO] } : {}));
  const started = await startCheckout({ id: user.id, verified: true }, product);
  if (!started.ok) throw new Error(started.message);
  await saveDraftAddress(user.id, address);
  if (incentive) await setDraftKtp(user.id, await saveUpload(user.id, "ktp", photo));
  const created = await createOrderFromDraft(
    user.id,
    randomUUID(),
    submission(user, { insentif: incentive, buyerDadName: incentive ? "Ahmad" : null }),
    { statusId: path[0] as 100 | 200 },
  );
  if (!created.ok) throw new Error(created.message);
  for (let i = 1; i < path.length; i++) {
    const moved = await transitionOrder(created.orderId, path[i - 1]!, path[i]!, "test");
    if (!moved.ok) throw new Error(`${path[i - 1]} → ${path[i]}: ${moved.message}`);
  }
  return { orderId: created.orderId, productId: product };
}

async function statusOf(orderId: number) {
  const [row] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  return row!.statusId;
}

const eventsTo = async (orderId: number, toStatus: number) =>
  (
    await db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, toStatus)))
  ).length;
const proofOf = (user: TestUser) => saveUpload(user.id, "delivery-proof", photo);

describe("cancelOrder by status", () => {
  it("cancels in 100, 200, 301 and 302, returning the stock unit", async () => {
    for (const statusId of [100, 200, 301, 302]) {
      const user = await createVerifiedUser(db);
      const { orderId, productId } = await orderAt(user, statusId);
      const stock = await productStock(db, productId);
      expect(await cancelOrder(orderId, user.id), `cancel in ${statusId}`).toEqual({ ok: true });
      expect(await statusOf(orderId)).toBe(1);
      expect(await productStock(db, productId)).toBe(stock + 1);
    }
  });

  it("refuses in 300, 400, 500, 1 and 2 with a clear message and changes nothing", async () => {
    const expected: Record<number, string> = {
      300: ORDER_NOT_CANCELLABLE,
      400: ORDER_NOT_CANCELLABLE,
      500: ORDER_NOT_CANCELLABLE,
      1: ORDER_ALREADY_CANCELLED,
      2: ORDER_NOT_CANCELLABLE,
    };
    for (const statusId of [300, 400, 500, 1, 2]) {
      const user = await createVerifiedUser(db);
      const { orderId, productId } = await orderAt(user, statusId);
      const stock = await productStock(db, productId);
      expect(await cancelOrder(orderId, user.id)).toEqual({ ok: false, message: expected[statusId] });
      expect(await statusOf(orderId)).toBe(statusId);
      expect(await productStock(db, productId)).toBe(stock);
    }
  });

  it("answers not found for someone else's order or an unknown id, and changes nothing", async () => {
    const owner = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    const { orderId } = await orderAt(owner, 200);
    expect(await cancelOrder(orderId, other.id)).toMatchObject({ ok: false, notFound: true });
    expect(await cancelOrder(2_000_000_000, owner.id)).toMatchObject({ ok: false, notFound: true });
    expect(await cancelOrder(Number.NaN, owner.id)).toMatchObject({ ok: false, notFound: true });
    expect(await statusOf(orderId)).toBe(200);
  });

  it("two tabs cancelling at once: exactly one transition and one stock unit back", async () => {
    const user = await createVerifiedUser(db);
    const { orderId, productId } = await orderAt(user, 200);
    const stock = await productStock(db, productId);
    const results = await Promise.all([cancelOrder(orderId, user.id), cancelOrder(orderId, user.id), cancelOrder(orderId, user.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.message)).toEqual([ORDER_ALREADY_CANCELLED, ORDER_ALREADY_CANCELLED]);
    expect(await eventsTo(orderId, 1)).toBe(1);
    expect(await productStock(db, productId)).toBe(stock + 1);
  });
});

describe("confirmDelivery", () => {
  it("finishes a 400 order with the buyer's proof and credits the reward once", async () => {
    const user = await createVerifiedUser(db);
    const { orderId } = await orderAt(user, 400);
    const [{ amount }] = (await db.select({ amount: orders.amount }).from(orders).where(eq(orders.id, orderId))) as [{ amount: number }];
    const proof = await proofOf(user);
    const result = await confirmDelivery(orderId, user.id, proof);
    expect(result).toEqual({ ok: true, reward: rewardFor({ amount, rule: BUILT_IN_REWARD_RULE }) });
    expect(await statusOf(orderId)).toBe(500);
    expect(await getBalance(user.id)).toBe(rewardFor({ amount, rule: BUILT_IN_REWARD_RULE })!.amount);
    expect((await getOwnedOrderDetail(orderId, user.id))!.deliveryProofUrls).toEqual([`/uploads/${proof}`]);
    // A repeat (double submit, stale tab) changes nothing and credits nothing more.
    expect(await confirmDelivery(orderId, user.id, await proofOf(user))).toEqual({ ok: false, message: ORDER_ALREADY_DONE });
    expect(await listBalanceHistory(user.id)).toHaveLength(1);
  });

  it("is refused outside 400", async () => {
    for (const statusId of [100, 200, 301, 302, 300, 2]) {
      const user = await createVerifiedUser(db);
      const { orderId } = await orderAt(user, statusId);
      expect(await confirmDelivery(orderId, user.id, await proofOf(user))).toEqual({ ok: false, message: ORDER_NOT_SHIPPED });
      expect(await statusOf(orderId)).toBe(statusId);
    }
    const user = await createVerifiedUser(db);
    const { orderId } = await orderAt(user, 1);
    expect(await confirmDelivery(orderId, user.id, await proofOf(user))).toEqual({ ok: false, message: ORDER_ALREADY_CANCELLED });
    expect(await getBalance(user.id)).toBe(0);
  });

  it("needs a delivery proof of the buyer's own", async () => {
    const user = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    const { orderId } = await orderAt(user, 400);
    expect(await confirmDelivery(orderId, user.id, "")).toEqual({ ok: false, message: PROOF_REQUIRED });
    expect(await confirmDelivery(orderId, user.id, await proofOf(other))).toEqual({ ok: false, message: PROOF_REQUIRED });
    expect(await confirmDelivery(orderId, user.id, await saveUpload(user.id, "ktp", photo))).toEqual({
      ok: false,
      message: PROOF_REQUIRED,
    });
    expect(await confirmDelivery(orderId, other.id, await proofOf(other))).toMatchObject({ ok: false, notFound: true });
    expect(await statusOf(orderId)).toBe(400);
    expect(await getBalance(user.id)).toBe(0);
  });

  it("takes up to 5 proofs in their order, all the buyer's own (issue 16)", async () => {
    const user = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    const { orderId } = await orderAt(user, 400);
    const six = await Promise.all(Array.from({ length: 6 }, () => proofOf(user)));
    expect(await confirmDelivery(orderId, user.id, six)).toEqual({ ok: false, message: "Maksimal 5 file bukti barang sampai." });
    expect(await confirmDelivery(orderId, user.id, [six[0]!, await proofOf(other)])).toEqual({ ok: false, message: PROOF_REQUIRED });
    expect(await confirmDelivery(orderId, user.id, [])).toEqual({ ok: false, message: PROOF_REQUIRED });
    expect(await statusOf(orderId)).toBe(400);
    expect(await confirmDelivery(orderId, user.id, [six[1]!, six[0]!])).toMatchObject({ ok: true });
    expect((await getOwnedOrderDetail(orderId, user.id))!.deliveryProofUrls).toEqual([`/uploads/${six[1]}`, `/uploads/${six[0]}`]);
  });

  it("two tabs confirming at once: one transition, one reward", async () => {
    const user = await createVerifiedUser(db);
    const { orderId } = await orderAt(user, 400);
    const proofs = await Promise.all([proofOf(user), proofOf(user)]);
    const results = await Promise.all(proofs.map((proof) => confirmDelivery(orderId, user.id, proof)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await eventsTo(orderId, 500)).toBe(1);
    expect(await db.select().from(balanceEntries).where(eq(balanceEntries.orderId, orderId))).toHaveLength(1);
  });
});

describe("order history", () => {
  it("lists only the user's orders, newest first, 10 a page, with the card's fields", async () => {
    const user = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    expect(await hasOrders(user.id)).toBe(false);
    await orderAt(other, 200);
    const product = await createProduct(db, { title: "Motor Listrik Halaman", stock: 30 });
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await orderAt(user, 200, product)).orderId);
    const [first, second] = await listOrderHistoryPages(user.id, {}, 1);
    expect(first!.content.map((o) => o.id)).toEqual(ids.slice(2).reverse());
    expect(first).toMatchObject({ total: 12, page: 0, isLastPage: false });
    expect(second!.content.map((o) => o.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second).toMatchObject({ page: 1, isLastPage: true });
    expect(first!.content[0]).toMatchObject({
      statusId: 200,
      statusName: "Menunggu Pembayaran",
      productTitle: "Motor Listrik Halaman",
      quantity: 1,
      paymentMethodId: null,
    });
    // A script appending page 1 gets only that page; a page past the end is the last one.
    expect((await listOrderHistoryPages(user.id, {}, 1, { only: true })).map((p) => p.page)).toEqual([1]);
    expect((await listOrderHistoryPages(user.id, {}, 999, { only: true })).map((p) => p.page)).toEqual([1]);
    expect(await hasOrders(user.id)).toBe(true);
  });

  it("filters by status and by whole WIB days of the date the card shows (the status date)", async () => {
    const user = await createVerifiedUser(db);
    const cancelled = (await orderAt(user, 1)).orderId;
    const waiting = (await orderAt(user, 200)).orderId;
    const lateEvening = (await orderAt(user, 200)).orderId;
    // 1 Nov 2026 00:30 WIB is still 31 Oct in UTC; 1 Nov 23:30 WIB is 1 Nov 16:30 UTC. Bought a week
    // earlier: the purchase date is not what the card shows, so it is not what the filter selects.
    const bought = new Date("2026-10-24T03:00:00Z");
    await db
      .update(orders)
      .set({ createdAt: bought, statusChangedAt: new Date("2026-10-31T17:30:00Z") })
      .where(eq(orders.id, waiting));
    await db
      .update(orders)
      .set({ createdAt: bought, statusChangedAt: new Date("2026-11-01T17:30:00Z") })
      .where(eq(orders.id, lateEvening)); // 2 Nov 00:30 WIB
    const ids = async (filters: Parameters<typeof listOrderHistoryPages>[1]) =>
      (await listOrderHistoryPages(user.id, filters, 0))[0]!.content.map((o) => o.id);
    expect(await ids({ dateFrom: "2026-10-24", dateTo: "2026-10-24" })).toEqual([]);
    const [card] = (await listOrderHistoryPages(user.id, { dateFrom: "2026-11-02", dateTo: "2026-11-02" }, 0))[0]!.content;
    expect(dayWib(card!.statusDate)).toBe("2026-11-02");
    expect(await ids({ statusId: 1 })).toEqual([cancelled]);
    expect(await ids({ dateFrom: "2026-11-01", dateTo: "2026-11-01" })).toEqual([waiting]);
    expect(await ids({ dateFrom: "2026-11-02", dateTo: "2026-11-02" })).toEqual([lateEvening]);
    expect(await ids({ dateFrom: "2026-11-01", dateTo: "2026-11-02", statusId: 200 })).toEqual([lateEvening, waiting]);
    expect(await ids({ statusId: 500 })).toEqual([]);
  });

  it("gives the detail to its owner only, with a breakdown that adds up", async () => {
    const owner = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    const { orderId } = await orderAt(owner, 100);
    expect(await getOwnedOrderDetail(orderId, other.id)).toBeNull();
    const detail = (await getOwnedOrderDetail(orderId, owner.id))!;
    expect(detail).toMatchObject({
      id: orderId,
      statusId: 100,
      statusName: "Menunggu Verifikasi Insentif",
      insentif: true,
      insentifValue: 7_000_000,
      kelurahan: expect.any(String),
      provinsi: expect.any(String),
    });
    const discounts = costLines(detail).reduce((sum, l) => sum + l.amount, 0);
    expect(detail.priceOri + discounts - detail.insentifValue - detail.promoPegawaiValue).toBe(detail.amount);
  });

  it("lists the statuses in the order an order meets them", async () => {
    expect((await listOrderStatuses()).map((s) => s.id)).toEqual([100, 200, 301, 302, 300, 400, 500, 1, 2]);
  });
});
