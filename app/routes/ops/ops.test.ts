import { and, count, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as exportRoute from "./export";
import * as layoutRoute from "./layout";
import * as orderRoute from "./order";
import * as orderKtpRoute from "./order-ktp";
import * as queueRoute from "./queue";
import * as queuesRoute from "./queues";
import * as searchRoute from "./search";
import * as secondFactorRoute from "./second-factor";
import * as withdrawalsRoute from "./withdrawals";
import * as catalogueBannersRoute from "./catalogue/banners";
import * as catalogueCategoriesRoute from "./catalogue/categories";
import * as catalogueExportRoute from "./catalogue/export";
import * as catalogueImportRoute from "./catalogue/import";
import * as catalogueIndexRoute from "./catalogue/index";
import * as catalogueProductRoute from "./catalogue/product";
import * as catalogueProductPhotosRoute from "./catalogue/product-photos";
import * as catalogueProductsRoute from "./catalogue/products";
import * as cataloguePromosRoute from "./catalogue/promos";
import * as uploadsRoute from "../uploads";
import { TestBrowser, type Outcome, type RouteMiddleware } from "../../.server/testing/test-browser";
import { getDb, type Db } from "~/.server/db/client";
import * as rosterRoute from "./employees/roster";
import * as accountsRoute from "./employees/accounts";
import * as linkRequestsRoute from "./employees/link-requests";
import * as settingsRoute from "./settings";
import * as staffRoute from "./staff";
import {
  balanceEntries,
  banners,
  catalogueAudit,
  categories,
  companies,
  csvImports,
  operatorAudit,
  operatorFactors,
  orderEvents,
  personalDataAccess,
  orders,
  paymentMethods,
  productImages,
  products,
  promos,
  rosterEntries,
  rosterLinkRequests,
  staffRoles,
  storeSettings,
  users,
} from "~/.server/db/schema";
import { readOutbox } from "~/.server/store/messages";
import { settleMessages } from "~/.server/testing/messages";
import { requestWithdrawal } from "~/.server/store/orders";
import { createProduct, createVerifiedUser, type TestUser } from "~/.server/testing/fixtures";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";
import { applyRosterImport, grantRolesByEmail, registerUser, setOperatorRole } from "~/.server/store/people";
import { hasRole, STAFF_ROLES, type StaffRole } from "~/lib/staff-roles";
import { mayUseArea, OPS_AREAS, opsAreaOf } from "~/lib/ops-areas";
import { OPS_TRANSITIONS } from "~/lib/ops-decisions";
import { createOrderInStatus } from "~/.server/testing/order-fixtures";
import { saveUpload } from "~/.server/store/orders";
import { processImageUpload } from "~/.server/images";

// The back office's doors (issue 17), through the real session middleware, the /ops layout's
// middleware and the route modules: the role matrix (anonymous, buyer, operator without the second
// factor, operator × every /ops route, action and image), the second factor's enrolment and its
// rate limit, and two operators deciding one order at once.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

const opsMiddleware = layoutRoute.middleware as unknown as RouteMiddleware[];

/** One browser: session middleware → the /ops layout's middleware (unless told `[]`) → the handler. */
class Browser extends TestBrowser {
  constructor() {
    super(opsMiddleware);
  }
  postFields(handler: unknown, url: string, fields: Record<string, string>, params: Record<string, string> = {}) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    return this.post(handler, url, body, params);
  }
}

let db: Db;
let photo: Awaited<ReturnType<typeof processImageUpload>> & { ok: true };

ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 90 } } })
    .png()
    .toBuffer();
  photo = (await processImageUpload(new File([new Uint8Array(png)], "p.png", { type: "image/png" }))) as typeof photo;
});

const totp = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 }).generate({ timestamp });

/** An operator who enrolled through /ops/2fa in this browser: the page's 'Kunci', one code, the recovery codes. */
async function enrolledOperator(roles: StaffRole[] = ["admin"]): Promise<{ user: TestUser; browser: Browser; recoveryCodes: string[] }> {
  const user = await createVerifiedUser(db);
  await grantRolesByEmail(user.email, roles, "ops");
  const browser = await new Browser().signIn(user.id);
  const page = await browser.get(secondFactorRoute.loader, "/ops/2fa");
  const { secret, qr } = page.data as { secret: string; qr: string };
  expect(qr).toMatch(/^data:image\/png;base64,/);
  const enrolled = await browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "enrol", code: totp(secret) });
  expect(enrolled.status).toBe(200);
  const { recoveryCodes } = enrolled.data as { recoveryCodes: string[] };
  expect(recoveryCodes).toHaveLength(10);
  return { user, browser, recoveryCodes };
}

