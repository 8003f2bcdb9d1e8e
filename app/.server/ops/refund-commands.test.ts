import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../db/client";
import { refundEvents } from "../db/schema";
import { applyOpsDecision } from "../store/back-office";
import { cancelOrder } from "../store/orders";
import { markPaid } from "../store/payments";
import {
  ACCOUNT_DIGITS_INVALID,
  ACCOUNT_NOT_MATCHING,
  getRefund,
  listOwnedRefunds,
  REFERENCE_REQUIRED,
  submitRefundAccount,
} from "../store/refunds";
import { ownDatabaseForThisFile } from "../testing/own-database";
import { createBuyer, createStockedProduct, placeOrder, proofUpload } from "../testing/payment-fixtures";
import { runOpsCommand } from "./commands";

// Finance's refund steps from the CLI (issue 36): the same store functions as /ops/refunds, the
// refund's events naming the CLI ("ops"), exit 0 done / 1 refused / 2 bad usage.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });
// refunds:list reads the whole store's refunds: on a shared PostgreSQL the other files' refunds
// (hundreds in CI) would push this file's past the list's 200.
ownDatabaseForThisFile();
beforeAll(async () => {
  await getDb();
});

async function ops(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** A manual transfer with its proof, cancelled by the buyer in 302: a transfer refund; with `account`, 'Sedang Diproses'. */
async function transferRefund(account = true) {
  const buyer = await createBuyer();
  const orderId = await placeOrder(buyer, await createStockedProduct({ price: 2_000_000 }), "MANUAL-BNI");
  expect(await markPaid(orderId, buyer.id, await proofUpload(buyer))).toEqual({ ok: true });
  expect(await cancelOrder(orderId, buyer.id)).toEqual({ ok: true });
  const [waiting] = await listOwnedRefunds(orderId, buyer.id);
  // Finance confirms the transfer on the statement, through the CLI's own step (issue 45).
  expect(await ops("refunds:confirm-funds", String(waiting!.id), "--amount", String(waiting!.amount))).toMatchObject({
    code: 0,
    out: `refund ${waiting!.id}: Menunggu Data Rekening`,
  });
  const [refund] = await listOwnedRefunds(orderId, buyer.id);
  if (account)
    expect(
      await submitRefundAccount(refund!.id, buyer.id, { bankName: "BNI", accountNumber: "0123456789", accountHolder: "Budi Santoso" }),
    ).toEqual({ ok: true });
  return { buyer, orderId, refundId: refund!.id, amount: refund!.amount };
}

async function lastEvent(refundId: number) {
  const db = await getDb();
  const events = await db.select().from(refundEvents).where(eq(refundEvents.refundId, refundId)).orderBy(refundEvents.id);
  return events.at(-1);
}

describe("refund commands", () => {
  it("refunds:list shows the refunds of a state with order, amount and account; a state that is not one is bad usage", async () => {
    const { orderId, refundId, amount } = await transferRefund();
    const listed = await ops("refunds:list", "--state", "processing");
    expect(listed.code).toBe(0);
    const line = listed.out.split("\n").find((l) => l.startsWith(`${refundId} `));
    expect(line).toMatch(
      new RegExp(`^${refundId}\\s+${orderId}\\s+\\S+\\s+Sedang Diproses\\s+transfer\\s+${amount}\\s+BNI 0123456789 a\\.n\\. Budi Santoso`),
    );
    expect((await ops("refunds:list", "--state", "refunded")).out).not.toMatch(new RegExp(`^${refundId} `, "m"));
    expect((await ops("refunds:list")).out).toMatch(new RegExp(`^${refundId} `, "m"));
    expect(await ops("refunds:list", "--state", "dibatalkan")).toMatchObject({ code: 2, err: expect.stringContaining("usage:") });
  });

  it("refunds:mark-transferred needs the reference and the account's last digits, gives the money back once, and names the CLI in the refund's event", async () => {
    const { refundId } = await transferRefund();
    const id = String(refundId);
    expect((await ops("refunds:mark-transferred", id)).code).toBe(2);
    expect((await ops("refunds:mark-transferred", id, "--account", "6789", "--reference")).code).toBe(2);
    // Without the account it was made to: bad usage, nothing recorded (issue 45 item 6).
    expect((await ops("refunds:mark-transferred", id, "--reference", "TRF-0041")).code).toBe(2);
    expect(await ops("refunds:mark-transferred", id, "--account", "6789", "--reference", " ")).toEqual({
      code: 1,
      out: "",
      err: `refund ${refundId}: ${REFERENCE_REQUIRED}`,
    });
    expect(await ops("refunds:mark-transferred", id, "--account", "67%9", "--reference", "TRF-0041")).toEqual({
      code: 1,
      out: "",
      err: `refund ${refundId}: ${ACCOUNT_DIGITS_INVALID}`,
    });
    // Not the buyer's account (…6789): refused, nothing recorded.
    expect(await ops("refunds:mark-transferred", id, "--account", "1234", "--reference", "TRF-0041")).toEqual({
      code: 1,
      out: "",
      err: `refund ${refundId}: ${ACCOUNT_NOT_MATCHING}`,
    });
    expect(await getRefund(refundId)).toMatchObject({ state: "processing", transferReference: null });
    expect(await ops("refunds:mark-transferred", id, "--account", "6789", "--reference", "TRF", "0042")).toEqual({
      code: 0,
      out: `refund ${refundId}: Dana Telah Dikembalikan, referensi TRF 0042`,
      err: "",
    });
    expect(await getRefund(refundId)).toMatchObject({ state: "refunded", transferReference: "TRF 0042" });
    expect(await lastEvent(refundId)).toMatchObject({ fromState: "processing", toState: "refunded", actor: "ops" });
    // Again: refused, nothing changes.
    const again = await ops("refunds:mark-transferred", id, "--account", "6789", "--reference", "TRF-0043");
    expect(again.code).toBe(1);
    expect(again.err).toMatch(new RegExp(`^refund ${refundId}: Status pengembalian dana tidak dapat diubah`));
    expect(await getRefund(refundId)).toMatchObject({ transferReference: "TRF 0042" });
  });

  it("refunds:mark-transferred after 'Gagal' and the buyer's new account: the old account's digits are refused (issue 45 item 6)", async () => {
    const { buyer, refundId } = await transferRefund();
    const id = String(refundId);
    expect(await ops("refunds:fail", id, "--reason", "Rekening", "tidak", "ditemukan")).toMatchObject({ code: 0 });
    expect(
      await submitRefundAccount(refundId, buyer.id, { bankName: "BRI", accountNumber: "5550001111", accountHolder: "Budi Santoso" }),
    ).toEqual({
      ok: true,
    });
    expect(await ops("refunds:mark-transferred", id, "--account", "6789", "--reference", "TRF-OLD")).toEqual({
      code: 1,
      out: "",
      err: `refund ${refundId}: ${ACCOUNT_NOT_MATCHING}`,
    });
    expect(await getRefund(refundId)).toMatchObject({ state: "processing", transferReference: null, accountNumber: "5550001111" });
    expect(await ops("refunds:mark-transferred", id, "--account", "1111", "--reference", "TRF-NEW")).toMatchObject({ code: 0 });
  });

  it("refunds:fail sends the refund back to the buyer with the reason; refused before the buyer gave an account", async () => {
    const waiting = await transferRefund(false);
    expect((await ops("refunds:fail", String(waiting.refundId), "--reason", "Rekening", "salah")).code).toBe(1);
    expect(await getRefund(waiting.refundId)).toMatchObject({ state: "awaiting-account" });

    const { refundId } = await transferRefund();
    expect((await ops("refunds:fail", String(refundId))).code).toBe(2);
    expect(await ops("refunds:fail", String(refundId), "--reason", "Nama", "pemilik", "tidak", "sesuai")).toEqual({
      code: 0,
      out: `refund ${refundId}: Gagal Diproses`,
      err: "",
    });
    expect(await getRefund(refundId)).toMatchObject({ state: "failed", failureReason: "Nama pemilik tidak sesuai" });
    expect(await lastEvent(refundId)).toMatchObject({ toState: "failed", actor: "ops", note: "Nama pemilik tidak sesuai" });
  });

  it("refunds:gateway refunds a card instalment through the gateway once (the sandbox at once); a transfer refund is refused", async () => {
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "BNI-INSTALLMENT", { tenor: 3 });
    expect(await applyOpsDecision(orderId, "approve-installment", "cli")).toMatchObject({ ok: true, to: 300 });
    expect(await ops("orders:cancel-refund", String(orderId), "Barang", "tidak", "tersedia")).toMatchObject({ code: 0 });
    const [refund] = await listOwnedRefunds(orderId, buyer.id);
    expect(refund).toMatchObject({ method: "gateway", state: "processing" });

    expect(await ops("refunds:gateway", String(refund!.id))).toEqual({
      code: 0,
      out: `refund ${refund!.id}: Dana Telah Dikembalikan`,
      err: "",
    });
    expect(await ops("refunds:gateway", String(refund!.id))).toEqual({
      code: 0,
      out: `refund ${refund!.id}: sudah dikembalikan sebelumnya`,
      err: "",
    });
    expect(await lastEvent(refund!.id)).toMatchObject({ fromState: "processing", toState: "refunded", actor: "ops" });
    const db = await getDb();
    const refunded = await db.select().from(refundEvents).where(eq(refundEvents.refundId, refund!.id));
    expect(refunded.filter((e) => e.toState === "refunded")).toHaveLength(1);

    const { refundId } = await transferRefund();
    expect((await ops("refunds:gateway", String(refundId))).code).toBe(1);
    expect(await ops("refunds:gateway", "abc")).toMatchObject({ code: 2 });
    expect(await ops("refunds:gateway", "999999999")).toEqual({
      code: 1,
      out: "",
      err: "refund 999999999: Pengembalian dana tidak ditemukan.",
    });
  });
});
