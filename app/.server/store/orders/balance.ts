import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { balanceEntries, users } from "../../db/schema";
import { formatRupiah } from "~/lib/money";
import type { Executor } from "../../db/client";

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

/** Decision 0030: 1% of the order amount, rounded down to whole rupiah, at most Rp500.000. */
export const REWARD_PERCENT = 1;
export const REWARD_CAP = 500_000;
export const REWARD_TITLE = "Reward Pembelian";
export const WITHDRAWAL_TITLE = "Penarikan Saldo";

export const USER_NOT_FOUND = "Pengguna dengan e-mail tersebut tidak ditemukan.";
export const INVALID_AMOUNT = "Jumlah penarikan harus bilangan bulat lebih dari 0.";
export const INSUFFICIENT_BALANCE = "Saldo tidak mencukupi.";
export const WITHDRAWAL_NOT_FOUND = "Penarikan tidak ditemukan.";
export const WITHDRAWAL_SETTLED = "Penarikan sudah diselesaikan sebelumnya.";

const MAX_INT = 2_147_483_647;
const isPositiveInt = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= MAX_INT;

/** The reward rule (reference data, decision 0030): null when the order earns nothing. */
export function rewardFor(order: { amount: number }): Reward | null {
  if (!Number.isFinite(order.amount) || order.amount <= 0) return null;
  const amount = Math.min(REWARD_CAP, Math.floor((order.amount * REWARD_PERCENT) / 100));
  if (amount < 1) return null;
  return {
    title: REWARD_TITLE,
    description: `Reward ${REWARD_PERCENT}% dari pembelian senilai ${formatRupiah(order.amount)}`,
    amount,
  };
}

/**
 * Credits the reward of a finished order ONCE, inside the caller's transaction (8b's
 * confirmDelivery). The unique order_id makes a second call (a double submit, a retry) a no-op that
 * returns null; the first call returns the Reward.
 */
export async function creditOrderReward(tx: Executor, orderId: number, userId: number, amount: number): Promise<Reward | null> {
  const reward = rewardFor({ amount });
  if (!reward) return null;
  const inserted = await tx
    .insert(balanceEntries)
    .values({ userId, kind: "credit", title: reward.title, description: reward.description, amount: reward.amount, orderId })
    .onConflictDoNothing({ target: balanceEntries.orderId })
    .returning({ id: balanceEntries.id });
  return inserted.length > 0 ? reward : null;
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
