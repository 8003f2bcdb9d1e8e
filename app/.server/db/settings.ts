import { eq } from "drizzle-orm";
import { env } from "../env";
import { TENORS, VA_DISCOUNT_PERCENT, type TenorSetting } from "~/lib/payment-pricing";
import { MANUAL_TRANSFER_ACCOUNT, type PaymentChannel } from "~/lib/payment-channels";
import { DEFAULT_KTP_RETENTION_DAYS } from "~/lib/privacy";
import { storeSettings } from "./schema";
import type { Executor } from "./types";

// The store's settings an admin edits in /ops/settings (issue 27): one JSON value per key in
// store_settings, seeded with the values the code had before (reference data, so every database has
// them). The domains read them here and own their rules: payments (the transfer account, tenors,
// how-to texts), people (the help contacts); companies and payment methods are tables of their own.

export type TransferAccount = { bankName: string; accountName: string; accountNumber: string };
export type HelpContacts = { phone: string; whatsapp: string };
/** The virtual accounts' cash discount (spec: '-3% Diskon Pembelian Tunai'): a percentage of the goods amount, or off. */
export type CashDiscount = { enabled: boolean; percent: number };
/** The reward a finished order credits as withdrawable balance (decision 0030): a percentage, at most `cap` rupiah, or off. */
export type OrderReward = { enabled: boolean; percent: number; cap: number };
/** Per payment method code and channel (ATM, Mobile Banking, Internet Banking), the admin's how-to-pay HTML; a channel without one shows the built-in text. */
export type HowToTexts = Record<string, Partial<Record<PaymentChannel, string>>>;

export type StoreSettingValues = {
  "transfer-account": TransferAccount;
  tenors: TenorSetting[];
  "help-contacts": HelpContacts;
  "how-to": HowToTexts;
  /** Days a KTP photo is kept after the incentive decision once its order is closed (issue 35, store/privacy/retention.ts). */
  "ktp-retention-days": number;
  "cash-discount": CashDiscount;
  "order-reward": OrderReward;
  /**
   * Not an admin's: the start-up's marker that every NIK sealed under the old constant 'nik' was
   * re-sealed bound to its row (issue 45 item 13, store/privacy/nik-binding.ts), so later starts skip it.
   */
  "nik-bound-to-rows": boolean;
};
export type StoreSettingKey = keyof StoreSettingValues;

/**
 * The built-in values: today's constants, and for the help contacts ADMIN_PHONE (read when no admin
 * has saved them, so a deployment's ADMIN_PHONE keeps working until someone edits them).
 */
function defaultSetting<K extends StoreSettingKey>(key: K): StoreSettingValues[K] {
  const defaults: StoreSettingValues = {
    "transfer-account": {
      bankName: MANUAL_TRANSFER_ACCOUNT.bankName,
      accountName: MANUAL_TRANSFER_ACCOUNT.bankAccountName,
      accountNumber: MANUAL_TRANSFER_ACCOUNT.bankAccountNumber,
    },
    tenors: TENORS.map((t) => ({ ...t })),
    "help-contacts": { phone: env().adminPhone, whatsapp: env().adminPhone },
    "how-to": {},
    "ktp-retention-days": DEFAULT_KTP_RETENTION_DAYS,
    "cash-discount": { enabled: true, percent: VA_DISCOUNT_PERCENT },
    "order-reward": { enabled: true, percent: 1, cap: 500_000 },
    "nik-bound-to-rows": false,
  };
  return defaults[key];
}

const SEEDED: StoreSettingKey[] = ["transfer-account", "tenors", "how-to"];

/** Inserts the seeded keys a database lacks (reference data, every start); never overwrites an admin's value. */
export async function seedSettings(db: Executor): Promise<void> {
  await db
    .insert(storeSettings)
    .values(SEEDED.map((key) => ({ key, value: defaultSetting(key), updatedBy: "seed" })))
    .onConflictDoNothing();
}

export async function readSetting<K extends StoreSettingKey>(db: Executor, key: K): Promise<StoreSettingValues[K]> {
  const [row] = await db.select({ value: storeSettings.value }).from(storeSettings).where(eq(storeSettings.key, key));
  return (row?.value as StoreSettingValues[K] | undefined) ?? defaultSetting(key);
}

/**
 * Whether an admin (or a script) ever saved the key: the seeded transfer account is a placeholder
 * (demo data), which production does not offer to buyers until an admin sets the real one.
 */
export async function settingSavedByOperator(db: Executor, key: StoreSettingKey): Promise<boolean> {
  const [row] = await db.select({ updatedBy: storeSettings.updatedBy }).from(storeSettings).where(eq(storeSettings.key, key));
  return !!row && row.updatedBy !== "seed";
}

export async function writeSetting<K extends StoreSettingKey>(
  db: Executor,
  key: K,
  value: StoreSettingValues[K],
  actor: string,
): Promise<void> {
  await db
    .insert(storeSettings)
    .values({ key, value, updatedBy: actor, updatedAt: new Date() })
    .onConflictDoUpdate({ target: storeSettings.key, set: { value, updatedBy: actor, updatedAt: new Date() } });
}
