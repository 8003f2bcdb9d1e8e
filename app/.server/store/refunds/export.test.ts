import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { orders, refunds } from "../../db/schema";
import { createOrderInStatus } from "../../testing/order-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { recordPaymentIncident } from "../payments";
import { exportTransferRefundsCsv, exportTransferRefundsXlsx } from "./export";
import { submitRefundAccount } from "./buyer";

// The transfer list for the bank (issue 43): the XLSX keeps an account number's leading zeros (a
// text cell), which a spreadsheet opening the CSV drops; both list the same refunds.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
});

describe("the transfer refunds' export", () => {
  it("lists each refund waiting for a transfer; in the XLSX the account number is text, its zeros kept, the amount a number", async () => {
    const closed = await createOrderInStatus(db, 1, { price: 14_390_607 });
    await recordPaymentIncident({
      kind: "paid-after-close",
      orderId: closed.orderId,
      gateway: "sandbox",
      gatewayRef: "evt-export-late",
      amount: 14_390_607,
      detail: "paid after close",
    });
    const [refund] = await db
      .select({ id: refunds.id, userId: orders.userId, invoiceId: orders.invoiceId })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(eq(refunds.orderId, closed.orderId));
    // Waiting for the buyer's account: not in the list yet.
    expect(await exportTransferRefundsCsv()).not.toContain(refund!.invoiceId);
    const account = { bankName: "BNI", accountNumber: "002101000123501", accountHolder: "=Rina" };
    expect(await submitRefundAccount(refund!.id, refund!.userId, account)).toEqual({ ok: true });

    expect(await exportTransferRefundsCsv()).toContain(`BNI,002101000123501,'=Rina,14390607,REFUND-${refund!.id} ${refund!.invoiceId}`);

    const files = unzipSync(new Uint8Array(await exportTransferRefundsXlsx()));
    const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]!);
    const shared = files["xl/sharedStrings.xml"] ? strFromU8(files["xl/sharedStrings.xml"]) : "";
    const texts = [...(shared + sheet).matchAll(/<t(?: [^>]*)?>([^<]*)<\/t>/g)].map((m) => m[1]);
    expect(texts).toEqual(
      expect.arrayContaining(["Nomor Rekening", "002101000123501", "=Rina", `REFUND-${refund!.id} ${refund!.invoiceId}`]),
    );
    // The account number's cell is a string cell (t="s" or inline), never a number that loses '00'.
    const cells = [...sheet.matchAll(/<c r="B2"([^>]*)>(.*?)<\/c>/g)];
    expect(cells).toHaveLength(1);
    expect(cells[0]![1]).toMatch(/t="(s|inlineStr|str)"/);
    // The amount is a number a spreadsheet can add up; '=Rina' is text, not a formula.
    expect(sheet).toMatch(/<c r="D2"[^>]*><v>14390607<\/v><\/c>/);
    expect(sheet).not.toContain("<f>");
  });
});
