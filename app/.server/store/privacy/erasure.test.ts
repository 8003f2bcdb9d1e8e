import { randomInt } from "node:crypto";
import zlib from "node:zlib";
import { hash } from "@node-rs/argon2";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { balanceEntries, dataExports, orderEvents, orders, payments, uploads, users } from "../../db/schema";
import { createProduct, createVerifiedUser, INCENTIVE_PROMO, realAddress, submission, type TestUser } from "../../testing/fixtures";
import { waitForOutbox } from "../../testing/messages";
import { createOrderInStatus } from "../../testing/order-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { getBalance, requestWithdrawal, saveUpload, settleWithdrawal, transitionOrder } from "../orders";
import { createOrderFromDraft, NIK_ALREADY_USED, saveDraftAddress, setDraftKtp, startCheckout } from "../checkout";
import { searchOrders } from "../back-office";
import { sealPersonalData } from "./rotation";
import { createRefund, listOwnedRefunds, recordReceipt, submitRefundAccount } from "../refunds";
import { authenticate, createSession, getSessionUser, registerUser } from "../people";
import {
  deleteExpiredDataExports,
  ERASE_MONEY_DUE,
  ERASE_OPEN_ORDER,
  ERASE_WRONG_PASSWORD,
  eraseAccount,
  eraseRefundOpen,
  latestDataExport,
  openDataExport,
  readNik,
  requestDataExport,
} from ".";

// 'Hapus Akun' and 'Unduh Data Saya' (issue 35 item 4): refused while an order is open or money is due, and then the
// person is nowhere in the database while the books stay as they were.

ownDatabaseForThisFile();
let db: Db;
beforeAll(async () => {
  db = await getDb();
});

const PASSWORD = "rahasia-Kuat-123";

async function buyerWithPassword(): Promise<TestUser> {
  const phoneNo = `0813${String(randomInt(0, 1e8)).padStart(8, "0")}`;
  const user = await createVerifiedUser(db, { phoneNo });
  await db
    .update(users)
    .set({ passwordHash: await hash(PASSWORD) })
    .where(eq(users.id, user.id));
  return user;
}

/** Every (table.column) of the store's own tables whose text holds one of `needles`: names only, never the values. */
async function columnsHolding(needles: string[]): Promise<string[]> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')
        order by table_name, column_name`,
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text ilike ${`%${needle}%`}`,
      );
      if (Number(row?.n) > 0) found.push(`${table_name}.${column_name}`);
    }
  }
  return found;
}

