import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { createElement } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as layoutRoute from "./layout";
import * as queuesRoute from "./queues";
import * as secondFactorRoute from "./second-factor";
import * as staffRoute from "./staff";
import { TestBrowser, type RouteMiddleware } from "../../.server/testing/test-browser";
import { getDb, type Db } from "~/.server/db/client";
import { operatorAudit, operatorFactors, orders, products, refunds, sessions, users } from "~/.server/db/schema";
import { markPaid, recordPaymentIncident } from "~/.server/store/payments";
import { submitRefundAccount } from "~/.server/store/refunds";
import { cancelOrder, transitionOrder } from "~/.server/store/orders";
import { grantRolesByEmail, LAST_ADMIN, NO_FACTOR, OWN_FACTOR, rolesOf } from "~/.server/store/people";
import { createVerifiedUser } from "~/.server/testing/fixtures";
import { createOrderInStatus } from "~/.server/testing/order-fixtures";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "~/.server/testing/payment-fixtures";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";
import type { StaffRole } from "~/lib/staff-roles";

// The back-office home's figures and charts, and /ops/staff (issue 27), through the real session
// and /ops middleware, on this file's own database (so the figures are exactly this file's orders).

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
});

class Browser extends TestBrowser {
  constructor() {
    super(layoutRoute.middleware as unknown as RouteMiddleware[]);
  }
  postFields(handler: unknown, url: string, fields: Record<string, string | string[]>) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const each of [v].flat()) body.append(k, each);
    return this.post(handler, url, body);
  }
}

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 }).generate();

async function staffMember(roles: StaffRole[]) {
  const user = await createVerifiedUser(db);
  await grantRolesByEmail(user.email, roles, "ops");
  const browser = await new Browser().signIn(user.id);
  const { secret } = (await browser.get(secondFactorRoute.loader, "/ops/2fa")).data as { secret: string };
  expect((await browser.postFields(secondFactorRoute.action, "/ops/2fa", { intent: "enrol", code: totp(secret) })).status).toBe(200);
  return { user, browser };
}

type Home = Awaited<ReturnType<typeof queuesRoute.loader>>;

