import { hash } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import type { Db } from "../db/types";
import { companies, users } from "../db/schema";

/** The verified demo account named in the README. */
export const DEMO_ACCOUNT = {
  email: "demo@pln.co.id",
  password: "Demo12345!",
  fullname: "Budi Santoso",
  phoneNo: "081234567890",
  nip: "8610123456",
  companyName: "PT PLN (Persero)",
};

/** Demo data (DEMO_DATA=1). Idempotent: safe at every start. */
export async function seedDemoData(db: Db) {
  await seedDemoAccount(db);
  await (await import("./demo-catalogue")).seedDemoCatalogue(db);
}

async function seedDemoAccount(db: Db) {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO_ACCOUNT.companyName));
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNT.email));
  if (existing) return;
  await db.insert(users).values({
    fullname: DEMO_ACCOUNT.fullname,
    username: DEMO_ACCOUNT.email.split("@")[0]!,
    email: DEMO_ACCOUNT.email,
    phoneNo: DEMO_ACCOUNT.phoneNo,
    nip: DEMO_ACCOUNT.nip,
    companyId: company!.id,
    passwordHash: await hash(DEMO_ACCOUNT.password),
    verifiedAt: new Date(),
  });
}
