import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import {
  BUILT_IN_REWARD_RULE,
  creditOrderReward,
  getBalance,
  INSUFFICIENT_BALANCE,
  listBalanceHistory,
  requestWithdrawal,
  rewardFor,
  settleWithdrawal,
  USER_NOT_FOUND,
  WITHDRAWAL_NOT_FOUND,
  WITHDRAWAL_SETTLED,
} from "./balance";
import { createOrderInStatus } from "../../testing/order-fixtures";

// Opening the file's database (migrations, reference data) is slow: not inside a test's time limit.
beforeAll(async () => {
  await getDb();
}, 300_000);

async function userWithReward(orderAmount = 10_000_000) {
  const db = await getDb();
  const { orderId, user } = await createOrderInStatus(db, 400);
  const reward = await db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: orderAmount, rule: BUILT_IN_REWARD_RULE }));
  return { user, orderId, reward };
}

describe("reward rule (decision 0030)", () => {
  it("is 1% of the order amount, rounded down, capped at Rp500.000, nothing for tiny or invalid amounts", () => {
    expect(rewardFor({ amount: 28_500_000, rule: BUILT_IN_REWARD_RULE })).toEqual({
      title: "Reward Pembelian",
      description: "Reward 1% dari pembelian senilai Rp28.500.000",
      amount: 285_000,
    });
    expect(rewardFor({ amount: 12_345, rule: BUILT_IN_REWARD_RULE })?.amount).toBe(123);
    expect(rewardFor({ amount: 900_000_000, rule: BUILT_IN_REWARD_RULE })?.amount).toBe(500_000);
    expect(rewardFor({ amount: 99, rule: BUILT_IN_REWARD_RULE })).toBeNull();
    expect(rewardFor({ amount: 0, rule: BUILT_IN_REWARD_RULE })).toBeNull();
    expect(rewardFor({ amount: -5_000_000, rule: BUILT_IN_REWARD_RULE })).toBeNull();
    expect(rewardFor({ amount: Number.NaN, rule: BUILT_IN_REWARD_RULE })).toBeNull();
  });
});

describe("creditOrderReward", () => {
  it("credits a finished order's reward exactly once, even when two confirmations race", async () => {
    const db = await getDb();
    const { orderId, user } = await createOrderInStatus(db, 400);
    const results = await Promise.all([
      db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: 28_500_000, rule: BUILT_IN_REWARD_RULE })),
      db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: 28_500_000, rule: BUILT_IN_REWARD_RULE })),
    ]);
    expect(results.filter(Boolean)).toEqual([
      { title: "Reward Pembelian", description: "Reward 1% dari pembelian senilai Rp28.500.000", amount: 285_000 },
    ]);
    expect(
      await db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: 28_500_000, rule: BUILT_IN_REWARD_RULE })),
    ).toBeNull();
    expect(await getBalance(user.id)).toBe(285_000);
    expect(await listBalanceHistory(user.id)).toMatchObject([{ kind: "credit", amount: 285_000, status: null, title: "Reward Pembelian" }]);
  });

  it("is undone with the transaction it runs in (the confirmation failed: no reward)", async () => {
    const db = await getDb();
    const { orderId, user } = await createOrderInStatus(db, 400);
    await expect(
      db.transaction(async (tx) => {
        await creditOrderReward(tx, orderId, user.id, { amount: 28_500_000, rule: BUILT_IN_REWARD_RULE });
        throw new Error("confirmation failed after the credit");
      }),
    ).rejects.toThrow("confirmation failed");
    expect(await getBalance(user.id)).toBe(0);
  });
});

describe("withdrawals", () => {
  it("never take the balance below zero, also when five are requested at once", async () => {
    const { user } = await userWithReward(10_000_000); // Rp100.000
    const results = await Promise.all(Array.from({ length: 5 }, () => requestWithdrawal(user.email, 30_000)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r).toEqual({ ok: false, message: `${INSUFFICIENT_BALANCE} Saldo saat ini Rp10.000.` });
    expect(await getBalance(user.id)).toBe(10_000);
    expect(await requestWithdrawal(user.email, 10_001)).toMatchObject({ ok: false });
    expect(await requestWithdrawal(user.email.toUpperCase(), 10_000)).toMatchObject({ ok: true });
    expect(await getBalance(user.id)).toBe(0);
  });

  it("refuses unknown e-mails and amounts that are not positive whole rupiah", async () => {
    const { user } = await userWithReward();
    expect(await requestWithdrawal("nobody@example.test", 1_000)).toEqual({ ok: false, message: USER_NOT_FOUND });
    for (const amount of [0, -1, 1.5, Number.NaN, 2 ** 40]) expect((await requestWithdrawal(user.email, amount)).ok).toBe(false);
    expect(await getBalance(user.id)).toBe(100_000);
  });

  it("settle once: 'Berhasil' keeps the amount out, 'Dibatalkan' gives it back; history newest first", async () => {
    const { user } = await userWithReward(); // Rp100.000
    const first = await requestWithdrawal(user.email, 40_000);
    const second = await requestWithdrawal(user.email, 25_000);
    if (!first.ok || !second.ok) throw new Error("withdrawals refused");
    expect(await getBalance(user.id)).toBe(35_000);

    expect(await settleWithdrawal(first.id, "ok")).toEqual({ ok: true });
    expect(await settleWithdrawal(second.id, "cancel")).toEqual({ ok: true });
    expect(await getBalance(user.id)).toBe(60_000);

    // Settled withdrawals stay as they are.
    expect(await settleWithdrawal(first.id, "cancel")).toEqual({ ok: false, message: `${WITHDRAWAL_SETTLED} (Berhasil)` });
    expect(await settleWithdrawal(second.id, "ok")).toEqual({ ok: false, message: `${WITHDRAWAL_SETTLED} (Dibatalkan)` });
    expect(await getBalance(user.id)).toBe(60_000);
    expect(await settleWithdrawal(999_999, "ok")).toEqual({ ok: false, message: WITHDRAWAL_NOT_FOUND });

    const history = await listBalanceHistory(user.id);
    expect(history.map((h) => [h.kind, h.amount, h.status])).toEqual([
      ["withdrawal", 25_000, "Dibatalkan"],
      ["withdrawal", 40_000, "Berhasil"],
      ["credit", 100_000, null],
    ]);
  });

  it("a reward's ledger row cannot be settled as if it were a withdrawal", async () => {
    const { user } = await userWithReward();
    const [credit] = await listBalanceHistory(user.id);
    expect(await settleWithdrawal(credit!.id, "cancel")).toEqual({ ok: false, message: WITHDRAWAL_NOT_FOUND });
    expect(await getBalance(user.id)).toBe(100_000);
  });
});
