import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { notifications, orders, payments } from "../../db/schema";
import { createOrderInStatus } from "../../testing/order-fixtures";
import { createBuyer, createStockedProduct, placeOrder } from "../../testing/payment-fixtures";
import { settleMessages, waitForOutbox } from "../../testing/messages";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { transitionOrder } from "../orders";
import { renderEmail } from "./email-layout";
import { readOutbox } from "./mail";
import { listNotifications, markNotificationsRead, unreadNotificationCount } from "./notifications";
import { sendPaymentReminders } from "./reminders";

ownDatabaseForThisFile();
beforeAll(async () => {
  await getDb();
});

// The buyer's side of an order's moves (issue 28): a notification row and an e-mail job written in
// the transition's transaction, the e-mail to the account (issue 25 item 4), the reminders.

describe("notifications of order moves", () => {
  it("writes one row per buyer-visible move in the move's transaction; none for the buyer's own, none for a refused move", async () => {
    const db = await getDb();
    const { orderId, user } = await createOrderInStatus(db, 100);
    expect(await transitionOrder(orderId, 100, 200, "operator:1")).toEqual({ ok: true });
    expect((await transitionOrder(orderId, 100, 200, "operator:1")).ok).toBe(false);
    expect(await transitionOrder(orderId, 200, 1, `buyer:${user.id}`, "Dibatalkan oleh pembeli")).toEqual({ ok: true });
    const { items, more } = await listNotifications(user.id, { limit: 10 });
    expect(more).toBe(false);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      title: "Pengajuan Insentif Disetujui",
      orderId,
      link: `/transaction-detail/${orderId}`,
      unread: true,
    });
    expect(items[0]!.body).toMatch(/^Pengajuan insentif untuk .+ \(INV\/.+\) disetujui\. Silakan lanjutkan pembayaran/);

    // A move that rolls back (its onMoved throws) leaves neither a row nor a job.
    const other = await createOrderInStatus(db, 300);
    await expect(
      transitionOrder(other.orderId, 300, 400, "operator:1", undefined, { onMoved: async () => Promise.reject(new Error("gagal")) }),
    ).rejects.toThrow("gagal");
    expect((await listNotifications(other.user.id, { limit: 10 })).items.map((n) => n.title)).toEqual(["Pembayaran Diterima"]); // from its way to 300, not the shipment
    const jobs = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pgboss.job where name = 'mail' and data->>'kind' = 'order-event' and (data->>'eventId')::int in (select id from order_events where order_id = ${other.orderId} and to_status = 400)`,
    );
    expect(jobs[0]!.n).toBe(0);
  });

  it("counts the unread, pages newest first, and marks read up to what was shown", async () => {
    const db = await getDb();
    const { user } = await createOrderInStatus(db, 300);
    const rows = Array.from({ length: 12 }, (_, i) => ({
      userId: user.id,
      key: `uji-${user.id}-${i}`,
      title: `Uji ${i}`,
      body: "-",
      orderId: null,
      link: "/home",
    }));
    await db.insert(notifications).values(rows);
    const total = await unreadNotificationCount(user.id);
    expect(total).toBe(13); // the payment received (300) and the 12 above
    const first = await listNotifications(user.id, { limit: 10 });
    expect(first.more).toBe(true);
    expect(first.items.map((n) => n.title).slice(0, 2)).toEqual(["Uji 11", "Uji 10"]);
    const second = await listNotifications(user.id, { limit: 10, before: first.items.at(-1)!.id });
    expect(second).toMatchObject({ more: false });
    expect(second.items).toHaveLength(3);
    expect(await markNotificationsRead(user.id, second.items[0]!.id)).toBe(3);
    expect(await unreadNotificationCount(user.id)).toBe(10);
    expect(await markNotificationsRead(user.id)).toBe(10);
    expect(await unreadNotificationCount(user.id)).toBe(0);
  });
});

describe("order e-mails", () => {
  it("go to the account's address with the account's name, never to the checkout's contact (issue 25 item 4)", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct({ price: 1_250_000 }), "BNI-VA", {
      contact: { buyerEmail: "victim@example.org", buyerName: "Klik tautan ini: http://phish.example" },
    });
    const db = await getDb();
    const [order] = await db
      .select({ buyerEmail: orders.buyerEmail, invoiceId: orders.invoiceId })
      .from(orders)
      .where(eq(orders.id, orderId));
    expect(order!.buyerEmail).toBe("victim@example.org"); // kept as the order's contact
    expect(await transitionOrder(orderId, 200, 300, "gateway", "settled")).toEqual({ ok: true });
    await settleMessages();
    const outbox = await readOutbox(1000);
    expect(outbox.filter((m) => m.to === "victim@example.org")).toEqual([]);
    const mails = outbox.filter((m) => m.to === buyer.email);
    expect(mails.map((m) => m.subject)).toEqual([`Pembayaran Diterima – ${order!.invoiceId}`]);
    const [mail] = mails;
    expect(mail!.text).toMatch(new RegExp(`^Halo ${buyer.fullname},`));
    expect(mail!.text + mail!.html).not.toContain("phish.example");
    // The layout: the items and the amount in rupiah, a button to the order, the logo, a text part.
    const [payment] = await db.select({ total: payments.total }).from(payments).where(eq(payments.orderId, orderId));
    expect(mail!.text).toContain(`Total Bayar: Rp${payment!.total.toLocaleString("id-ID")}`);
    expect(mail!.html).toContain(`href="http://localhost:${process.env.PORT ?? 3000}/transaction-detail/${orderId}"`);
    expect(mail!.html).toContain("/images/email-logo.png");
    expect(mail!.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
  });

  it("renders one layout: escaped HTML with the logo, the items, the total, the button; the same in plain text", () => {
    const mail = renderEmail({
      to: "siti@example.test",
      subject: "Pembayaran Diterima – INV/1",
      greeting: "Halo <Siti>,",
      lines: ["Pembayaran diterima."],
      order: {
        invoiceId: "INV/1",
        items: [{ title: "Motor Listrik & Helm", qty: 1, amount: 28_500_000 }],
        total: { label: "Total Bayar", amount: 27_645_000 },
      },
      button: { label: "Lihat Detail Pesanan", link: "https://toko.example/transaction-detail/1" },
      footer: "Otomatis.",
    });
    expect(mail.html).toContain("Halo &#60;Siti&#62;,");
    expect(mail.html).toContain("Motor Listrik &#38; Helm (1x)");
    expect(mail.html).toContain("Rp28.500.000");
    expect(mail.html).toContain('<a href="https://toko.example/transaction-detail/1"');
    expect(mail.html).toMatch(/<img src="[^"]+\/images\/email-logo\.png"[^>]+alt="Toko Pegawai PLN"/);
    expect(mail.text).toBe(
      [
        "Halo <Siti>,",
        "",
        "Pembayaran diterima.",
        "",
        "Pesanan INV/1",
        "- Motor Listrik & Helm (1x): Rp28.500.000",
        "Total Bayar: Rp27.645.000",
        "",
        "Lihat Detail Pesanan: https://toko.example/transaction-detail/1",
        "",
        "Otomatis.",
        "",
        "Toko Pegawai PLN",
      ].join("\n"),
    );
  });
});

describe("payment reminders", () => {
  it("an hour before the deadline, once per payment, never once paid", async () => {
    const db = await getDb();
    const buyer = await createBuyer();
    const va = await placeOrder(buyer, await createStockedProduct(), "BNI-VA");
    const paid = await placeOrder(await createBuyer(), await createStockedProduct(), "BNI-VA");
    const [deadline] = await db.select({ expiresAt: payments.expiresAt }).from(payments).where(eq(payments.orderId, va));
    const now = new Date(deadline!.expiresAt!.getTime() - 59 * 60_000);
    await db.update(payments).set({ expiresAt: deadline!.expiresAt }).where(eq(payments.orderId, paid));
    expect(await transitionOrder(paid, 200, 300, "gateway", "settled")).toEqual({ ok: true });

    expect(await sendPaymentReminders(new Date(deadline!.expiresAt!.getTime() - 61 * 60_000))).not.toContain(va); // too early
    const reminded = await sendPaymentReminders(now);
    expect(reminded).toContain(va);
    expect(reminded).not.toContain(paid);
    expect(await sendPaymentReminders(now)).not.toContain(va); // once
    const [note] = (await listNotifications(buyer.id, { limit: 10 })).items;
    expect(note).toMatchObject({ title: "Segera Selesaikan Pembayaran", link: `/payment/${va}` });
    expect(note!.body).toMatch(/^Segera selesaikan pembayaran sebelum \d{2}:\d{2} WIB\. Total Bayar Rp[\d.]+ untuk pesanan INV\//);
    const mails = (
      await waitForOutbox((entries) => entries.some((m) => m.to === buyer.email && m.subject.startsWith("Segera Selesaikan Pembayaran")))
    ).filter((m) => m.to === buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/payment/${va}`);
  });
});