describe("the second factor", () => {
  it("an operator is sent to /ops/2fa until enrolled; a recovery code signs in once; wrong codes are limited and audited", async () => {
    const user = await createVerifiedUser(db);
    await setOperatorRole(user.email, true);
    const browser = await new Browser().signIn(user.id);
    expect(await browser.get(queuesRoute.loader, "/ops")).toMatchObject({ status: 302, location: "/ops/2fa" });
    const page = await browser.get(secondFactorRoute.loader, "/ops/2fa");
    const { secret } = page.data as { secret: string; enrolled: boolean };
    expect(page.data).toMatchObject({ enrolled: false });
    expect(await browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "enrol", code: "" })).toMatchObject({
      status: 400,
      data: { error: "Kode tidak boleh kosong." },
    });
    expect(await browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "enrol", code: "123456" })).toMatchObject({
      status: 400,
      data: { error: "Kode salah atau sudah kedaluwarsa." },
    });
    const enrolled = await browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "enrol", code: totp(secret) });
    const codes = (enrolled.data as { recoveryCodes: string[] }).recoveryCodes;
    expect(await browser.get(queuesRoute.loader, "/ops")).toMatchObject({ status: 200 });
    // Shown once: the page never shows them (or the secret) again.
    expect(await browser.get(secondFactorRoute.loader, "/ops/2fa")).toMatchObject({ status: 302, location: "/ops" });

    // A new session (another sign-in) must pass the factor again: here with a recovery code, once.
    const second = await new Browser().signIn(user.id);
    expect(await second.get(searchRoute.loader, "/ops/search")).toMatchObject({ status: 302, location: "/ops/2fa" });
    expect((await second.get(secondFactorRoute.loader, "/ops/2fa")).data).toEqual({ enrolled: true });
    expect(await second.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "verify", code: codes[0]! })).toMatchObject({
      status: 302,
      location: "/ops",
    });
    expect(await second.get(searchRoute.loader, "/ops/search")).toMatchObject({ status: 200 });
    const third = await new Browser().signIn(user.id);
    expect(await third.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "verify", code: codes[0]! })).toMatchObject({
      status: 400,
    });

    // Wrong codes: 5 per 15 minutes from one address (issue 25), then 429 there even for a right code; every one audited.
    for (let i = 1; i < 5; i++)
      expect((await third.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "verify", code: "000000" })).status).toBe(400);
    const limited = await third.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "verify", code: codes[1]! });
    expect(limited.status).toBe(429);
    expect((limited.data as { error: string }).error).toMatch(/^Terlalu banyak percobaan kode\. Coba lagi dalam \d+ menit\.$/);
    expect(await third.get(queuesRoute.loader, "/ops")).toMatchObject({ status: 302, location: "/ops/2fa" });
    const audit = await db.select({ action: operatorAudit.action }).from(operatorAudit).where(eq(operatorAudit.operatorId, user.id));
    const tally = (a: string) => audit.filter((r) => r.action === a).length;
    expect({
      wrong: tally("2fa-wrong-code"),
      limited: tally("2fa-rate-limited"),
      passed: tally("2fa-passed"),
      recovery: tally("2fa-recovery-code"),
      enrolled: tally("2fa-enrolled"),
    }).toEqual({
      wrong: 6,
      limited: 1,
      passed: 1,
      recovery: 1,
      enrolled: 1,
    });
  });
});

describe("wrong-code limits per account and per address (issue 25)", () => {
  it("someone with the password, guessing from other addresses, never locks the operator out of an address they passed from; guesses stay bounded", async () => {
    const { user } = await enrolledOperator(); // passed from "local"
    const verify = (browser: Browser, code: string) => browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "verify", code });
    const from = async (address: string) => {
      const browser = await new Browser().signIn(user.id);
      browser.address = address;
      return browser;
    };
    // One address: 5 wrong codes, then refused there.
    const first = await from("203.0.113.1");
    for (let i = 0; i < 5; i++) expect((await verify(first, "000000")).status).toBe(400);
    expect((await verify(first, "000000")).status).toBe(429);
    // An IPv6 /64 is one address: its neighbours share its count.
    const v6a = await from("2001:db8:1:2::5");
    for (let i = 0; i < 3; i++) expect((await verify(v6a, "000000")).status).toBe(400);
    const v6b = await from("2001:db8:1:2:0:0:0:6");
    for (let i = 0; i < 2; i++) expect((await verify(v6b, "000000")).status).toBe(400);
    expect((await verify(v6b, "000000")).status).toBe(429);
    // 10 wrong codes for the account: a new address gets no guess at all.
    expect((await verify(await from("198.51.100.9"), "000000")).status).toBe(429);
    expect((await verify(await from("198.51.100.10"), "000000")).status).toBe(429);

    // The operator, from the address they passed from before, is let in with the right code.
    const [factor] = await db.select({ secret: operatorFactors.secret }).from(operatorFactors).where(eq(operatorFactors.userId, user.id));
    const operator = await new Browser().signIn(user.id);
    expect(await verify(operator, totp(factor!.secret, Date.now() + 30_000))).toMatchObject({ status: 302, location: "/ops" });
    expect(await operator.get(queuesRoute.loader, "/ops")).toMatchObject({ status: 200 });

    const audit = await db
      .select({ action: operatorAudit.action, address: operatorAudit.address })
      .from(operatorAudit)
      .where(eq(operatorAudit.operatorId, user.id));
    expect(audit.filter((a) => a.action === "2fa-wrong-code").length).toBe(10);
    expect(audit.filter((a) => a.action === "2fa-rate-limited").map((a) => a.address)).toEqual([
      "203.0.113.1",
      "2001:db8:1:2::/64",
      "198.51.100.9",
      "198.51.100.10",
    ]);
    expect(audit.filter((a) => a.action === "2fa-passed").map((a) => a.address)).toEqual(["local", "local"]);
  });
});

