import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { balanceEntries, users } from "../../db/schema";
import { formatRupiah } from "~/lib/money";
import type { Executor } from "../../db/client";
import { readSetting, writeSetting, type OrderReward } from "../../db/settings";
import { formatPercent } from "~/lib/payment-pricing";
import { recordAudit } from "../people";

// The buyer's balance (spec §3 balance history, decision 0030): a ledger of reward credits and
// withdrawals. The balance is computed from the rows; a withdrawal is only inserted while the
// user's row is locked, so two withdrawals racing cannot together take the balance below zero.

export type BalanceStatus = "Dalam Proses" | "Berhasil" | "Dibatalkan";
export type BalanceItem = {
  id: number;
  title: string;
  description: string;
  amount: number;
  kind: "credit" | "withdrawal";
  status: BalanceStatus | null;
  createdAt: Date;
};
export type Reward = { title: string; description: string; amount: number };

/**
 * Decision 0030: 1% of the order amount, rounded down to whole rupiah, at most Rp500.000 — the
 * built-in rule; an admin changes it in /ops/settings (issue 38), and each order keeps the rule of
 * the moment it was made (orders.reward_percent, reward_cap).
 */
export const REWARD_PERCENT = 1;
export const REWARD_CAP = 500_000;
export type RewardRule = { percent: number; cap: number };
export const BUILT_IN_REWARD_RULE: RewardRule = { percent: REWARD_PERCENT, cap: REWARD_CAP };
export const REWARD_TITLE = "Reward Pembelian";
export const WITHDRAWAL_TITLE = "Penarikan Saldo";

export const USER_NOT_FOUND = "Pengguna dengan e-mail tersebut tidak ditemukan.";
export const INVALID_AMOUNT = "Jumlah penarikan harus bilangan bulat lebih dari 0.";
export const INSUFFICIENT_BALANCE = "Saldo tidak mencukupi.";
export const WITHDRAWAL_NOT_FOUND = "Penarikan tidak ditemukan.";
export const WITHDRAWAL_SETTLED = "Penarikan sudah diselesaikan sebelumnya.";

const MAX_INT = 2_147_483_647;
const isPositiveInt = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= MAX_INT;

/** The reward of an order under its rule (null rule: the reward was off when it was made); null when it earns nothing. */
export function rewardFor(order: { amount: number; rule: RewardRule | null }): Reward | null {
  const { rule } = order;
  if (!rule || !Number.isFinite(order.amount) || order.amount <= 0) return null;
  const amount = Math.min(rule.cap, Math.floor((order.amount * rule.percent) / 100));
  if (amount < 1) return null;
  return {
    title: REWARD_TITLE,
    description: `Reward ${formatPercent(rule.percent)}% dari pembelian senilai ${formatRupiah(order.amount)}`,
    amount,
  };
}

/** The order's rule as its columns hold it. */
export function rewardRuleOf(order: { rewardPercent: number | null; rewardCap: number | null }): RewardRule | null {
  return order.rewardPercent === null ? null : { percent: order.rewardPercent, cap: order.rewardCap ?? REWARD_CAP };
}

export async function getOrderRewardSetting(db?: Executor): Promise<OrderReward> {
  return readSetting(db ?? (await getDb()), "order-reward");
}

/** The rule a new order gets (written on it when it is made): null while the admin has the reward off. */
export async function currentRewardRule(db: Executor): Promise<RewardRule | null> {
  const setting = await getOrderRewardSetting(db);
  return setting.enabled ? { percent: setting.percent, cap: setting.cap } : null;
}

/** 'Simpan Reward': on/off, the percentage (0–20, two decimals) and the cap (whole rupiah, 0–100.000.000); new orders only. */
export async function saveOrderRewardSetting(
  operatorId: number,
  input: { enabled: boolean; percent: string; cap: string },
): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
  const errors: Record<string, string> = {};
  const percentText = input.percent.trim().replace(",", ".");
  const percent = /^\d{1,2}(\.\d{1,2})?$/.test(percentText) ? Number(percentText) : NaN;
  if (!(percent >= 0 && percent <= 20)) errors.rewardPercent = "Persentase reward harus angka 0 sampai 20 (misalnya 1 atau 0,5).";
  const capText = input.cap.replace(/[.\s]/g, "").replace(/^Rp/i, "");
  const cap = /^\d{1,9}$/.test(capText) ? Number(capText) : NaN;
  if (!(cap >= 0 && cap <= 100_000_000)) errors.rewardCap = "Batas reward harus angka rupiah 0 sampai 100.000.000.";
  if (Object.keys(errors).length) return { ok: false, errors };
  const value: OrderReward = { enabled: input.enabled, percent, cap };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "order-reward", value, `operator:${operatorId}`);
    await recordAudit(tx, operatorId, "settings", {
      detail: `reward pesanan selesai: ${value.enabled ? `${formatPercent(percent)}%, maks ${formatRupiah(cap)}` : "nonaktif"}`,
    });
  });
  return { ok: true };
}

