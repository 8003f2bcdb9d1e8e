import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { countRateLimited } from "../../metrics";

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };

/** Limits of DESIGN §9; keyed by client address and, where it makes sense, by the e-mail asked for. */
export const RATE_LIMITS = {
  login: { name: "login", limit: 10, windowSeconds: 15 * 60 },
  // Failed logins per address over all e-mails: one password sprayed over many accounts. Generous,
  // as a whole office may sign in from one NAT address.
  loginFailures: { name: "login-failed", limit: 50, windowSeconds: 15 * 60 },
  // Per address: a whole office may register from one NAT address on its first day.
  register: { name: "register", limit: 20, windowSeconds: 60 * 60 },
  resend: { name: "resend", limit: 3, windowSeconds: 60 * 60 },
  forgotPassword: { name: "forgot", limit: 5, windowSeconds: 60 * 60 },
  // Mail a client address may have sent (forgot-password and activation together, whatever the
  // e-mail or account): one address cannot queue mail for 60 e-mails (issue 35). An office's NAT
  // address still leaves room for a morning's real requests.
  mailPerAddress: { name: "mail-address", limit: 20, windowSeconds: 60 * 60 },
  otp: { name: "otp", limit: 5, windowSeconds: 15 * 60 },
  // One-time code SMS (issue 35: SMS pumping): paid traffic, so capped per account, per client
  // address and for the whole store, every hour. A buyer needs one or two codes per order.
  otpSmsAccount: { name: "otp-sms-account", limit: 5, windowSeconds: 60 * 60 },
  otpSmsAddress: { name: "otp-sms-address", limit: 10, windowSeconds: 60 * 60 },
  otpSmsGlobal: { name: "otp-sms-all", limit: 500, windowSeconds: 60 * 60 },
  // An operator's wrong second-factor codes (issue 25; store/people/operators.ts): per account from
  // all addresses, and per account and address.
  secondFactor: { name: "2fa", limit: 10, windowSeconds: 15 * 60 },
  secondFactorAddress: { name: "2fa-address", limit: 5, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

/**
 * Counts one attempt against a fixed window stored in the database (so the limit holds across
 * instances) and tells whether it is allowed. One statement: concurrent attempts cannot both slip in.
 */
export async function hitRateLimit(rule: RateLimitRule, subject: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const db = await getDb();
  const key = `${rule.name}:${subject.toLowerCase().slice(0, 200)}`;
  const window = `${rule.windowSeconds} seconds`;
  const [row] = await queryRows<{ count: number; retry_after: number }>(
    db,
    sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - ${window}::interval then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - ${window}::interval then now() else rate_limits.window_start end
    returning count, extract(epoch from (window_start + ${window}::interval - now()))::int as retry_after`,
  );
  const allowed = Number(row.count) <= rule.limit;
  if (!allowed) countRateLimited(rule.name);
  return { allowed, retryAfterSeconds: Math.max(1, Number(row.retry_after)) };
}

/**
 * A request that queues mail (forgot-password, activation): counted per client address over every
 * e-mail (RATE_LIMITS.mailPerAddress), then by its own rule for this address and e-mail/account.
 */
export async function hitMailRateLimit(rule: RateLimitRule, address: string, subject: string) {
  const perAddress = await hitRateLimit(RATE_LIMITS.mailPerAddress, address);
  if (!perAddress.allowed) return perAddress;
  return hitRateLimit(rule, `${address}|${subject}`);
}

/** Whether a subject is over its limit now, without counting an attempt (for limits on failures only). */
export async function checkRateLimit(rule: RateLimitRule, subject: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const db = await getDb();
  const key = `${rule.name}:${subject.toLowerCase().slice(0, 200)}`;
  const window = `${rule.windowSeconds} seconds`;
  const [row] = await queryRows<{ count: number; retry_after: number }>(
    db,
    sql`
    select count, extract(epoch from (window_start + ${window}::interval - now()))::int as retry_after
    from rate_limits where key = ${key} and window_start >= now() - ${window}::interval`,
  );
  if (!row) return { allowed: true, retryAfterSeconds: 0 };
  const allowed = Number(row.count) < rule.limit;
  if (!allowed) countRateLimited(rule.name);
  return { allowed, retryAfterSeconds: Math.max(1, Number(row.retry_after)) };
}

/** Clears a subject's counter (e.g. after a successful login). */
export async function resetRateLimit(rule: RateLimitRule, subject: string) {
  const db = await getDb();
  await db.execute(sql`delete from rate_limits where key = ${`${rule.name}:${subject.toLowerCase().slice(0, 200)}`}`);
}

/** Takes back one counted attempt that turned out legitimate (never below zero; a missing or old window is left alone). */
export async function giveBackRateLimitHit(rule: RateLimitRule, subject: string) {
  const db = await getDb();
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0)
    where key = ${`${rule.name}:${subject.toLowerCase().slice(0, 200)}`} and window_start >= now() - ${`${rule.windowSeconds} seconds`}::interval`);
}