describe("staff roles (issue 27): a screen or action outside a person's roles answers 404", () => {
  it("'katalog' alone: the home without queues, 404 on the order queues, an order, its decision, the search, withdrawals and the export", async () => {
    const { browser } = await enrolledOperator(["katalog"]);
    const order = await createOrderInStatus(db, 100);
    const home = await browser.get(queuesRoute.loader, "/ops");
    expect(home).toMatchObject({ status: 200, data: { queues: [] } });
    expect(await browser.get(queueRoute.loader, "/ops/queue/insentif", { queue: "insentif" })).toMatchObject({ status: 404 });
    expect(await browser.get(orderRoute.loader, `/ops/orders/${order.orderId}`, { id: String(order.orderId) })).toMatchObject({
      status: 404,
    });
    const decided = await browser.postFields(
      orderRoute.action,
      `/ops/orders/${order.orderId}`,
      { intent: "approve-incentive" },
      { id: String(order.orderId) },
    );
    expect(decided.status).toBe(404);
    expect((await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, order.orderId)))[0]!.statusId).toBe(100);
    expect(await browser.get(searchRoute.loader, "/ops/search")).toMatchObject({ status: 404 });
    expect(await browser.get(withdrawalsRoute.loader, "/ops/withdrawals")).toMatchObject({ status: 404 });
    expect(await browser.get(exportRoute.loader, "/ops/export")).toMatchObject({ status: 404 });
  });

  it("'keuangan' alone: the withdrawals, refunds and incidents queues on the home and the withdrawals' screen, not the order queues", async () => {
    const { browser } = await enrolledOperator(["keuangan"]);
    const home = await browser.get(queuesRoute.loader, "/ops");
    expect((home.data as { queues: { key: string }[] }).queues.map((q) => q.key)).toEqual([
      "penarikan",
      "konfirmasi-dana",
      "pengembalian",
      "insiden",
    ]);
    expect(await browser.get(withdrawalsRoute.loader, "/ops/withdrawals")).toMatchObject({ status: 200 });
    expect(await browser.get(queueRoute.loader, "/ops/queue/kirim", { queue: "kirim" })).toMatchObject({ status: 404 });
  });
});

type Read = [string, unknown, string, Record<string, string>];
type Write = [string, unknown, string, Record<string, string>, Record<string, string>];

/** Every catalogue screen and action (issue 26), on a product of the test's. */
async function catalogueDoors(productId: number): Promise<{ reads: Read[]; writes: Write[] }> {
  const id = String(productId);
  const [photo] = await db
    .insert(productImages)
    .values({
      productId,
      cardUrl: "/media/x.webp",
      cardWidth: 1,
      cardHeight: 1,
      detailUrl: "/media/x.webp",
      detailWidth: 1,
      detailHeight: 1,
    })
    .returning({ id: productImages.id });
  const [category] = await db
    .insert(categories)
    .values({ title: `Kategori ${productId}` })
    .returning({ id: categories.id });
  const staged = "00000000-0000-4000-8000-000000000000";
  const productFields = {
    intent: "save",
    title: "Ditulis Orang Lain",
    categoryId: String(category!.id),
    price: "1000",
    stock: "1",
    status: "tayang",
    version: "1",
    stockRead: "0",
  };
  return {
    reads: [
      ["catalogue products", catalogueProductsRoute.loader, "/ops/catalogue/products", {}],
      ["catalogue product", catalogueProductRoute.loader, `/ops/catalogue/products/${id}`, { id }],
      ["catalogue new product", catalogueProductRoute.loader, "/ops/catalogue/products/new", { id: "new" }],
      ["catalogue promos", cataloguePromosRoute.loader, "/ops/catalogue/promos", {}],
      ["catalogue banners", catalogueBannersRoute.loader, "/ops/catalogue/banners", {}],
      ["catalogue categories", catalogueCategoriesRoute.loader, "/ops/catalogue/categories", {}],
      ["catalogue import", catalogueImportRoute.loader, "/ops/catalogue/import", {}],
      ["catalogue export", catalogueExportRoute.loader, "/ops/catalogue/export", {}],
    ],
    writes: [
      ["catalogue add product", catalogueProductRoute.action, "/ops/catalogue/products/new", { id: "new" }, productFields],
      ["catalogue save product", catalogueProductRoute.action, `/ops/catalogue/products/${id}`, { id }, productFields],
      [
        "catalogue photo delete",
        catalogueProductRoute.action,
        `/ops/catalogue/products/${id}`,
        { id },
        { intent: "photo", move: "delete", photoId: String(photo!.id) },
      ],
      ["catalogue photo upload", catalogueProductPhotosRoute.action, `/ops/catalogue/products/${id}/photos`, { id }, {}],
      [
        "catalogue promo",
        cataloguePromosRoute.action,
        "/ops/catalogue/promos",
        {},
        { title: "Promo Asing", discountType: "v", discount: "1000" },
      ],
      ["catalogue banner", catalogueBannersRoute.action, "/ops/catalogue/banners", {}, { intent: "delete", bannerId: "1" }],
      [
        "catalogue category add",
        catalogueCategoriesRoute.action,
        "/ops/catalogue/categories",
        {},
        { kind: "kategori", intent: "add", name: "Kategori Asing" },
      ],
      [
        "catalogue category delete",
        catalogueCategoriesRoute.action,
        "/ops/catalogue/categories",
        {},
        { kind: "kota", intent: "delete", id: "1" },
      ],
      ["catalogue import upload", catalogueImportRoute.action, "/ops/catalogue/import", {}, { intent: "upload" }],
      ["catalogue import apply", catalogueImportRoute.action, "/ops/catalogue/import", {}, { intent: "apply", id: staged }],
    ],
  };
}

