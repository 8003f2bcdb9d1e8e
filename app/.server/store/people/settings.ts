import { asc, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { companies } from "../../db/schema";
import { readSetting, writeSetting, type HelpContacts } from "../../db/settings";
import { recordAudit } from "./operators";

// The people domain's settings in /ops/settings (issue 27): the companies list (add, rename, hide;
// a hidden company is not offered at registration, its accounts and roster stay) and the contact
// numbers of the profile's 'Bantuan'.

export type { HelpContacts };
type Saved = { ok: true } | { ok: false; errors: Record<string, string> };

export async function getHelpContacts(): Promise<HelpContacts> {
  return readSetting(await getDb(), "help-contacts");
}

const PHONE = /^\+?[\d\s-]{8,20}$/;

/** 'Simpan Kontak': the phone and the WhatsApp number of 'Bantuan'. */
export async function saveHelpContacts(operatorId: number, input: HelpContacts): Promise<Saved> {
  const value = { phone: input.phone.trim(), whatsapp: input.whatsapp.trim() };
  const errors: Record<string, string> = {};
  if (!PHONE.test(value.phone)) errors.phone = "Nomor telepon harus 8–20 angka (boleh diawali +).";
  if (!PHONE.test(value.whatsapp)) errors.whatsapp = "Nomor WhatsApp harus 8–20 angka (boleh diawali +).";
  if (Object.keys(errors).length) return { ok: false, errors };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "help-contacts", value, `operator:${operatorId}`);
    await recordAudit(tx, operatorId, "settings", { detail: `kontak bantuan: ${value.phone} / ${value.whatsapp}` });
  });
  return { ok: true };
}

/** Every company, hidden ones too, for the settings page. */
export async function listAllCompanies() {
  const db = await getDb();
  return db.select({ id: companies.id, name: companies.name, hidden: companies.hidden }).from(companies).orderBy(asc(companies.id));
}

function companyNameProblem(name: string): string | null {
  if (!name) return "Nama perusahaan tidak boleh kosong.";
  if (name.length > 120) return "Nama perusahaan maksimal 120 karakter.";
  if (/^[=+\-@]/.test(name)) return "Nama perusahaan tidak boleh diawali =, +, - atau @.";
  return null;
}

async function nameTaken(name: string, exceptId?: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(sql`lower(${companies.name})`, name.toLowerCase()));
  return !!row && row.id !== exceptId;
}

/** 'Tambah Perusahaan'. */
export async function addCompany(operatorId: number, rawName: string): Promise<Saved> {
  const name = rawName.trim().replace(/\s+/g, " ");
  const problem = companyNameProblem(name) ?? ((await nameTaken(name)) ? "Perusahaan dengan nama ini sudah ada." : null);
  if (problem) return { ok: false, errors: { name: problem } };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.insert(companies).values({ name });
    await recordAudit(tx, operatorId, "settings", { detail: `perusahaan ditambah: ${name}` });
  });
  return { ok: true };
}

/** 'Simpan' on a company: its name and whether it is hidden. */
export async function updateCompany(operatorId: number, id: number, input: { name: string; hidden: boolean }): Promise<Saved> {
  const name = input.name.trim().replace(/\s+/g, " ");
  const problem = companyNameProblem(name) ?? ((await nameTaken(name, id)) ? "Perusahaan dengan nama ini sudah ada." : null);
  if (problem) return { ok: false, errors: { [`company-${id}`]: problem } };
  const db = await getDb();
  const done = await db.transaction(async (tx) => {
    const [before] = await tx.select({ name: companies.name, hidden: companies.hidden }).from(companies).where(eq(companies.id, id));
    if (!before) return false;
    await tx.update(companies).set({ name, hidden: input.hidden }).where(eq(companies.id, id));
    await recordAudit(tx, operatorId, "settings", {
      detail: `perusahaan ${id}: "${before.name}" → "${name}"${input.hidden ? ", disembunyikan" : ""}`,
    });
    return true;
  });
  return done ? { ok: true } : { ok: false, errors: { form: "Perusahaan tidak ditemukan." } };
}
