import { asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { paymentMethods } from "../../db/schema";
import {
  readSetting,
  settingSavedByOperator,
  writeSetting,
  type CashDiscount,
  type HowToTexts,
  type TransferAccount,
} from "../../db/settings";
import { env } from "../../env";
import type { PaymentChannel } from "../../gateway";
import { formatPercent, type TenorSetting } from "~/lib/payment-pricing";
import { recordAudit } from "../people";
import { sanitizeHtml } from "./sanitize-html";
import { transferBankOf } from "./transfer-bank";

// The payment settings an admin changes in /ops/settings (issue 27): the manual-transfer account,
// each method on/off and its fee, the instalment tenors and interest, each method's how-to texts.
// They apply to payments opened afterwards: an open payment keeps the account it showed
// (payments.transfer_account) and the fee and total it was opened with.

export type { CashDiscount, HowToTexts, TransferAccount };
export type FieldErrors = Record<string, string>;
type Saved = { ok: true } | { ok: false; errors: FieldErrors };

export async function getTransferAccount(db?: Executor): Promise<TransferAccount> {
  return readSetting(db ?? (await getDb()), "transfer-account");
}

/**
 * Whether buyers are offered the manual transfer: in production only once an admin saved the
 * store's real account (the seeded BNI 0987654321 is demo data, issue 38); with the demo data, in
 * development and in tests the seeded account serves.
 */
export async function manualTransferReady(db?: Executor): Promise<boolean> {
  const e = env();
  if (!e.isProduction || e.demoData) return true;
  return settingSavedByOperator(db ?? (await getDb()), "transfer-account");
}

/** The VA cash discount new payments get: its percentage, 0 when the admin turned it off. */
export async function getCashDiscount(db?: Executor): Promise<CashDiscount> {
  return readSetting(db ?? (await getDb()), "cash-discount");
}

export async function vaDiscountPercent(db?: Executor): Promise<number> {
  const setting = await getCashDiscount(db);
  return setting.enabled ? setting.percent : 0;
}

/** A percentage typed by an admin: 0–`max`, at most two decimals, comma or point ("2,5"). */
export function parsePercent(text: string, max: number): number | null {
  const trimmed = text.trim().replace(",", ".");
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 0 && value <= max ? value : null;
}

/** 'Simpan Diskon': the VA cash discount on/off and its percentage (0–50); new payments only. */
export async function saveCashDiscount(operatorId: number, input: { enabled: boolean; percent: string }): Promise<Saved> {
  const percent = parsePercent(input.percent, 50);
  if (percent === null) return { ok: false, errors: { percent: "Persentase diskon harus angka 0 sampai 50 (misalnya 3 atau 2,5)." } };
  const value: CashDiscount = { enabled: input.enabled, percent };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "cash-discount", value, `operator:${operatorId}`);
    await recordAudit(tx, operatorId, "settings", {
      detail: `diskon tunai VA: ${value.enabled ? `${formatPercent(value.percent)}%` : "nonaktif"}`,
    });
  });
  return { ok: true };
}

export async function getTenorSettings(db?: Executor): Promise<TenorSetting[]> {
  return readSetting(db ?? (await getDb()), "tenors");
}

export async function getHowToTexts(db?: Executor): Promise<HowToTexts> {
  return readSetting(db ?? (await getDb()), "how-to");
}

/** Every method, active or not, for the settings page. */
export async function listMethodSettings() {
  const db = await getDb();
  return db
    .select({
      id: paymentMethods.id,
      code: paymentMethods.code,
      name: paymentMethods.name,
      type: paymentMethods.type,
      fee: paymentMethods.fee,
      active: paymentMethods.active,
    })
    .from(paymentMethods)
    .orderBy(asc(paymentMethods.position), asc(paymentMethods.id));
}

const looksLikeFormula = (value: string) => /^[=+\-@]/.test(value);

/** 'Simpan Rekening': bank, 'Nama Pemilik Rekening', 'Nomor Rekening' (digits, 6–20). */
export async function saveTransferAccount(operatorId: number, input: TransferAccount): Promise<Saved> {
  const value = {
    bankName: input.bankName.trim(),
    accountName: input.accountName.trim(),
    accountNumber: input.accountNumber.replace(/[\s.-]/g, ""),
  };
  const errors: FieldErrors = {};
  if (!value.bankName) errors.bankName = "Nama bank tidak boleh kosong.";
  else if (value.bankName.length > 100 || looksLikeFormula(value.bankName)) errors.bankName = "Nama bank tidak valid.";
  if (!value.accountName) errors.accountName = "Nama Pemilik Rekening tidak boleh kosong.";
  else if (value.accountName.length > 100 || looksLikeFormula(value.accountName)) errors.accountName = "Nama Pemilik Rekening tidak valid.";
  if (!value.accountNumber) errors.accountNumber = "Nomor Rekening tidak boleh kosong.";
  else if (!/^\d{6,20}$/.test(value.accountNumber)) errors.accountNumber = "Nomor Rekening harus 6–20 angka.";
  if (Object.keys(errors).length) return { ok: false, errors };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "transfer-account", value, `operator:${operatorId}`);
    // The method's name and logo follow the bank ('Transfer Bank Mandiri (Manual)'), for new choices and lists.
    const bank = transferBankOf(value.bankName);
    await tx
      .update(paymentMethods)
      .set({ name: bank.methodName, ...(bank.logo ? { imageUrl: bank.logo } : {}) })
      .where(eq(paymentMethods.type, "bank_transfer"));
    await recordAudit(tx, operatorId, "settings", {
      detail: `rekening transfer: ${value.bankName} ${value.accountNumber} a.n. ${value.accountName}`,
    });
  });
  return { ok: true };
}