/** What a catalogue write would change (the role matrix compares it before and after). */
async function catalogueSnapshot() {
  return {
    products: await db
      .select({ id: products.id, title: products.title, version: products.version, stock: products.stock })
      .from(products)
      .orderBy(products.id),
    photos: (await db.select({ n: count() }).from(productImages))[0]!.n,
    promos: (await db.select({ n: count() }).from(promos))[0]!.n,
    banners: (await db.select({ n: count() }).from(banners))[0]!.n,
    categories: (await db.select({ n: count() }).from(categories))[0]!.n,
    audit: (await db.select({ n: count() }).from(catalogueAudit))[0]!.n,
    imports: (await db.select({ n: count() }).from(csvImports))[0]!.n,
  };
}

describe("the catalogue's roles (issue 26)", () => {
  it("'pesanan' alone: 404 on every catalogue screen and action, nothing written, no 'Katalog' in the menu; 'katalog': every screen opens", async () => {
    const productId = await createProduct(db);
    const { reads, writes } = await catalogueDoors(productId);
    const orders = await enrolledOperator(["pesanan"]);
    const before = await catalogueSnapshot();
    expect(await orders.browser.get(catalogueIndexRoute.loader, "/ops/catalogue")).toMatchObject({ status: 404 });
    for (const [name, handler, url, params] of reads) expect((await orders.browser.get(handler, url, params)).status, name).toBe(404);
    for (const [name, handler, url, params, fields] of writes)
      expect((await orders.browser.postFields(handler, url, fields, params)).status, name).toBe(404);
    expect(await catalogueSnapshot()).toEqual(before);
    const menuOf = async (browser: Browser) =>
      ((await browser.get(layoutRoute.loader, "/ops")).data as { menu: { label: string }[] }).menu.map((m) => m.label);
    expect(await menuOf(orders.browser)).not.toContain("Katalog");

    const catalogue = await enrolledOperator(["katalog"]);
    expect(await menuOf(catalogue.browser)).toEqual(["Antrean", "Katalog"]);
    expect(await catalogue.browser.get(catalogueIndexRoute.loader, "/ops/catalogue")).toMatchObject({
      status: 302,
      location: "/ops/catalogue/products",
    });
    for (const [name, handler, url, params] of reads) expect((await catalogue.browser.get(handler, url, params)).status, name).toBe(200);
    // A known write: the product form saves (its version was 1, the fixture's).
    const saved = await catalogue.browser.postFields(
      catalogueProductRoute.action,
      `/ops/catalogue/products/${productId}`,
      { ...writes[1]![4], title: "Motor Listrik Katalog" },
      { id: String(productId) },
    );
    expect(saved).toMatchObject({ status: 302, location: `/ops/catalogue/products/${productId}` });
  });
});

