import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { orders, orderStatuses, regencies, savedAddresses } from "../../db/schema";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "../../testing/payment-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { cancelOrder } from "../orders";
import { markPaid } from "../payments";
import { confirmRefundFunds, submitRefundAccount, listOwnedRefunds } from "../refunds";
import { collectAccountData } from "./data-export";
import { FIELD_NOTES, fieldPaths } from "./data-fields";
import { formatWib, SUMMARY_FILE } from "./data-summary";

// Issue 43 item 6: 'Unduh Data Saya' that a person can read. A buyer transferred for an order,
// cancelled it while the proof waited, and gave a bank account for the refund: the ZIP opens with a
// summary in Indonesian (statuses by name from the store's status table, WIB times, regions by name,
// the refund's account), and its JSON files carry a name beside every status id and document every
// field they hold.

ownDatabaseForThisFile();
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
let db: Db;
beforeAll(async () => {
  db = await getDb();
});

const ACCOUNT = { bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" };
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

async function cancelledAfterTransfer() {
  const buyer = await createBuyer();
  const productId = await createStockedProduct({ price: 5_000_000 });
  const orderId = await placeOrder(buyer, productId, "MANUAL-BNI");
  expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
  expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
  const [refund] = await listOwnedRefunds(orderId, buyer.id);
  // Finance saw the transfer on the statement (issue 45), so the account takes it to 'Sedang Diproses'.
  expect(await confirmRefundFunds(refund!.id, "cli", { amount: String(refund!.amount) })).toMatchObject({ ok: true });
  expect(await submitRefundAccount(refund!.id, buyer.id, ACCOUNT)).toMatchObject({ ok: true });
  return { buyer, orderId };
}

describe("Unduh Data Saya: the readable summary", () => {
  it("names statuses, regions and the refund account, in WIB, first in the ZIP, and documents every JSON field", async () => {
    const { buyer, orderId } = await cancelledAfterTransfer();
    const entries = await collectAccountData(db, buyer.id);
    expect(entries[0]!.name).toBe(SUMMARY_FILE);
    const text = (name: string) => new TextDecoder().decode(entries.find((e) => e.name === name)!.data);
    const html = text(SUMMARY_FILE);
    // The readable part: everything above the field documentation, which names the codes on purpose.
    const readable = html.slice(0, html.indexOf("<h2>Berkas untuk program (JSON)</h2>"));
    expect(readable.length).toBeGreaterThan(1000);

    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    const names = new Map(
      (
        await db
          .select()
          .from(orderStatuses)
          .where(inArray(orderStatuses.id, [1, 200, 302]))
      ).map((s) => [s.id, s.name]),
    );
    // Statuses by the names of the one status table: now 'Dibatalkan', and its way there.
    expect(readable).toContain(`<th scope="row">Status</th><td>${names.get(1)}</td>`);
    expect(readable).toContain(`${names.get(302)} → ${names.get(1)}`);
    expect(readable).toContain(`${names.get(200)} → ${names.get(302)}`);
    // Times in WIB, none in UTC; the payment's closing in words, not 'order-closed'.
    expect(readable).toContain(`<th scope="row">Dibuat</th><td>${formatWib(order!.createdAt)}</td>`);
    expect(formatWib(new Date("2026-11-29T02:15:00Z"))).toBe("29 November 2026 pukul 09.15 WIB");
    expect(readable).not.toMatch(ISO_TIME);
    // The payment in words: the transfer the buyer reported, and closed with the order (not 'waiting').
    // Whatever month the test runs in: the date in Indonesian words (a fixed month failed in December).
    expect(readable).toMatch(
      /Anda menandai sudah transfer \d+ (Januari|Februari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|November|Desember) \d{4} pukul \d\d\.\d\d WIB\. Ditutup: pesanan Dibatalkan\./,
    );
    expect(readable).not.toContain("Menunggu pembayaran sampai");
    // The refund: its state by name and the account it goes to.
    expect(readable).toContain("Sedang Diproses");
    expect(readable).toContain("BNI 0123456789 a.n. Budi Santoso");
    // Regions by name: the order's and the saved address's.
    const [saved] = await db.select({ address: savedAddresses.address }).from(savedAddresses).where(eq(savedAddresses.userId, buyer.id));
    const [kota] = await db.select({ name: regencies.name }).from(regencies).where(eq(regencies.code, saved!.address.kotaId));
    expect(readable).toContain(`${order!.kelurahan}, ${order!.kecamatan}, ${order!.kota}, ${order!.provinsi} ${order!.kodePos}`);
    expect(readable).toContain(`, ${kota!.name}, `);
    expect(readable).not.toContain("kode wilayah");

    // The JSON beside it: a name next to every status id, the region names next to the codes, the account.
    const exported = JSON.parse(text("pesanan.json"));
    expect(exported).toHaveLength(1);
    const [one] = exported;
    expect(one.status).toBe(names.get(one.statusId));
    expect(one.riwayatStatus.length).toBeGreaterThanOrEqual(3);
    for (const event of one.riwayatStatus) {
      expect(event.keStatus).toBe(names.get(event.ke));
      expect(event.dariStatus).toBe(event.dari === null ? null : names.get(event.dari));
    }
    expect(one.pengembalianDana).toEqual([expect.objectContaining({ ...ACCOUNT, state: "processing", statusNama: "Sedang Diproses" })]);
    const address = JSON.parse(text("alamat.json"));
    expect(address.alamatTersimpan).toEqual(expect.objectContaining({ kotaId: saved!.address.kotaId, kota: kota!.name }));

    // Every field the JSON files hold is documented in the summary.
    for (const [file, notes] of Object.entries(FIELD_NOTES)) {
      const undocumented = fieldPaths(JSON.parse(text(file))).filter((path) => !(path in notes));
      expect(undocumented, file).toEqual([]);
      for (const field of Object.keys(notes)) expect(html, `${file} ${field}`).toContain(`<code>${field}</code>`);
    }
  });
});