/**
 * Credits the reward of a finished order ONCE, inside the caller's transaction (8b's
 * confirmDelivery). The unique order_id makes a second call (a double submit, a retry) a no-op that
 * returns null; the first call returns the Reward.
 */
export async function creditOrderReward(
  tx: Executor,
  orderId: number,
  userId: number,
  order: { amount: number; rule: RewardRule | null },
): Promise<Reward | null> {
  const reward = rewardFor(order);
  if (!reward) return null;
  const inserted = await tx
    .insert(balanceEntries)
    .values({ userId, kind: "credit", title: reward.title, description: reward.description, amount: reward.amount, orderId })
    .onConflictDoNothing({ target: balanceEntries.orderId })
    .returning({ id: balanceEntries.id });
  return inserted.length > 0 ? reward : null;
}

/** The reward credited for the user's order (the 'Pesanan Selesai!' sheet), or null. */
export async function getCreditedReward(orderId: number, userId: number): Promise<Reward | null> {
  if (!isPositiveInt(orderId) || !isPositiveInt(userId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ title: balanceEntries.title, description: balanceEntries.description, amount: balanceEntries.amount })
    .from(balanceEntries)
    .where(and(eq(balanceEntries.orderId, orderId), eq(balanceEntries.userId, userId), eq(balanceEntries.kind, "credit")));
  return row ?? null;
}

/** The balance expression: credits minus withdrawals that are not cancelled. */
const balanceOf = (userId: number) => sql<number>`coalesce((
  select sum(case when ${balanceEntries.kind} = 'credit' then ${balanceEntries.amount} else -${balanceEntries.amount} end)
  from ${balanceEntries}
  where ${balanceEntries.userId} = ${userId} and (${balanceEntries.status} is null or ${balanceEntries.status} <> 'Dibatalkan')
), 0)::int`;

async function balanceIn(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ balance: balanceOf(userId) })
    .from(users)
    .where(eq(users.id, userId));
  return Number(row?.balance ?? 0);
}

export async function getBalance(userId: number): Promise<number> {
  if (!isPositiveInt(userId)) return 0;
  return balanceIn(await getDb(), userId);
}

/** Newest first (the screens group by date). */
export async function listBalanceHistory(userId: number): Promise<BalanceItem[]> {
  if (!isPositiveInt(userId)) return [];
  const db = await getDb();
  const rows = await db
    .select({
      id: balanceEntries.id,
      title: balanceEntries.title,
      description: balanceEntries.description,
      amount: balanceEntries.amount,
      kind: balanceEntries.kind,
      status: balanceEntries.status,
      createdAt: balanceEntries.createdAt,
    })
    .from(balanceEntries)
    .where(eq(balanceEntries.userId, userId))
    .orderBy(desc(balanceEntries.createdAt), desc(balanceEntries.id));
  return rows;
}

/**
 * Ops: a withdrawal of `amount` from the user's balance, 'Dalam Proses' until settled. The user's
 * row is locked (FOR UPDATE) for the check and the insert, so concurrent withdrawals queue up and
 * each sees the others' rows: the balance never goes below zero.
 */
export async function requestWithdrawal(email: string, amount: number): Promise<{ ok: true; id: number } | { ok: false; message: string }> {
  if (!isPositiveInt(amount)) return { ok: false, message: INVALID_AMOUNT };
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email.trim()})`)
      .for("update");
    if (!user) return { ok: false as const, message: USER_NOT_FOUND };
    const balance = await balanceIn(tx, user.id);
    if (balance < amount) return { ok: false as const, message: `${INSUFFICIENT_BALANCE} Saldo saat ini ${formatRupiah(balance)}.` };
    const [row] = await tx
      .insert(balanceEntries)
      .values({
        userId: user.id,
        kind: "withdrawal",
        title: WITHDRAWAL_TITLE,
        description: "Penarikan saldo ke rekening",
        amount,
        status: "Dalam Proses",
      })
      .returning({ id: balanceEntries.id });
    return { ok: true as const, id: row.id };
  });
}

/** Ops: a withdrawal in process becomes 'Berhasil' (paid out) or 'Dibatalkan' (amount back). Once. */
export async function settleWithdrawal(id: number, outcome: "ok" | "cancel"): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isPositiveInt(id)) return { ok: false, message: WITHDRAWAL_NOT_FOUND };
  const db = await getDb();
  const updated = await db
    .update(balanceEntries)
    .set({ status: outcome === "ok" ? "Berhasil" : "Dibatalkan", settledAt: new Date() })
    .where(and(eq(balanceEntries.id, id), eq(balanceEntries.kind, "withdrawal"), eq(balanceEntries.status, "Dalam Proses")))
    .returning({ id: balanceEntries.id });
  if (updated.length > 0) return { ok: true };
  const [existing] = await db
    .select({ status: balanceEntries.status })
    .from(balanceEntries)
    .where(and(eq(balanceEntries.id, id), eq(balanceEntries.kind, "withdrawal")));
  return { ok: false, message: existing ? `${WITHDRAWAL_SETTLED} (${existing.status})` : WITHDRAWAL_NOT_FOUND };
}