describe("role matrix: anonymous, buyer, operator without the second factor, operator", () => {
  it("0 leaks and 0 foreign writes over every /ops route, action and image", async () => {
    const buyer = await createVerifiedUser(db);
    const half = await createVerifiedUser(db);
    await setOperatorRole(half.email, true);
    const anonymous = new Browser();
    const buyerBrowser = await new Browser().signIn(buyer.id);
    const halfBrowser = await new Browser().signIn(half.id);
    const operator = await enrolledOperator();

    const incentive = await createOrderInStatus(db, 100, { user: buyer });
    const installment = await createOrderInStatus(db, 301);
    const proof = await createOrderInStatus(db, 302);
    const paid = await createOrderInStatus(db, 300);
    await db.insert(balanceEntries).values({ userId: buyer.id, kind: "credit", title: "Reward Pembelian", amount: 50_000 });
    const withdrawal = await requestWithdrawal(buyer.email, 20_000);
    if (!withdrawal.ok) throw new Error(withdrawal.message);
    const images = await Promise.all(
      (["ktp", "transfer-proof", "delivery-proof"] as const).map((purpose) => saveUpload(buyer.id, purpose, photo.file)),
    );
    const orderIds = [incentive, installment, proof, paid].map((o) => o.orderId);
    const catalogue = await catalogueDoors(await createProduct(db));

    const snapshot = async () => ({
      orders: await db
        .select({ id: orders.id, statusId: orders.statusId, courier: orders.courier, trackingNumber: orders.trackingNumber })
        .from(orders)
        .orderBy(orders.id),
      events: (await db.select({ n: count() }).from(orderEvents))[0]!.n,
      withdrawals: await db
        .select({ id: balanceEntries.id, status: balanceEntries.status })
        .from(balanceEntries)
        .where(eq(balanceEntries.kind, "withdrawal")),
      factors: await db.select({ userId: operatorFactors.userId }).from(operatorFactors).orderBy(operatorFactors.userId),
      decisions: (
        await db
          .select({ n: count() })
          .from(operatorAudit)
          .where(and(eq(operatorAudit.action, "order-decision")))
      )[0]!.n,
      catalogue: await catalogueSnapshot(),
    });

    const reads: [string, unknown, string, Record<string, string>][] = [
      ["layout", layoutRoute.loader, "/ops", {}],
      ["queues", queuesRoute.loader, "/ops", {}],
      ...(["insentif", "cicilan", "transfer", "kirim"] as const).map((q): [string, unknown, string, Record<string, string>] => [
        `queue ${q}`,
        queueRoute.loader,
        `/ops/queue/${q}`,
        { queue: q },
      ]),
      ...orderIds.map((id): [string, unknown, string, Record<string, string>] => [
        `order ${id}`,
        orderRoute.loader,
        `/ops/orders/${id}`,
        { id: String(id) },
      ]),
      ["withdrawals", withdrawalsRoute.loader, "/ops/withdrawals", {}],
      ["search", searchRoute.loader, `/ops/search?email=${encodeURIComponent(buyer.email)}`, {}],
      ["export", exportRoute.loader, "/ops/export", {}],
      ...catalogue.reads,
    ];
    const writes: [string, unknown, string, Record<string, string>, Record<string, string>][] = [
      ...(
        [
          "approve-incentive",
          "reject-incentive",
          "approve-installment",
          "reject-installment",
          "verify-transfer",
          "reject-transfer",
          "ship",
        ] as const
      ).flatMap((intent) =>
        orderIds.map((id): [string, unknown, string, Record<string, string>, Record<string, string>] => [
          `${intent} ${id}`,
          orderRoute.action,
          `/ops/orders/${id}`,
          { id: String(id) },
          { intent, reason: "Data tidak sesuai", courier: "JNE", trackingNumber: "JNE123" },
        ]),
      ),
      ["withdrawal ok", withdrawalsRoute.action, "/ops/withdrawals", {}, { intent: "ok", withdrawalId: String(withdrawal.id) }],
      ["withdrawal cancel", withdrawalsRoute.action, "/ops/withdrawals", {}, { intent: "cancel", withdrawalId: String(withdrawal.id) }],
      ...catalogue.writes,
    ];

    let leaks = 0;
    let checks = 0;
    const before = await snapshot();
    const expectStatus = (outcome: Outcome, status: number, location: string | null, what: string) => {
      checks++;
      if (outcome.status !== status || outcome.location !== location || outcome.data !== null) leaks++;
      expect({ status: outcome.status, location: outcome.location, data: outcome.data }, what).toEqual({ status, location, data: null });
    };
    for (const [who, browser] of [
      ["anonymous", anonymous],
      ["buyer", buyerBrowser],
    ] as const) {
      for (const [name, handler, url, params] of reads)
        expectStatus(await browser.get(handler, url, params), 404, null, `${who} GET ${name}`);
      expectStatus(await browser.get(secondFactorRoute.loader, "/ops/2fa"), 404, null, `${who} GET /ops/2fa`);
      for (const [name, handler, url, params, fields] of writes)
        expectStatus(await browser.postFields(handler, url, fields, params), 404, null, `${who} POST ${name}`);
      for (const intent of ["enrol", "verify"])
        expectStatus(
          await browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent, code: "123456" }),
          404,
          null,
          `${who} POST /ops/2fa ${intent}`,
        );
    }
    // The buyer who owns the images still sees them; nobody else without the checked role does.
    for (const id of images) {
      expectStatus(await anonymous.get(uploadsRoute.loader, `/uploads/${id}`, { id }, []), 404, null, `anonymous image ${id}`);
      expectStatus(
        await halfBrowser.get(uploadsRoute.loader, `/uploads/${id}`, { id }, []),
        404,
        null,
        `operator without factor, image ${id}`,
      );
      expect((await buyerBrowser.get(uploadsRoute.loader, `/uploads/${id}`, { id }, [])).status).toBe(200);
    }
    const stranger = await new Browser().signIn((await createVerifiedUser(db)).id);
    for (const id of images)
      expectStatus(await stranger.get(uploadsRoute.loader, `/uploads/${id}`, { id }, []), 404, null, `another buyer, image ${id}`);

    // The operator without the second factor: every screen and action sends to /ops/2fa.
    for (const [name, handler, url, params] of reads)
      expectStatus(await halfBrowser.get(handler, url, params), 302, "/ops/2fa", `half GET ${name}`);
    for (const [name, handler, url, params, fields] of writes)
      expectStatus(await halfBrowser.postFields(handler, url, fields, params), 302, "/ops/2fa", `half POST ${name}`);

    const after = await snapshot();
    // The only write a role below 'operator' made: the half operator's own factor row (their /ops/2fa visit is not in this loop).
    const foreignWrites = JSON.stringify(before) === JSON.stringify(after) ? 0 : 1;
    expect(after).toEqual(before);
    expect(await db.select().from(operatorFactors).where(eq(operatorFactors.userId, buyer.id))).toEqual([]);

    // The operator reads everything: the pages, the images (private, never in shared caches), the CSV with the NIK masked.
    for (const [name, handler, url, params] of reads)
      expect((await operator.browser.get(handler, url, params)).status, `operator GET ${name}`).toBe(200);
    // A transfer proof or a delivery photo opens by its address; a KTP photo only through its order (issue 35).
    const [ktpImage, ...otherImages] = images;
    for (const id of otherImages) {
      const image = await operator.browser.get(uploadsRoute.loader, `/uploads/${id}`, { id }, []);
      expect(image.status).toBe(200);
      expect(image.response!.headers.get("cache-control")).toMatch(/^private/);
    }
    expect((await operator.browser.get(uploadsRoute.loader, `/uploads/${ktpImage}`, { id: ktpImage! }, [])).status).toBe(404);
    const detail = (await operator.browser.get(orderRoute.loader, `/ops/orders/${incentive.orderId}`, { id: String(incentive.orderId) }))
      .data as { order: { buyer: { nik: string } }; personalData: { ktpUrl: string } };
    expect(detail.personalData.ktpUrl).toBe(`/ops/orders/${incentive.orderId}/ktp`);
    const accessesBefore = (await db.select({ n: count() }).from(personalDataAccess))[0]!.n;
    const ktp = await operator.browser.get(orderKtpRoute.loader, detail.personalData.ktpUrl, { id: String(incentive.orderId) });
    expect(ktp.status).toBe(200);
    expect(ktp.response!.headers.get("cache-control")).toBe("private, no-store");
    expect((await db.select({ n: count() }).from(personalDataAccess))[0]!.n).toBe(accessesBefore + 1);
    const csv = await (await operator.browser.get(exportRoute.loader, "/ops/export", {})).response!.text();
    const nik = detail.order.buyer.nik;
    expect(csv).toContain(nik.slice(0, 4) + "*".repeat(nik.length - 8) + nik.slice(-4));
    expect(csv).not.toContain(nik);
    console.log(`[role matrix] ${checks} denied checks, ${leaks} leaks, ${foreignWrites} foreign writes`);
    expect(leaks).toBe(0);
  });
});

