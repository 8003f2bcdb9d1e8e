import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as accountDoor from "./test-preconditions";
import * as orderDoor from "./test-order";
import { getDb } from "~/.server/db/client";
import { getOwnedOrderSummary } from "~/.server/store/orders";
import { createProduct, INCENTIVE_PROMO, productStock } from "~/.server/testing/fixtures";
import { TestBrowser } from "~/.server/testing/test-browser";
import { ORDER_STATUS } from "~/lib/order-status";

// The e2e tests' order precondition (issue 44, decision 0066): POST /__test/order is absent (404) on
// every server not started with STORE_TEST_DOOR=1, and with it makes the order the checkout makes.

afterEach(() => vi.unstubAllEnvs());

const ktpPhoto = async () =>
  new File(
    [
      new Uint8Array(
        await sharp({ create: { width: 900, height: 570, channels: 3, background: { r: 40, g: 110, b: 180 } } })
          .jpeg()
          .toBuffer(),
      ),
    ],
    "ktp.jpg",
    { type: "image/jpeg" },
  );

/** A buyer signed in through the account door (the flag is on while it is made). */
async function signedInBuyer(email: string) {
  vi.stubEnv("STORE_TEST_DOOR", "1");
  const browser = new TestBrowser();
  const form = new FormData();
  form.set("email", email);
  form.set("password", "Rahasia123!");
  form.set("nip", `86${Math.floor(10_000_000 + Math.random() * 89_999_999)}`);
  const made = await browser.post(accountDoor.action, "/__test/account", form);
  expect(made.status).toBe(200);
  return { browser, userId: (made.data as { userId: number }).userId };
}

async function orderForm(productId: number, fields: Record<string, string>) {
  const form = new FormData();
  form.set("productId", String(productId));
  const all = { buyerName: "Rina Wulandari", buyerPhoneNumber: "081234567890", buyerEmail: "rina@example.test", ...fields };
  for (const [name, value] of Object.entries(all)) form.set(name, value);
  form.set("bbnValidation", "on");
  form.set("domisiliValidation", "on");
  form.set("ktp", await ktpPhoto());
  return form;
}

const nik = () => `3273${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}`;

describe("/__test/order", () => {
  it("answers 404 to GET and POST without STORE_TEST_DOOR=1, and makes no order", async () => {
    const { browser } = await signedInBuyer("pintu-order-tutup@example.test");
    const productId = await createProduct(await getDb(), { price: 12_500_000, stock: 3 });
    vi.stubEnv("STORE_TEST_DOOR", undefined);
    expect((await browser.get(orderDoor.loader, "/__test/order")).status).toBe(404);
    const post = await browser.post(orderDoor.action, "/__test/order", await orderForm(productId, { buyerNik: nik(), method: "BNI-VA" }));
    expect(post.status).toBe(404);
    vi.stubEnv("STORE_TEST_DOOR", "yes");
    expect(
      (await browser.post(orderDoor.action, "/__test/order", await orderForm(productId, { buyerNik: nik(), method: "BNI-VA" }))).status,
    ).toBe(404);
    // No order reserved a unit of the product.
    expect(await productStock(await getDb(), productId)).toBe(3);
  });

  it("with STORE_TEST_DOOR=1 makes the signed-in buyer's incentive order (100) and a paid-by-VA order (200), by the checkout's rules", async () => {
    const { browser, userId } = await signedInBuyer("pintu-order@example.test");
    const db = await getDb();
    const incentiveProduct = await createProduct(db, { price: 28_500_000, stock: 3, promos: [INCENTIVE_PROMO] });
    const usedNik = nik();
    const incentive = await browser.post(
      orderDoor.action,
      "/__test/order",
      await orderForm(incentiveProduct, { buyerNik: usedNik, insentif: "on", buyerDadName: "Slamet Riyadi", nikValidation: "on" }),
    );
    expect(incentive.status).toBe(200);
    const { orderId } = incentive.data as { orderId: number };
    expect(await getOwnedOrderSummary(orderId, userId)).toMatchObject({ statusId: ORDER_STATUS.INCENTIVE_REVIEW });

    // The checkout's rules hold: the same NIK cannot have a second incentive.
    const again = await browser.post(
      orderDoor.action,
      "/__test/order",
      await orderForm(incentiveProduct, { buyerNik: usedNik, insentif: "on", buyerDadName: "Slamet Riyadi", nikValidation: "on" }),
    );
    expect(again.status).toBe(409);

    const bike = await createProduct(db, { price: 12_500_000, stock: 3 });
    const paid = await browser.post(orderDoor.action, "/__test/order", await orderForm(bike, { buyerNik: nik(), method: "BNI-VA" }));
    expect(paid.status).toBe(200);
    expect(await getOwnedOrderSummary((paid.data as { orderId: number }).orderId, userId)).toMatchObject({
      statusId: ORDER_STATUS.AWAITING_PAYMENT,
    });
  });

  it("refuses a caller who is not signed in", async () => {
    vi.stubEnv("STORE_TEST_DOOR", "1");
    const productId = await createProduct(await getDb(), { price: 12_500_000, stock: 3 });
    const post = await new TestBrowser().post(
      orderDoor.action,
      "/__test/order",
      await orderForm(productId, { buyerNik: nik(), method: "BNI-VA" }),
    );
    expect(post.status).toBe(401);
  });
});
