import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { balanceEntries, orders, personalDataAccess } from "../../db/schema";
import { listWithdrawalsInProcess, listQueue, OPS_PAGE_SIZE, queueSummaries, searchOrders } from "./queues";
import { createVerifiedUser } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { requestWithdrawal } from "../orders";
import { exportOrdersCsv, EXPORT_HEADER } from "./export";
import { maskNik, readNik } from "../privacy";
import { createOrderInStatus } from "../../testing/order-fixtures";

// What the back office reads (issue 17): the queues (counts, oldest waiting first, pages), the
// search's criteria, and the CSV export (header, masked NIK, every row).

let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
}, 300_000);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

describe("queues", () => {
  it("count what waits, show the oldest wait, and list the longest-waiting first, paged", async () => {
    const made = [];
    for (let i = 0; i < OPS_PAGE_SIZE + 2; i++) made.push((await createOrderInStatus(db, 301)).orderId);
    // The last one made has waited longest (it entered 301 an hour ago).
    const oldest = made.at(-1)!;
    const hourAgo = new Date(Date.now() - 3600_000);
    await db.update(orders).set({ statusChangedAt: hourAgo }).where(eq(orders.id, oldest));
    const summary = (await queueSummaries()).find((q) => q.key === "cicilan")!;
    expect(summary).toMatchObject({ title: "Persetujuan Cicilan", count: OPS_PAGE_SIZE + 2 });
    expect(summary.oldest!.getTime()).toBe(hourAgo.getTime());
    const first = await listQueue("cicilan", 1);
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: OPS_PAGE_SIZE + 2 });
    expect(first.items).toHaveLength(OPS_PAGE_SIZE);
    expect(first.items[0]!.id).toBe(oldest);
    expect(first.items.slice(1, 4).map((o) => o.id)).toEqual(made.slice(0, 3));
    const second = await listQueue("cicilan", 2);
    expect(second.items.map((o) => o.id)).toEqual(made.slice(OPS_PAGE_SIZE - 1, OPS_PAGE_SIZE + 1));
    expect((await listQueue("cicilan", 0)).page).toBe(1);
    // Past the last page: no rows, the count still right.
    expect(await listQueue("cicilan", 5)).toMatchObject({ items: [], page: 5, pageCount: 2, total: OPS_PAGE_SIZE + 2 });

    const buyer = await createVerifiedUser(db);
    await db.insert(balanceEntries).values({ userId: buyer.id, kind: "credit", title: "Reward Pembelian", amount: 10_000 });
    const withdrawal = await requestWithdrawal(buyer.email, 5_000);
    if (!withdrawal.ok) throw new Error(withdrawal.message);
    expect((await queueSummaries()).find((q) => q.key === "penarikan")).toMatchObject({ title: "Penarikan Saldo", count: 1 });
    expect((await listWithdrawalsInProcess(1)).items).toEqual([
      expect.objectContaining({ id: withdrawal.id, email: buyer.email, amount: 5_000 }),
    ]);
  });
});

describe("search and export", () => {
  it("finds orders by invoice, e-mail, NIK, status and purchase day; the CSV masks the NIK and holds every row", async () => {
    const a = await createOrderInStatus(db, 300);
    const b = await createOrderInStatus(db, 302);
    const [rowA] = await db.select().from(orders).where(eq(orders.id, a.orderId));
    const [rowB] = await db.select().from(orders).where(eq(orders.id, b.orderId));
    const searcher = await createVerifiedUser(db);
    const opener = { operatorId: searcher.id, clientAddress: "203.0.113.9" };
    const ids = async (search: Parameters<typeof searchOrders>[0]) => (await searchOrders(search, 1, opener)).items.map((o) => o.id);
    expect(await ids({ invoice: rowA!.invoiceId })).toEqual([a.orderId]);
    expect(await ids({ invoice: rowA!.invoiceId.slice(-6) })).toContain(a.orderId);
    expect(await ids({ email: rowB!.buyerEmail.toUpperCase() })).toContain(b.orderId);
    expect(await ids({ nik: readNik(rowB!.buyerNik, { orderId: b.orderId }) })).toEqual([b.orderId]);
    expect(await ids({ nik: readNik(rowB!.buyerNik, { orderId: b.orderId }), statusId: 300 })).toEqual([]);
    // Issue 45 item 13: a search by full NIK is on the access log, one row per order it showed; others are not.
    const logged = await db
      .select({ orderId: personalDataAccess.orderId, buyerId: personalDataAccess.buyerId, item: personalDataAccess.item })
      .from(personalDataAccess)
      .where(eq(personalDataAccess.operatorId, searcher.id));
    expect(logged).toEqual([{ orderId: b.orderId, buyerId: b.user.id, item: "nik-search" }]);
    await expect(searchOrders({ nik: readNik(rowB!.buyerNik, { orderId: b.orderId }) }, 1)).rejects.toThrow(/needs the operator/);
    expect(await ids({ statusId: 302, email: rowB!.buyerEmail })).toContain(b.orderId);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
    // The NIK is stored sealed; the search compares its keyed hash (issue 35).
    const nikA = readNik(rowA!.buyerNik, { orderId: a.orderId });
    expect(rowA!.buyerNik).not.toContain(nikA);
    expect(await ids({ nik: nikA, dateFrom: today, dateTo: today })).toEqual([a.orderId]);
    expect(await ids({ nik: nikA, dateFrom: "2020-01-01", dateTo: "2020-01-31" })).toEqual([]);
    // LIKE's own characters are text, not patterns.
    expect(await ids({ invoice: "%" })).toEqual([]);

    const csv = await readAll(exportOrdersCsv({ statusId: 302 }));
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe(EXPORT_HEADER.join(","));
    const line = lines.find((l) => l.startsWith(rowB!.invoiceId))!;
    const nikB = readNik(rowB!.buyerNik, { orderId: b.orderId });
    expect(line).toContain(maskNik(nikB));
    expect(csv).not.toContain(nikB);
    expect(csv).not.toContain(rowA!.invoiceId);
    expect(maskNik("3273011234567890")).toBe("3273********7890");
    const all = await readAll(exportOrdersCsv({}));
    const [{ n }] = (await db
      .select({ n: db.$count(orders) })
      .from(orders)
      .limit(1)) as [{ n: number }];
    expect(all.trimEnd().split("\n")).toHaveLength(Number(n) + 1);
  });

  it("a buyer name with a formula after a separator is exported as text (issue 35: Excel in Indonesia splits on ';')", async () => {
    const order = await createOrderInStatus(db, 302);
    const [row] = await db
      .update(orders)
      .set({ buyerName: "Budi;=cmd|' /C calc'!A0" })
      .where(eq(orders.id, order.orderId))
      .returning({ invoiceId: orders.invoiceId });
    const csv = await readAll(exportOrdersCsv({ invoice: row!.invoiceId }));
    const line = csv.split("\n").find((l) => l.startsWith(row!.invoiceId))!;
    expect(line).toContain("Budi;'=cmd");
    for (const piece of line.split(/[,;\t]/)) expect(piece.replace(/^"/, "")).not.toMatch(/^[=+\-@]/);
  });
});