describe("two operators deciding one order at once", () => {
  it("20 simultaneous 'Setujui'/'Tolak' from two sessions: one transition, one e-mail, 19 told the new status", async () => {
    const [a, b] = [await enrolledOperator(), await enrolledOperator()];
    const { orderId } = await createOrderInStatus(db, 100);
    // The buyer's e-mail goes to the account's address (issue 25 item 4), not the checkout's contact.
    const [{ buyerEmail }] = (await db
      .select({ buyerEmail: users.email })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, orderId))) as [{ buyerEmail: string }];
    const eventsBefore = (await db.select({ n: count() }).from(orderEvents).where(eq(orderEvents.orderId, orderId)))[0]!.n;
    const params = { id: String(orderId) };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).browser.postFields(
          orderRoute.action,
          `/ops/orders/${orderId}`,
          i % 4 < 2 ? { intent: "approve-incentive" } : { intent: "reject-incentive", reason: "KTP tidak terbaca" },
          params,
        ),
      ),
    );
    const landed = outcomes.filter((o) => o.status === 302);
    const refused = outcomes.filter((o) => o.status === 409);
    expect(landed).toHaveLength(1);
    expect(refused).toHaveLength(19);
    const [order] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
    const statusName = order!.statusId === 200 ? "Menunggu Pembayaran" : "Kedaluwarsa / Ditolak";
    for (const o of refused) {
      expect((o.data as { conflict: string }).conflict).toBe(
        `Keputusan tidak disimpan: pesanan ini sudah diproses lebih dulu. Status pesanan sekarang: ${statusName} (${order!.statusId}).`,
      );
    }
    const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(events.length - eventsBefore).toBe(1);
    expect(events.at(-1)!.actor).toMatch(new RegExp(`^operator:(${a.user.id}|${b.user.id})$`));
    await settleMessages();
    const mails = (await readOutbox(500)).filter((m) => m.to === buyerEmail && /Pengajuan Insentif/.test(m.subject));
    expect(mails).toHaveLength(1);
    const decisions = await db
      .select()
      .from(operatorAudit)
      .where(and(eq(operatorAudit.orderId, orderId), eq(operatorAudit.action, "order-decision")));
    expect(decisions).toHaveLength(1);
    console.log(`[race] 20 decisions → ${landed.length} transition, ${refused.length} refused with the new status, ${mails.length} e-mail`);
  });
});

describe("withdrawals from the back office", () => {
  it("'Berhasil' and 'Dibatalkan' settle through the same function as balance:settle, once, recorded with the operator", async () => {
    const operator = await enrolledOperator();
    const buyer = await createVerifiedUser(db);
    await db.insert(balanceEntries).values({ userId: buyer.id, kind: "credit", title: "Reward Pembelian", amount: 100_000 });
    const paid = await requestWithdrawal(buyer.email, 30_000);
    const cancelled = await requestWithdrawal(buyer.email, 20_000);
    if (!paid.ok || !cancelled.ok) throw new Error("setup");
    const page = (await operator.browser.get(withdrawalsRoute.loader, "/ops/withdrawals")).data as { items: { id: number }[] };
    expect(page.items.map((w) => w.id)).toEqual(expect.arrayContaining([paid.id, cancelled.id]));
    expect(
      await operator.browser.postFields(withdrawalsRoute.action, "/ops/withdrawals", { intent: "ok", withdrawalId: String(paid.id) }),
    ).toMatchObject({ status: 302, location: "/ops/withdrawals" });
    expect(
      await operator.browser.postFields(withdrawalsRoute.action, "/ops/withdrawals", {
        intent: "cancel",
        withdrawalId: String(cancelled.id),
      }),
    ).toMatchObject({ status: 302 });
    // A second decision on a settled one changes nothing.
    await operator.browser.postFields(withdrawalsRoute.action, "/ops/withdrawals", { intent: "cancel", withdrawalId: String(paid.id) });
    expect(
      await operator.browser.postFields(withdrawalsRoute.action, "/ops/withdrawals", { intent: "maybe", withdrawalId: String(paid.id) }),
    ).toMatchObject({ status: 400 });
    const rows = await db
      .select({ id: balanceEntries.id, status: balanceEntries.status })
      .from(balanceEntries)
      .where(eq(balanceEntries.kind, "withdrawal"));
    expect(rows.find((r) => r.id === paid.id)!.status).toBe("Berhasil");
    expect(rows.find((r) => r.id === cancelled.id)!.status).toBe("Dibatalkan");
    const audit = await db
      .select({ action: operatorAudit.action, withdrawalId: operatorAudit.withdrawalId })
      .from(operatorAudit)
      .where(eq(operatorAudit.operatorId, operator.user.id));
    expect(audit.filter((a) => a.withdrawalId !== null)).toEqual([
      { action: "withdrawal-settled", withdrawalId: paid.id },
      { action: "withdrawal-settled", withdrawalId: cancelled.id },
      { action: "withdrawal-refused", withdrawalId: paid.id },
    ]);
  });
});