const MAX_FEE = 1_000_000;

/** 'Simpan Metode': per method, on/off and its fee (whole rupiah, 0–1.000.000); at least one stays on. */
export async function saveMethodSettings(operatorId: number, input: { id: number; active: boolean; fee: string }[]): Promise<Saved> {
  const db = await getDb();
  const known = await listMethodSettings();
  const errors: FieldErrors = {};
  const changes: { id: number; active: boolean; fee: number }[] = [];
  for (const method of known) {
    const posted = input.find((m) => m.id === method.id);
    if (!posted) continue;
    const fee = posted.fee.replace(/[.\s]/g, "");
    if (!/^\d{1,7}$/.test(fee) || Number(fee) > MAX_FEE) errors[`fee-${method.id}`] = "Biaya harus angka 0 sampai 1.000.000.";
    else changes.push({ id: method.id, active: posted.active, fee: Number(fee) });
  }
  if (!Object.keys(errors).length && changes.length === known.length && changes.every((c) => !c.active))
    errors.form = "Minimal satu metode pembayaran harus aktif.";
  if (Object.keys(errors).length) return { ok: false, errors };
  await db.transaction(async (tx) => {
    for (const change of changes)
      await tx.update(paymentMethods).set({ active: change.active, fee: change.fee }).where(eq(paymentMethods.id, change.id));
    await recordAudit(tx, operatorId, "settings", {
      detail: `metode: ${changes.map((c) => `${c.id}=${c.active ? "aktif" : "nonaktif"}/${c.fee}`).join(", ")}`,
    });
  });
  return { ok: true };
}

/**
 * 'Simpan Tenor': one row per tenor, the months and the interest in two fields (issue 43: one
 * 'bulan,bunga' field read '6,3' as 6.3 in Indonesian, under a field where '2,5' is a decimal). The
 * interest takes a decimal comma or point; a row with both fields empty is skipped; a wrong row is
 * refused with its number under `tenors`, and its field's message under `tenor-<i>` or `interest-<i>`.
 */
export async function saveTenorSettings(operatorId: number, rows: { tenor: string; interest: string }[]): Promise<Saved> {
  const tenors: TenorSetting[] = [];
  for (const [i, row] of rows.entries()) {
    const monthsText = row.tenor.trim();
    const interestText = row.interest.trim().replace(/\s*%$/, "");
    if (!monthsText && !interestText) continue;
    const refuse = (field: "tenor" | "interest", message: string): Saved => ({
      ok: false,
      errors: { tenors: `Baris ${i + 1}: ${message}`, [`${field}-${i}`]: message },
    });
    const tenor = /^\d{1,2}$/.test(monthsText) ? Number(monthsText) : NaN;
    if (!(tenor >= 1 && tenor <= 60)) return refuse("tenor", "Tenor harus 1–60 bulan.");
    const interest = /^\d{1,3}(?:[.,]\d{1,2})?$/.test(interestText) ? Number(interestText.replace(",", ".")) : NaN;
    if (!(interest >= 0 && interest <= 100)) return refuse("interest", "Bunga harus 0–100%, misalnya 2,5.");
    if (tenors.some((t) => t.tenor === tenor)) return refuse("tenor", `Tenor ${tenor} bulan sudah ada.`);
    tenors.push({ tenor, interestPercentage: interest });
  }
  if (tenors.length === 0) return { ok: false, errors: { tenors: "Minimal satu tenor." } };
  tenors.sort((a, b) => a.tenor - b.tenor);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "tenors", tenors, `operator:${operatorId}`);
    await recordAudit(tx, operatorId, "settings", {
      detail: `tenor: ${tenors.map((t) => `${t.tenor}x ${t.interestPercentage}%`).join(", ")}`,
    });
  });
  return { ok: true };
}

const HOW_TO_MAX = 20_000;
export const HOW_TO_CHANNELS: PaymentChannel[] = ["ATM", "Mobile Banking", "Internet Banking"];

/** 'Simpan Cara Bayar': per method code and channel, sanitised HTML (empty: the built-in text). Input keys: `CODE|channel`. */
export async function saveHowToTexts(operatorId: number, input: Record<string, string>): Promise<Saved> {
  const codes = new Set((await listMethodSettings()).map((m) => m.code));
  const errors: FieldErrors = {};
  const texts: HowToTexts = {};
  for (const [key, html] of Object.entries(input)) {
    const [code = "", channel] = key.split("|") as [string, PaymentChannel];
    if (!codes.has(code) || !HOW_TO_CHANNELS.includes(channel)) continue;
    if (html.length > HOW_TO_MAX) errors[`howto-${key}`] = "Teks terlalu panjang (maksimal 20.000 karakter).";
    else if (html.trim()) texts[code] = { ...texts[code], [channel]: sanitizeHtml(html.trim()) };
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "how-to", texts, `operator:${operatorId}`);
    await recordAudit(tx, operatorId, "settings", { detail: `cara bayar: ${Object.keys(texts).join(", ") || "bawaan"}` });
  });
  return { ok: true };
}