describe("the back-office home", () => {
  it("30 WIB days of orders and paid revenue, statuses, incentive decisions, top products, low stock; each for the roles that may see it", async () => {
    const waiting = await createOrderInStatus(db, 100, { price: 10_000_000 });
    const approved = await createOrderInStatus(db, 100, { price: 10_000_000 });
    await transitionOrder(approved.orderId, 100, 200, "ops", "disetujui");
    const rejected = await createOrderInStatus(db, 100, { price: 10_000_000 });
    await transitionOrder(rejected.orderId, 100, 2, "ops", "ditolak");
    const paid = await createOrderInStatus(db, 300, { price: 12_000_000 });
    const shipped = await createOrderInStatus(db, 400, { price: 7_500_000 });
    await db.update(products).set({ stock: 40 }).where(eq(products.id, shipped.productId));

    const { browser } = await staffMember(["pesanan"]);
    const home = (await browser.get(queuesRoute.loader, "/ops")).data as Home;
    expect(home.sales!.ordersChart.wide.bars).toHaveLength(30);
    expect(home.sales!.ordersChart.narrow.bars).toHaveLength(30);
    // A phone's chart fits its 340 units: every date and every bar inside, today's date on the axis.
    const narrow = home.sales!.ordersChart.narrow;
    expect(narrow.width).toBe(340);
    for (const bar of narrow.bars) expect(bar.x + bar.width).toBeLessThanOrEqual(340);
    expect(narrow.xTicks.at(-1)!.label).toBe(narrow.bars.at(-1)!.label);
    expect(narrow.xTicks.every((t) => t.at - 20 >= 0 && t.at + 20 <= 340)).toBe(true);
    expect(home.sales!.totals).toEqual({ orders: 5, paidRevenue: "Rp19.500.000" });
    expect(home.sales!.days.at(-1)).toMatchObject({ orders: 5, paidRevenue: "Rp19.500.000" });
    expect(home.statuses!.rows).toEqual([
      ["Kedaluwarsa / Ditolak", "1"],
      ["Menunggu Verifikasi Insentif", "1"],
      ["Menunggu Pembayaran", "1"],
      ["Pembayaran Diterima", "1"],
      ["Dalam Pengiriman", "1"],
    ]);
    expect(home.incentives!.rows).toEqual([
      ["Disetujui", "1"],
      ["Ditolak", "1"],
      ["Menunggu", "1"],
    ]);
    expect(home.top!.rows).toHaveLength(4);
    expect(home.top!.rows.map((r) => r.revenue).sort()).toEqual(["Rp0", "Rp0", "Rp12.000.000", "Rp7.500.000"]);
    // Products of these orders have 4 left (stock 5, one reserved); the one set to 40 is not low.
    expect(home.stock!.map((p) => p.productId).sort()).toEqual([waiting, approved, rejected, paid].map((o) => o.productId).sort());

    // Rendered on the server: the chart is an <svg> with one column per day, readable Indonesian axes.
    const Stub = createRoutesStub([{ path: "/ops", Component: queuesRoute.default as never, loader: () => home }]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/ops"], hydrationData: { loaderData: { "0": home } } } as never));
    expect(html).toContain('data-testid="chart-orders"');
    // Drawn for the desktop and for a phone (the stylesheet shows one): 30 columns in each.
    expect((html.match(/<rect class="ops-chart-bar"[^>]*data-day=/g) ?? []).length).toBe(60);
    expect(html).toContain('data-testid="chart-orders-narrow"');
    expect(html).toContain("Rp19.500.000");
    expect(html).toMatch(/<caption>Pesanan per hari<\/caption>/);

    // 'Katalog' sees the low stock only; 'Keuangan' the sales but not the incentive decisions.
    const katalog = (await (await staffMember(["katalog"])).browser.get(queuesRoute.loader, "/ops")).data as Home;
    expect({ sales: katalog.sales, incentives: katalog.incentives, stock: katalog.stock?.length }).toEqual({
      sales: null,
      incentives: null,
      stock: 4,
    });
    const keuangan = (await (await staffMember(["keuangan"])).browser.get(queuesRoute.loader, "/ops")).data as Home;
    expect({ sales: !!keuangan.sales, incentives: keuangan.incentives, stock: keuangan.stock }).toEqual({
      sales: true,
      incentives: null,
      stock: null,
    });
    // Finance's own work on its home (issue 43): nothing yet, then money paid for a closed order —
    // an open incident, and its refund waiting for the transfer once the buyer gave an account.
    const financeCards = (home: Home) => home.queues.filter((q) => q.key === "pengembalian" || q.key === "insiden");
    expect(financeCards(keuangan).map((q) => [q.key, q.count])).toEqual([
      ["pengembalian", 0],
      ["insiden", 0],
    ]);
    const closed = await createOrderInStatus(db, 1, { price: 2_000_000 });
    await recordPaymentIncident({
      kind: "paid-after-close",
      orderId: closed.orderId,
      gateway: "sandbox",
      gatewayRef: "evt-home-late",
      amount: 2_000_000,
      detail: "paid after close",
    });
    const [late] = await db
      .select({ id: refunds.id, userId: orders.userId })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(eq(refunds.orderId, closed.orderId));
    const waitingForAccount = (await (await staffMember(["keuangan"])).browser.get(queuesRoute.loader, "/ops")).data as Home;
    // Waiting for the buyer's account is not finance's work yet; the incident is.
    expect(financeCards(waitingForAccount).map((q) => [q.key, q.count])).toEqual([
      ["pengembalian", 0],
      ["insiden", 1],
    ]);
    expect(
      await submitRefundAccount(late!.id, late!.userId, { bankName: "BNI", accountNumber: "002101000123501", accountHolder: "Rina" }),
    ).toEqual({ ok: true });
    const clerk = (await (await staffMember(["keuangan"])).browser.get(queuesRoute.loader, "/ops")).data as Home;
    expect(financeCards(clerk)).toEqual([
      {
        key: "pengembalian",
        title: "Pengembalian Dana Sedang Diproses",
        count: 1,
        href: "/ops/refunds?state=processing",
        oldest: "baru saja",
        amount: "Rp2.000.000",
      },
      { key: "insiden", title: "Insiden Pembayaran", count: 1, href: "/ops/refunds#insiden", oldest: "baru saja", amount: null },
    ]);
    // Decision 0068's leftover: a manual transfer cancelled after its proof waits first for finance to
    // find its money on the statement, its own card beside the refunds' (no amount: nothing received yet).
    const fundsCard = (home: Home) => home.queues.find((q) => q.key === "konfirmasi-dana");
    const noFunds = { key: "konfirmasi-dana", title: "Menunggu Konfirmasi Dana", href: "/ops/refunds?state=awaiting-funds", amount: null };
    expect(fundsCard(clerk)).toEqual({ ...noFunds, count: 0, oldest: null });
    expect(clerk.queues.map((q) => q.key).slice(-3)).toEqual(["konfirmasi-dana", "pengembalian", "insiden"]);
    const buyer = await createBuyer();
    const transfer = await placeOrder(buyer, await createStockedProduct({ price: 3_000_000 }), "MANUAL-BNI");
    expect(await markPaid(transfer, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
    expect(await cancelOrder(transfer, buyer.id)).toEqual({ ok: true });
    const checking = (await (await staffMember(["keuangan"])).browser.get(queuesRoute.loader, "/ops")).data as Home;
    expect(fundsCard(checking)).toEqual({ ...noFunds, count: 1, oldest: "baru saja" });
    // 'Pesanan' and 'Katalog' do not work on money.
    const orderDesk = (await (await staffMember(["pesanan"])).browser.get(queuesRoute.loader, "/ops")).data as Home;
    expect(financeCards(orderDesk)).toEqual([]);
    expect(fundsCard(orderDesk)).toBeUndefined();
  });
});

describe("/ops/staff", () => {
  it("grants and revokes roles (the person's sessions end, audited); never removes the last admin", async () => {
    const admin = await staffMember(["admin"]);
    const person = await createVerifiedUser(db);
    const theirSession = await new Browser().signIn(person.id);

    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "add", email: "tidak-ada@example.test", role: "katalog" }),
    ).toMatchObject({
      status: 400,
      data: { emailError: "Tidak ada akun dengan email ini. Orang itu harus mendaftar dulu." },
    });
    expect(await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "add", email: person.email })).toMatchObject({
      status: 400,
      data: { error: "Pilih minimal satu peran." },
    });
    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", {
        intent: "add",
        email: person.email.toUpperCase(),
        role: ["katalog", "pesanan", "bos"],
      }),
    ).toMatchObject({ status: 302, location: "/ops/staff" });
    expect(await rolesOf(person.id)).toEqual(["pesanan", "katalog"]);
    // Their open session ended with the change.
    const [old] = await db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.userId, person.id));
    expect(old!.revokedAt).not.toBeNull();
    expect((await theirSession.get(queuesRoute.loader, "/ops")).status).toBe(404);
    const listed = (await admin.browser.get(staffRoute.loader, "/ops/staff")).data as Awaited<ReturnType<typeof staffRoute.loader>>;
    expect(listed.staff.find((m) => m.id === person.id)!.roles).toEqual(["pesanan", "katalog"]);

    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "save", userId: String(person.id), role: "katalog" }),
    ).toMatchObject({ status: 302 });
    expect(await rolesOf(person.id)).toEqual(["katalog"]);

    // The only admin cannot take their own 'Admin' away on the page.
    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "save", userId: String(admin.user.id), role: "pesanan" }),
    ).toMatchObject({ status: 409, data: { error: LAST_ADMIN } });
    expect(await rolesOf(admin.user.id)).toEqual(["admin"]);

    const audit = await db.select({ detail: operatorAudit.detail }).from(operatorAudit).where(eq(operatorAudit.action, "staff-roles"));
    expect(audit.map((a) => a.detail)).toEqual([`akun ${person.id}: - → pesanan,katalog`, `akun ${person.id}: pesanan,katalog → katalog`]);
  });

  it("shows each person's standing; an admin resets a colleague's second factor (audited, sessions ended); an unactivated operator stays out", async () => {
    const admin = await staffMember(["admin"]);
    const colleague = await staffMember(["katalog"]);
    const fresh = await createVerifiedUser(db);
    await grantRolesByEmail(fresh.email, ["pesanan"], "ops");
    const unactivated = await createVerifiedUser(db);
    await db.update(users).set({ verifiedAt: null }).where(eq(users.id, unactivated.id));
    await grantRolesByEmail(unactivated.email, ["pesanan"], "ops");

    type Listed = Awaited<ReturnType<typeof staffRoute.loader>>;
    const listed = async (id: number) =>
      ((await admin.browser.get(staffRoute.loader, "/ops/staff")).data as Listed).staff.find((m) => m.id === id)!;
    const standing = async (id: number) => (await listed(id)).standing;
    expect(await standing(colleague.user.id)).toBe("Aktif");
    expect(await standing(fresh.id)).toBe("Belum 2FA");
    expect(await standing(unactivated.id)).toBe("Belum aktivasi");
    // 'Atur ulang 2FA' only where there is a second factor to reset, never one's own (issue 38).
    expect((await listed(colleague.user.id)).resettable).toBe(true);
    expect((await listed(fresh.id)).resettable).toBe(false);
    expect((await listed(unactivated.id)).resettable).toBe(false);
    expect((await listed(admin.user.id)).resettable).toBe(false);
    // A reset sent anyway (a page left open) is refused: no audit row claims a reset that did nothing.
    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "reset-2fa", userId: String(fresh.id) }),
    ).toMatchObject({
      status: 409,
      data: { error: NO_FACTOR },
    });

    // An operator whose e-mail is not verified is sent home (where the activation banner is), not into /ops.
    const theirs = await new Browser().signIn(unactivated.id);
    expect(await theirs.get(queuesRoute.loader, "/ops")).toMatchObject({ status: 302, location: "/home" });

    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "reset-2fa", userId: String(admin.user.id) }),
    ).toMatchObject({ status: 409, data: { error: OWN_FACTOR } });
    expect(
      await admin.browser.postFields(staffRoute.action, "/ops/staff", { intent: "reset-2fa", userId: String(colleague.user.id) }),
    ).toMatchObject({ status: 302, location: "/ops/staff" });
    expect(await db.select().from(operatorFactors).where(eq(operatorFactors.userId, colleague.user.id))).toEqual([]);
    expect(await standing(colleague.user.id)).toBe("Belum 2FA");
    // Their session ended: the next sign-in enrols a new factor at /ops/2fa.
    expect((await colleague.browser.get(queuesRoute.loader, "/ops")).status).toBe(404);
    const again = await new Browser().signIn(colleague.user.id);
    expect(await again.get(queuesRoute.loader, "/ops")).toMatchObject({ status: 302, location: "/ops/2fa" });
    const audit = await db.select({ detail: operatorAudit.detail }).from(operatorAudit).where(eq(operatorAudit.action, "2fa-reset"));
    expect(audit.map((a) => a.detail)).toEqual([`akun ${colleague.user.id}: verifikasi dua langkah diatur ulang`]);
  });
});
