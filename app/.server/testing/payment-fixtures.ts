import { randomInt, randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { companies, paymentMethods, products, users, type AddressInput } from "../db/schema";
import { saveDraftAddress, saveDraftValues, setDraftKtp, startCheckout } from "../store/checkout";
import { chooseDraftMethod, chooseDraftTenor, payDraft } from "../store/checkout";
import { saveUpload } from "../store/orders";
import { realAddress as realAddressIn } from "./fixtures";

// Rows for the payment tests and `npm run bench:webhook` — never imported by the app. Everything is
// made through the store's own functions (checkout draft → payDraft), except the account and the
// product, which are plain rows; every row is new, so a shared PostgreSQL with other rows is fine.

export type Buyer = { id: number; email: string; nip: string; fullname: string; phoneNo: string };

export async function createBuyer(options: { phoneNo?: string } = {}): Promise<Buyer> {
  const db = await getDb();
  const [company] = await db.select({ id: companies.id }).from(companies).orderBy(asc(companies.id)).limit(1);
  const tag = randomUUID().slice(0, 12);
  const values = {
    fullname: "Budi Santoso",
    username: `bayar-${tag}`,
    email: `bayar-${tag}@example.test`,
    phoneNo: options.phoneNo ?? `0812${String(randomInt(0, 1e8)).padStart(8, "0")}`,
    nip: `NIP${tag}`,
    companyId: company!.id,
    passwordHash: "-",
    verifiedAt: new Date(),
  };
  const [user] = await db.insert(users).values(values).returning({ id: users.id });
  return { id: user!.id, email: values.email, nip: values.nip, fullname: values.fullname, phoneNo: values.phoneNo };
}

/** A priced product without promos: the checkout total is its price. */
export async function createStockedProduct(options: { price?: number; stock?: number } = {}): Promise<number> {
  const db = await getDb();
  const [product] = await db
    .insert(products)
    .values({
      sku: `pay-test-${randomUUID().slice(0, 12)}`,
      title: "Kompor Induksi Uji",
      price: options.price ?? 8_750_000,
      stock: options.stock ?? 10,
      orderable: 1,
      status: "tayang",
    })
    .returning({ id: products.id });
  return product!.id;
}

export async function productStock(productId: number): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  return row!.stock;
}

export async function methodId(code: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ id: paymentMethods.id }).from(paymentMethods).where(eq(paymentMethods.code, code));
  return row!.id;
}

let address: AddressInput | undefined;
/** A real address from the reference data (Kota Bandung). */
export async function realAddress(): Promise<AddressInput> {
  address ??= await realAddressIn(await getDb());
  return address;
}

const nik = () => `32${String(randomInt(0, 1e8)).padStart(8, "0")}${String(randomInt(0, 1e6)).padStart(6, "0")}`;
const FAKE_JPEG = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), contentType: "image/jpeg" as const };

/** 'Beli Sekarang' and a filled-in checkout (values, KTP, address), as the checkout screens leave it. */
export async function readyDraft(
  buyer: Buyer,
  productId: number,
  ktpUploadId?: string,
  contact: { buyerName?: string; buyerEmail?: string } = {},
): Promise<string> {
  const started = await startCheckout({ id: buyer.id, verified: true }, productId);
  if (!started.ok) throw new Error(started.message);
  await saveDraftValues(buyer.id, {
    buyerName: contact.buyerName ?? buyer.fullname,
    buyerPhoneNumber: buyer.phoneNo,
    buyerEmail: contact.buyerEmail ?? buyer.email,
    buyerNik: nik(),
    bbnValidation: true,
    domisiliValidation: true,
  });
  const ktp = ktpUploadId ?? (await saveUpload(buyer.id, "ktp", FAKE_JPEG));
  await setDraftKtp(buyer.id, ktp);
  await saveDraftAddress(buyer.id, await realAddress());
  return ktp;
}

/** The whole buyer path to an order with its payment opened: draft, method (and tenor), continue. */
export async function placeOrder(
  buyer: Buyer,
  productId: number,
  methodCode: string,
  options: { tenor?: number; otpSecretId?: string; ktpUploadId?: string; contact?: { buyerName?: string; buyerEmail?: string } } = {},
): Promise<number> {
  await readyDraft(buyer, productId, options.ktpUploadId, options.contact);
  const chosen = await chooseDraftMethod(buyer.id, await methodId(methodCode));
  if (!chosen.ok) throw new Error(chosen.message);
  if (options.tenor !== undefined) {
    const tenor = await chooseDraftTenor(buyer.id, options.tenor);
    if (!tenor.ok) throw new Error(tenor.message);
  }
  const paid = await payDraft(buyer.id, randomUUID(), { otpSecretId: options.otpSecretId });
  if (!paid.ok) throw new Error(paid.message);
  return paid.orderId;
}

export async function proofUpload(buyer: Buyer): Promise<string> {
  return saveUpload(buyer.id, "transfer-proof", FAKE_JPEG);
}