async function financeOf(orderIds: number[], userId: number) {
  return {
    orders: await db
      .select({
        id: orders.id,
        invoiceId: orders.invoiceId,
        statusId: orders.statusId,
        priceOri: orders.priceOri,
        amount: orders.amount,
        totalAmount: orders.totalAmount,
        paymentTotal: orders.paymentTotal,
        insentifValue: orders.insentifValue,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .where(inArray(orders.id, orderIds))
      .orderBy(asc(orders.id)),
    payments: await db.select().from(payments).where(inArray(payments.orderId, orderIds)).orderBy(asc(payments.orderId)),
    events: await db.select().from(orderEvents).where(inArray(orderEvents.orderId, orderIds)).orderBy(asc(orderEvents.id)),
    ledger: await db.select().from(balanceEntries).where(eq(balanceEntries.userId, userId)).orderBy(asc(balanceEntries.id)),
  };
}

describe("Hapus Akun", () => {
  it("is refused for a wrong password, an open order and money due, then erases the person and keeps the books", async () => {
    const user = await buyerWithPassword();
    // An incentive order (NIK and KTP photo), cancelled; and an order still awaiting payment.
    const incentive = await createOrderInStatus(db, 100, { user });
    expect((await transitionOrder(incentive.orderId, 100, 1, `buyer:${user.id}`, "test")).ok).toBe(true);
    const open = await createOrderInStatus(db, 200, { user });
    const [sealed] = await db
      .select({ nik: orders.buyerNik, ktp: orders.ktpUploadId })
      .from(orders)
      .where(eq(orders.id, incentive.orderId));
    const nik = readNik(sealed!.nik, { orderId: incentive.orderId });
    expect(nik).toMatch(/^\d{16}$/);

    expect(await eraseAccount(user.id, "bukan-kata-sandinya")).toEqual({ ok: false, field: "password", message: ERASE_WRONG_PASSWORD });
    expect(await eraseAccount(user.id, PASSWORD)).toEqual({ ok: false, message: ERASE_OPEN_ORDER });

    // The open order finishes; a reward sits on the balance, then is withdrawn.
    expect((await transitionOrder(open.orderId, 200, 1, `buyer:${user.id}`, "test")).ok).toBe(true);
    await db.insert(balanceEntries).values({ userId: user.id, kind: "credit", title: "Reward", amount: 50_000 });
    expect(await eraseAccount(user.id, PASSWORD)).toEqual({ ok: false, message: ERASE_MONEY_DUE });
    const withdrawal = await requestWithdrawal(user.email, 50_000);
    if (!withdrawal.ok) throw new Error(withdrawal.message);
    expect(await eraseAccount(user.id, PASSWORD)).toEqual({ ok: false, message: ERASE_MONEY_DUE });
    expect((await settleWithdrawal(withdrawal.id, "ok")).ok).toBe(true);

    const orderIds = [incentive.orderId, open.orderId];
    const before = await financeOf(orderIds, user.id);
    const session = await createSession(user.id);
    const apiToken = await createSession(user.id, "api");
    expect(await columnsHolding([user.email, user.phoneNo, user.nip, nik])).not.toEqual([]);

    const erased = await eraseAccount(user.id, PASSWORD);
    expect(erased).toEqual({ ok: true, pseudonym: expect.stringMatching(/^Akun Dihapus #[0-9A-F]{8}$/) });

    expect(await columnsHolding([user.email, user.phoneNo, user.nip, nik])).toEqual([]);
    const after = await financeOf(orderIds, user.id);
    expect(after.orders).toEqual(before.orders);
    expect(after.payments).toEqual(before.payments);
    expect(after.events).toEqual(before.events);
    expect(after.ledger).toEqual(before.ledger);
    const names = await db.select({ buyerName: orders.buyerName }).from(orders).where(inArray(orders.id, orderIds));
    expect(names.map((o) => o.buyerName)).toEqual([erased.ok && erased.pseudonym, erased.ok && erased.pseudonym]);
    const [ktp] = await db.select({ size: uploads.size, deletedAt: uploads.deletedAt }).from(uploads).where(eq(uploads.id, sealed!.ktp!));
    expect(ktp).toEqual({ size: 0, deletedAt: expect.any(Date) });

    // Signed out everywhere, the address cannot sign in, and is free to register again.
    expect(await getSessionUser(session)).toBeNull();
    expect(await getSessionUser(apiToken, "api")).toBeNull();
    expect(await authenticate(user.email, PASSWORD)).toBeNull();
    const [company] = await db.select({ companyId: users.companyId }).from(users).where(eq(users.id, user.id));
    const again = await registerUser({ ...user, companyId: company!.companyId, password: PASSWORD });
    expect(again.ok && again.value.userId).toEqual(expect.any(Number));
    expect(again.ok && again.value.userId).not.toBe(user.id);

    // The goodbye e-mail went to the address the account had.
    const outbox = await waitForOutbox((entries) => entries.some((e) => e.to === user.email && e.subject.includes("Dihapus")));
    expect(outbox.filter((e) => e.to === user.email && e.subject.includes("Dihapus"))).toHaveLength(1);
  });
});

/** An incentive checkout of `user` with `nik`, as the buyer submits it (draft, address, KTP, the order). */
async function incentiveOrderWithNik(user: TestUser, nik: string) {
  const productId = await createProduct(db, { price: 28_500_000, stock: 5, promos: [INCENTIVE_PROMO] });
  const started = await startCheckout({ id: user.id, verified: true }, productId);
  if (!started.ok) throw new Error(started.message);
  await saveDraftAddress(user.id, await realAddress(db));
  await setDraftKtp(
    user.id,
    await saveUpload(user.id, "ktp", { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), contentType: "image/jpeg" }),
  );
  return createOrderFromDraft(user.id, crypto.randomUUID(), submission(user, { insentif: true, buyerDadName: "Ahmad", buyerNik: nik }), {
    statusId: 100,
  });
}

describe("Hapus Akun after an incentive (issue 45 item 9)", () => {
  it("keeps the NIK's keyed hash on the incentive order: no second unit for that NIK, to another buyer or to the person's new account", async () => {
    const a = await buyerWithPassword();
    const nik = `3171${String(randomInt(0, 1e12)).padStart(12, "0")}`;
    const made = await incentiveOrderWithNik(a, nik);
    if (!made.ok) throw new Error(made.message);
    // Approved, paid, shipped, confirmed; the reward withdrawn; an earlier incentive order cancelled.
    for (const [from, to] of [
      [100, 200],
      [200, 300],
      [300, 400],
      [400, 500],
    ] as const)
      expect((await transitionOrder(made.orderId, from, to, "system", "test")).ok).toBe(true);
    const reward = await getBalance(a.id);
    if (reward > 0) {
      const withdrawal = await requestWithdrawal(a.email, reward);
      if (!withdrawal.ok) throw new Error(withdrawal.message);
      expect((await settleWithdrawal(withdrawal.id, "ok")).ok).toBe(true);
    }
    const released = await createOrderInStatus(db, 100, { user: a });
    expect((await transitionOrder(released.orderId, 100, 1, `buyer:${a.id}`, "test")).ok).toBe(true);
    const hashOf = async (orderId: number) =>
      (await db.select({ hash: orders.buyerNikHash }).from(orders).where(eq(orders.id, orderId)))[0]!.hash;
    const kept = await hashOf(made.orderId);
    expect(kept).toMatch(/^[0-9a-f]{64}$/);

    expect(await eraseAccount(a.id, PASSWORD)).toEqual({ ok: true, pseudonym: expect.any(String) });
    // The NIK itself is gone; its keyed hash stays on the order that holds the unit, not on the released one.
    expect(await columnsHolding([nik])).toEqual([]);
    expect(await hashOf(made.orderId)).toBe(kept);
    expect(await hashOf(released.orderId)).toBeNull();
    // A restart's sealing pass leaves the erased orders as they are (it used to hash their empty NIK).
    await sealPersonalData(db, "clear");
    expect(await hashOf(made.orderId)).toBe(kept);
    const [erased] = await db.select({ nik: orders.buyerNik }).from(orders).where(eq(orders.id, made.orderId));
    expect(erased!.nik).toBe("");

    // /ops/search?nik= still finds the erased order.
    const opener = { operatorId: (await createVerifiedUser(db)).id, clientAddress: "203.0.113.9" };
    expect((await searchOrders({ nik }, 1, opener)).items.map((o) => o.id)).toContain(made.orderId);

    // Another buyer with the same NIK is refused, and so is the erased person registered again.
    const b = await buyerWithPassword();
    expect(await incentiveOrderWithNik(b, nik)).toEqual({ ok: false, field: "buyerNik", message: NIK_ALREADY_USED });
    const [company] = await db.select({ companyId: users.companyId }).from(users).where(eq(users.id, a.id));
    const again = await registerUser({ ...a, companyId: company!.companyId, password: PASSWORD });
    if (!again.ok || again.value.userId === null) throw new Error("registration refused");
    await db.update(users).set({ verifiedAt: new Date() }).where(eq(users.id, again.value.userId));
    const returning: TestUser = { ...a, id: again.value.userId };
    expect(await incentiveOrderWithNik(returning, nik)).toEqual({ ok: false, field: "buyerNik", message: NIK_ALREADY_USED });
    expect((await searchOrders({ nik }, 1, opener)).items.map((o) => o.id)).toEqual([made.orderId]);
  });
});

/** The files of a stored ZIP, read from its local headers (checks each CRC-32 as an unzip would). */
function unzip(zip: Uint8Array): Map<string, Buffer> {
  const buffer = Buffer.from(zip);
  const files = new Map<string, Buffer>();
  let at = 0;
  while (buffer.readUInt32LE(at) === 0x04034b50) {
    const crc = buffer.readUInt32LE(at + 14);
    const size = buffer.readUInt32LE(at + 18);
    const nameLength = buffer.readUInt16LE(at + 26);
    const extra = buffer.readUInt16LE(at + 28);
    const name = buffer.subarray(at + 30, at + 30 + nameLength).toString("utf8");
    const data = buffer.subarray(at + 30 + nameLength + extra, at + 30 + nameLength + extra + size);
    expect(zlib.crc32(data)).toBe(crc);
    files.set(name, data);
    at += 30 + nameLength + extra + size;
  }
  expect(buffer.readUInt32LE(buffer.length - 22)).toBe(0x06054b50);
  expect(buffer.readUInt16LE(buffer.length - 12)).toBe(files.size);
  return files;
}

describe("Hapus Akun with a refund not yet made", () => {
  it("names the order and what the refund waits for: the buyer's bank details, then finance (issue 43 item 7)", async () => {
    const user = await buyerWithPassword();
    const { orderId } = await createOrderInStatus(db, 200, { user });
    expect((await transitionOrder(orderId, 200, 1, `buyer:${user.id}`, "test")).ok).toBe(true);
    await db.transaction(async (tx) => {
      await recordReceipt(tx, { orderId, amount: 10_000, source: "incident", ref: `test:erase:${orderId}` });
      const made = await createRefund(tx, { orderId, amount: "rest", cause: "buyer-cancel", reason: "test", actor: "system" });
      if (!made.ok) throw new Error(made.message);
    });
    const [order] = await db.select({ invoiceId: orders.invoiceId }).from(orders).where(eq(orders.id, orderId));
    expect(await eraseAccount(user.id, PASSWORD)).toEqual({ ok: false, message: eraseRefundOpen(order!.invoiceId, true), orderId });

    const [refund] = await listOwnedRefunds(orderId, user.id);
    const sent = await submitRefundAccount(refund!.id, user.id, {
      bankName: "BNI",
      accountNumber: "0123456789",
      accountHolder: "Pembeli Uji",
    });
    expect(sent).toEqual({ ok: true });
    expect(await eraseAccount(user.id, PASSWORD)).toEqual({ ok: false, message: eraseRefundOpen(order!.invoiceId, false), orderId });
  });
});

describe("Unduh Data Saya", () => {
  it("builds the owner's ZIP in a job, e-mails the link, opens it to the owner only, and deletes it after 24 h", async () => {
    const user = await buyerWithPassword();
    const { orderId } = await createOrderInStatus(db, 100, { user });
    const [order] = await db.select({ nik: orders.buyerNik, invoiceId: orders.invoiceId }).from(orders).where(eq(orders.id, orderId));

    const requested = await requestDataExport(user.id);
    expect(requested.ready).toBe(false);
    // A second click within the hour gives the same request back.
    expect((await requestDataExport(user.id)).id).toBe(requested.id);

    const outbox = await waitForOutbox((entries) => entries.some((e) => e.to === user.email && e.subject.includes("Siap Diunduh")));
    const mail = outbox.find((e) => e.to === user.email && e.subject.includes("Siap Diunduh"))!;
    expect(mail.text).toContain(`/profile/data-saya/${requested.id}`);
    const latest = await latestDataExport(user.id);
    expect(latest).toEqual(expect.objectContaining({ ready: true, link: `/profile/data-saya/${requested.id}` }));

    // Sealed at rest: the stored bytes are not the archive.
    const [row] = await db.select({ bytes: dataExports.bytes }).from(dataExports).where(eq(dataExports.id, requested.id));
    expect(Buffer.from(row!.bytes!).includes(Buffer.from("akun.json"))).toBe(false);

    const files = unzip((await openDataExport(requested.id, user.id)) as Uint8Array);
    expect([...files.keys()].filter((name) => !name.startsWith("foto/"))).toEqual([
      "RINGKASAN-DATA-SAYA.html",
      "akun.json",
      "alamat.json",
      "pesanan.json",
      "notifikasi.json",
      "saldo.json",
    ]);
    const account = JSON.parse(files.get("akun.json")!.toString("utf8"));
    expect(account).toEqual(expect.objectContaining({ email: user.email, nip: user.nip, nomorHp: user.phoneNo }));
    const exported = JSON.parse(files.get("pesanan.json")!.toString("utf8"));
    expect(exported).toEqual([expect.objectContaining({ invoiceId: order!.invoiceId, buyerNik: readNik(order!.nik, { orderId }) })]);
    expect(JSON.parse(files.get("saldo.json")!.toString("utf8"))).toEqual({ saldo: 0, riwayat: [] });
    const photos = [...files.entries()].filter(([name]) => name.startsWith("foto/ktp-"));
    expect(photos.map(([, bytes]) => [...bytes])).toEqual([[0xff, 0xd8, 0xff, 0xd9]]);

    // Another account, an unknown id: nothing.
    const stranger = await buyerWithPassword();
    expect(await openDataExport(requested.id, stranger.id)).toBeNull();
    expect(await openDataExport("x".repeat(43), user.id)).toBeNull();

    // Past its 24 hours the link is dead and the row deleted.
    await db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, requested.id));
    expect(await openDataExport(requested.id, user.id)).toBeNull();
    expect(await latestDataExport(user.id)).toBeNull();
    expect(await deleteExpiredDataExports()).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(dataExports).where(eq(dataExports.id, requested.id))).toEqual([]);
  });
});