/**
 * Every /ops screen and action (issue 27's role matrix). Who may use a row is the area of its address
 * in ~/lib/ops-areas (the table the /ops layout guards with and draws its menu from), or a stricter
 * role of its own (an order decision's, from the decisions' table); a row is a GET or a POST, and for a POST two bodies: `attack`, a real change sent by
 * everyone who must be refused, and `probe`, a harmless invalid request that whoever may use the
 * action sees answered (400), so the matrix never changes data itself. A new screen adds its rows.
 */
type Door = { name: string; role?: StaffRole; handler: unknown; url: string; params?: Record<string, string> } & (
  { method: "GET" } | { method: "POST"; attack: Record<string, string>; probe: Record<string, string> }
);

describe("role matrix (issue 27): every /ops door × anonymous, buyer, before the second factor, each single role, admin", () => {
  it("exactly the allowed answer; 0 leaks, 0 foreign writes", async () => {
    const buyer = await createVerifiedUser(db);
    const order = await createOrderInStatus(db, 100, { user: buyer });
    await db.insert(balanceEntries).values({ userId: buyer.id, kind: "credit", title: "Reward Pembelian", amount: 50_000 });
    const withdrawal = await requestWithdrawal(buyer.email, 20_000);
    if (!withdrawal.ok) throw new Error(withdrawal.message);
    const [company] = await db
      .insert(companies)
      .values({ name: `PT Matriks ${Date.now()}` })
      .returning({ id: companies.id, name: companies.name });
    const roster = await applyRosterImport(
      `nip,nama,perusahaan,status\nM-1,Mira,${company!.name},aktif\n`,
      { deactivateMissing: false },
      buyer.id,
    );
    if (!roster.ok) throw new Error(roster.message);
    const [entry] = await db.select({ id: rosterEntries.id }).from(rosterEntries).where(eq(rosterEntries.companyId, company!.id));
    // An account asking for the entry (decision 0069): the queue's 'Setujui' is a door of the matrix.
    const asking = await registerUser({
      fullname: "Mira",
      phoneNo: "081234567890",
      nip: "M-1",
      companyId: company!.id,
      email: `matriks-${Date.now()}@example.test`,
      password: "rahasia123",
    });
    if (!asking.ok) throw new Error(asking.message);
    const [linkRequest] = await db
      .select({ id: rosterLinkRequests.id })
      .from(rosterLinkRequests)
      .where(eq(rosterLinkRequests.entryId, entry!.id));
    const id = String(order.orderId);

    const doors: Door[] = [
      { name: "layout", method: "GET", handler: layoutRoute.loader, url: "/ops" },
      { name: "home", method: "GET", handler: queuesRoute.loader, url: "/ops" },
      {
        name: "queue",
        method: "GET",
        handler: queueRoute.loader,
        url: "/ops/queue/insentif",
        params: { queue: "insentif" },
      },
      { name: "order", method: "GET", handler: orderRoute.loader, url: `/ops/orders/${id}`, params: { id } },
      {
        name: "order decision",
        method: "POST",
        handler: orderRoute.action,
        url: `/ops/orders/${id}`,
        params: { id },
        role: OPS_TRANSITIONS["approve-incentive"].role,
        attack: { intent: "approve-incentive" },
        probe: { intent: "matrix" },
      },
      {
        name: "search",
        method: "GET",
        handler: searchRoute.loader,
        url: `/ops/search?email=${encodeURIComponent(buyer.email)}`,
      },
      { name: "withdrawals", method: "GET", handler: withdrawalsRoute.loader, url: "/ops/withdrawals" },
      {
        name: "withdrawal decision",
        method: "POST",
        handler: withdrawalsRoute.action,
        url: "/ops/withdrawals",
        attack: { intent: "ok", withdrawalId: String(withdrawal.id) },
        probe: { intent: "matrix", withdrawalId: String(withdrawal.id) },
      },
      { name: "export", method: "GET", handler: exportRoute.loader, url: "/ops/export" },
      { name: "roster", method: "GET", handler: rosterRoute.loader, url: `/ops/employees?company=${company!.id}` },
      {
        name: "roster change",
        method: "POST",
        handler: rosterRoute.action,
        url: "/ops/employees",
        attack: { intent: "deactivate", entryId: String(entry!.id) },
        probe: { intent: "matrix" },
      },
      { name: "link requests", method: "GET", handler: linkRequestsRoute.loader, url: "/ops/employees/requests" },
      {
        name: "link request decision",
        method: "POST",
        handler: linkRequestsRoute.action,
        url: "/ops/employees/requests",
        attack: { intent: "approve", requestId: String(linkRequest!.id) },
        probe: { intent: "matrix" },
      },
      {
        name: "accounts",
        method: "GET",
        handler: accountsRoute.loader,
        url: `/ops/accounts?q=${encodeURIComponent(buyer.email)}`,
      },
      {
        name: "account NIP change",
        method: "POST",
        handler: accountsRoute.action,
        url: "/ops/accounts",
        attack: { userId: String(buyer.id), nip: "M-1", companyId: String(company!.id) },
        probe: { userId: "x" },
      },
      { name: "staff", method: "GET", handler: staffRoute.loader, url: "/ops/staff" },
      {
        name: "staff change",
        method: "POST",
        handler: staffRoute.action,
        url: "/ops/staff",
        attack: { intent: "add", email: buyer.email, role: "admin" },
        probe: { intent: "matrix" },
      },
      { name: "settings", method: "GET", handler: settingsRoute.loader, url: "/ops/settings" },
      {
        name: "settings change",
        method: "POST",
        handler: settingsRoute.action,
        url: "/ops/settings",
        attack: { intent: "account", bankName: "Bank Penipu", accountName: "Penipu", accountNumber: "9999999999" },
        probe: { intent: "matrix" },
      },
    ];
    // The catalogue's screens (issue 26; its actions are checked role by role in "the catalogue's roles").
    const { reads: catalogueReads } = await catalogueDoors(await createProduct(db));
    for (const [name, handler, url, params] of catalogueReads) doors.push({ name, method: "GET", handler, url, params });

    const snapshot = async () =>
      JSON.stringify({
        orders: await db.select({ id: orders.id, statusId: orders.statusId }).from(orders).orderBy(orders.id),
        events: (await db.select({ n: count() }).from(orderEvents))[0]!.n,
        withdrawals: await db
          .select({ id: balanceEntries.id, status: balanceEntries.status })
          .from(balanceEntries)
          .orderBy(balanceEntries.id),
        roster: await db.select().from(rosterEntries).orderBy(rosterEntries.id),
        linkRequests: await db.select().from(rosterLinkRequests).orderBy(rosterLinkRequests.id),
        roles: await db
          .select({ userId: staffRoles.userId, role: staffRoles.role })
          .from(staffRoles)
          .orderBy(staffRoles.userId, staffRoles.role),
        settings: await db.select({ key: storeSettings.key, value: storeSettings.value }).from(storeSettings).orderBy(storeSettings.key),
        accounts: await db.select({ id: users.id, nip: users.nip, companyId: users.companyId }).from(users).orderBy(users.id),
        companies: await db.select().from(companies).orderBy(companies.id),
        methods: await db
          .select({ id: paymentMethods.id, active: paymentMethods.active, fee: paymentMethods.fee })
          .from(paymentMethods)
          .orderBy(paymentMethods.id),
      });

    const half = await createVerifiedUser(db);
    await grantRolesByEmail(half.email, ["admin"], "ops");
    const identities: { who: string; browser: Browser; roles: StaffRole[] | null; factor: boolean }[] = [
      { who: "anonymous", browser: new Browser(), roles: null, factor: false },
      { who: "buyer", browser: await new Browser().signIn(buyer.id), roles: null, factor: false },
      { who: "admin before 2FA", browser: await new Browser().signIn(half.id), roles: ["admin"], factor: false },
    ];
    for (const role of STAFF_ROLES)
      identities.push({ who: role, browser: (await enrolledOperator([role])).browser, roles: [role], factor: true });

    const before = await snapshot();
    let checks = 0;
    let leaks = 0;
    for (const { who, browser, roles, factor } of identities) {
      for (const door of doors) {
        // Who may: the area's roles in the table the /ops layout guards with (or a door's own, stricter role).
        const area = opsAreaOf(new URL(door.url, "http://store.test").pathname);
        expect(area, `${door.name} is in an /ops area`).not.toBeNull();
        const allowed =
          roles !== null && factor && mayUseArea(roles, area!, door.method === "POST") && (!door.role || hasRole(roles, door.role));
        const expected =
          roles === null
            ? { status: 404, location: null }
            : !factor
              ? { status: 302, location: "/ops/2fa" }
              : allowed
                ? { status: door.method === "GET" ? 200 : 400, location: null }
                : { status: 404, location: null };
        const outcome =
          door.method === "GET"
            ? await browser.get(door.handler, door.url, door.params ?? {})
            : await browser.postFields(door.handler, door.url, allowed ? door.probe : door.attack, door.params ?? {});
        checks++;
        const got = { status: outcome.status, location: outcome.location };
        // Refused: nothing but the status (no data of the screen).
        if (got.status !== expected.status || got.location !== expected.location || (!allowed && outcome.data !== null)) leaks++;
        expect(got, `${who} ${door.method} ${door.name}`).toEqual(expected);
      }
      if (roles !== null && factor) {
        // The menu offers exactly the screens the role opens.
        const menu = (await browser.get(layoutRoute.loader, "/ops")).data as { menu: { path: string; label: string }[] };
        expect(
          menu.menu.map((m) => m.label),
          `${who} menu`,
        ).toEqual(OPS_AREAS.filter((a) => a.label && (a.roles.length === 0 || hasRole(roles, a.roles))).map((a) => a.label));
      }
    }
    const after = await snapshot();
    const foreignWrites = before === after ? 0 : 1;
    expect(JSON.parse(after)).toEqual(JSON.parse(before));
    console.log(
      `[role matrix 27] ${doors.length} doors × ${identities.length} identities: ${checks} checks, ${leaks} leaks, ${foreignWrites} foreign writes`,
    );
    expect(leaks).toBe(0);
  });

  it("an /ops address in no area of the table is refused with the 404, even for an admin", async () => {
    const { browser } = await enrolledOperator(["admin"]);
    expect(opsAreaOf("/ops/unlisted")).toBeNull();
    // Any handler behind the /ops layout: the layout's middleware answers before it runs.
    for (const url of ["/ops/unlisted", "/ops/catalogue-extra", "/opsx"]) {
      const outcome = await browser.get(queuesRoute.loader, url);
      expect({ status: outcome.status, data: outcome.data }, url).toEqual({ status: 404, data: null });
    }
    expect((await browser.get(queuesRoute.loader, "/ops")).status).toBe(200);
  });
});
