import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import {
  checkoutDrafts,
  orders,
  productImages,
  productPromos,
  products,
  promos,
  savedAddresses,
  uploads,
  users,
  type AddressInput,
  type CheckoutDraftValues,
} from "../../db/schema";
import { promoKind, type CheckoutPricingInput, type CheckoutPromo } from "~/lib/pricing";
import { resolveAddress, type ResolvedAddress } from "./locations";
import { uploadUrl } from "../orders";
import { employeeStanding, notEmployeeMessage } from "../people";
import { promoIsValid } from "../catalogue";
import { readNik, sealDraftNik } from "../privacy";

// The checkout draft (DESIGN §4): the one open checkout of a user, a database row that replaces the
// spec's local-storage dataCheckout/detail_produk/address/methodPayment/tenor. It survives the trip
// to /address and a visit tomorrow; the order is made from it (store/orders/orders.ts).

export type CheckoutProduct = {
  id: number;
  title: string;
  imageUrl: string | null;
  stock: number;
  pricing: CheckoutPricingInput;
  hasIncentive: boolean;
};
export type CheckoutDraft = {
  product: CheckoutProduct;
  values: CheckoutDraftValues;
  ktp: { id: string; url: string } | null;
  address: ResolvedAddress | null;
  paymentMethodId: number | null;
  tenor: number | null;
  updatedAt: Date;
};

export const OUT_OF_STOCK = "Stok produk habis.";
export const UNVERIFIED = "Akun Anda belum aktif. Silakan aktivasi akun melalui e-mail sebelum bertransaksi.";
export const PRODUCT_NOT_FOUND = "Produk tidak ditemukan.";
export const PRODUCT_NOT_ORDERABLE = "Produk ini belum dapat dipesan.";

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;

/** The product as the checkout needs it (title, first image, stock, price and promos with their kinds). */
export async function loadCheckoutProduct(
  db: Executor,
  productId: number,
): Promise<(CheckoutProduct & { orderable: boolean; priced: boolean; published: boolean }) | null> {
  if (!isId(productId)) return null;
  const [row] = await db
    .select({
      id: products.id,
      title: products.title,
      price: products.price,
      discount: products.discount,
      discountType: products.discountType,
      stock: products.stock,
      orderable: products.orderable,
      status: products.status,
    })
    .from(products)
    .where(eq(products.id, productId));
  if (!row) return null;
  const [image] = await db
    .select({ url: productImages.cardUrl })
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.id))
    .limit(1);
  const promoRows = await db
    .select({
      id: promos.id,
      title: promos.title,
      discount: promos.discount,
      discountType: promos.discountType,
      incentive: promos.incentive,
    })
    .from(productPromos)
    .innerJoin(promos, eq(promos.id, productPromos.promoId))
    .where(and(eq(productPromos.productId, productId), promoIsValid()))
    .orderBy(asc(promos.id));
  const checkoutPromos: CheckoutPromo[] = promoRows.map(({ incentive, ...promo }) => ({
    ...promo,
    kind: promoKind({ ...promo, incentive }),
  }));
  return {
    id: row.id,
    title: row.title ?? "-",
    imageUrl: image?.url ?? null,
    stock: row.stock,
    pricing: { price: row.price ?? 0, discount: row.discount, discountType: row.discountType, promos: checkoutPromos },
    hasIncentive: checkoutPromos.some((p) => p.kind === "incentive"),
    orderable: row.orderable === 1,
    priced: row.price !== null,
    published: row.status === "tayang",
  };
}

/**
 * 'Beli Sekarang': creates or replaces the user's one draft (qty 1). Refuses unverified users,
 * unknown/unorderable/priceless products, and stock 0 ('Stok produk habis.'). Values prefilled from
 * the profile: buyerName, buyerPhoneNumber (digits only), buyerEmail, buyerNip. The saved address
 * (if any) is prefilled too; the KTP photo of an earlier draft is not carried over. With `offerSaved`
 * (the web's 'Beli Sekarang', issue 38) the NIK and KTP photo of the buyer's latest order whose photo
 * the store still keeps are offered again: a second order needs no new upload.
 */
export async function startCheckout(
  user: { id: number; verified: boolean },
  productId: number,
  options: { offerSaved?: boolean } = {},
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!user.verified) return { ok: false, message: UNVERIFIED };
  // An employee the roster deactivated finishes their open orders but starts no new checkout.
  // An account whose roster link waits (decision 0069) is told so.
  if ((await employeeStanding(user.id)) === "inactive") return { ok: false, message: await notEmployeeMessage(user.id) };
  const db = await getDb();
  const product = await loadCheckoutProduct(db, productId);
  if (!product?.published) return { ok: false, message: PRODUCT_NOT_FOUND };
  if (!product.orderable || !product.priced) return { ok: false, message: PRODUCT_NOT_ORDERABLE };
  if (product.stock <= 0) return { ok: false, message: OUT_OF_STOCK };
  const [profile] = await db
    .select({ fullname: users.fullname, phoneNo: users.phoneNo, email: users.email, nip: users.nip })
    .from(users)
    .where(eq(users.id, user.id));
  if (!profile) return { ok: false, message: UNVERIFIED };
  const saved = await getSavedAddress(user.id);
  const values: CheckoutDraftValues = {
    buyerName: profile.fullname,
    buyerPhoneNumber: profile.phoneNo.replace(/\D/g, ""),
    buyerEmail: profile.email,
    buyerNip: profile.nip,
  };
  const previous = options.offerSaved ? await previousNikAndKtp(db, user.id) : null;
  if (previous) {
    values.buyerNik = previous.nik;
    values.nikSaved = true;
  }
  const fresh = {
    productId: product.id,
    values: sealDraftValues(user.id, values),
    ktpUploadId: previous?.ktpUploadId ?? null,
    address: saved,
    paymentMethodId: null,
    tenor: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  await db
    .insert(checkoutDrafts)
    .values({ userId: user.id, ...fresh })
    .onConflictDoUpdate({ target: checkoutDrafts.userId, set: fresh });
  return { ok: true };
}

/**
 * The NIK and KTP photo of the buyer's latest order whose photo is not deleted yet (the retention of
 * issue 35 decides how long). The draft refers to that photo; the order made from it gets a copy
 * (order-creation.ts), so each order's photo keeps its own retention.
 */
async function previousNikAndKtp(db: Executor, userId: number): Promise<{ nik: string; ktpUploadId: string } | null> {
  const [row] = await db
    .select({ orderId: orders.id, nik: orders.buyerNik, ktpUploadId: uploads.id })
    .from(orders)
    .innerJoin(uploads, and(eq(uploads.id, orders.ktpUploadId), eq(uploads.ownerId, userId), isNull(uploads.deletedAt)))
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  if (!row) return null;
  const nik = readNik(row.nik, { orderId: row.orderId });
  return nik ? { nik, ktpUploadId: row.ktpUploadId } : null;
}

/**
 * The NIK the checkout offers again (that of `previousNikAndKtp`), for 'Pakai NIK sebelumnya' after
 * the buyer pressed 'Ganti' (issue 43 item 8): the way back to it. Null when there is none.
 */
export async function previousNikOf(userId: number): Promise<string | null> {
  if (!isId(userId)) return null;
  return (await previousNikAndKtp(await getDb(), userId))?.nik ?? null;
}

/** The user's open draft with its product, KTP and address (names looked up), or null. */
export async function getCheckoutDraft(userId: number): Promise<CheckoutDraft | null> {
  if (!isId(userId)) return null;
  const db = await getDb();
  const [row] = await db.select().from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
  if (!row) return null;
  const product = await loadCheckoutProduct(db, row.productId);
  if (!product) return null;
  const { orderable: _orderable, priced: _priced, ...checkoutProduct } = product;
  const resolved = row.address ? await resolveAddress(row.address) : null;
  return {
    product: checkoutProduct,
    values: openDraftValues(userId, row.values),
    ktp: row.ktpUploadId ? { id: row.ktpUploadId, url: uploadUrl(row.ktpUploadId) } : null,
    address: resolved?.ok ? resolved.address : null,
    paymentMethodId: row.paymentMethodId,
    tenor: row.tenor,
    updatedAt: row.updatedAt,
  };
}

const TEXT_LIMITS = {
  note: 500,
  buyerName: 200,
  buyerPhoneNumber: 30,
  buyerEmail: 254,
  buyerNik: 30,
  buyerNip: 50,
  buyerDadName: 200,
} as const;
const FLAGS = ["nikSaved", "insentif", "ajukanInsentifPegawai", "nikValidation", "bbnValidation", "domisiliValidation"] as const;

/** Only the draft's own keys, strings clipped, flags as booleans: the draft holds what was typed, never more. */
function cleanValues(values: CheckoutDraftValues): CheckoutDraftValues {
  const clean: CheckoutDraftValues = {};
  for (const [key, limit] of Object.entries(TEXT_LIMITS) as [keyof typeof TEXT_LIMITS, number][]) {
    const value = values?.[key];
    if (typeof value === "string") clean[key] = value.slice(0, limit);
  }
  for (const flag of FLAGS) if (values?.[flag] !== undefined) clean[flag] = values[flag] === true;
  return clean;
}

/** The values as stored: a NIK typed into the form is sealed like an order's (issue 35). */
function sealDraftValues(userId: number, values: CheckoutDraftValues): CheckoutDraftValues {
  return values.buyerNik ? { ...values, buyerNik: sealDraftNik(userId, values.buyerNik) } : values;
}

/** The values as the form shows them again: the NIK opened. */
function openDraftValues(userId: number, values: CheckoutDraftValues): CheckoutDraftValues {
  return values.buyerNik ? { ...values, buyerNik: readNik(values.buyerNik, { draftOf: userId }) } : values;
}

/** Replaces the draft's values (no validation: the user may leave the form half done). */
export async function saveDraftValues(userId: number, values: CheckoutDraftValues): Promise<void> {
  if (!isId(userId)) return;
  const db = await getDb();
  await db
    .update(checkoutDrafts)
    .set({ values: sealDraftValues(userId, cleanValues(values)), updatedAt: new Date() })
    .where(eq(checkoutDrafts.userId, userId));
}

/** Spec §4: a valid checkout submit clears the chosen payment method and tenor; they are chosen again. */
export async function clearDraftPaymentChoice(userId: number): Promise<void> {
  if (!isId(userId)) return;
  const db = await getDb();
  await db
    .update(checkoutDrafts)
    .set({ paymentMethodId: null, tenor: null, updatedAt: new Date() })
    .where(eq(checkoutDrafts.userId, userId));
}

/** Puts an accepted KTP photo on the draft; only the user's own upload is taken. */
export async function setDraftKtp(userId: number, uploadId: string): Promise<void> {
  if (!isId(userId)) return;
  const db = await getDb();
  await db
    .update(checkoutDrafts)
    .set({ ktpUploadId: uploadId, updatedAt: new Date() })
    .where(
      and(
        eq(checkoutDrafts.userId, userId),
        sql`exists (select 1 from ${uploads} where ${uploads.id} = ${uploadId} and ${uploads.ownerId} = ${userId})`,
      ),
    );
}

/** Keeps only the address fields, as strings. */
function cleanAddress(address: AddressInput): AddressInput {
  const text = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 500) : "");
  return {
    fullAddress: text(address.fullAddress),
    provinsiId: text(address.provinsiId),
    kotaId: text(address.kotaId),
    kecamatanId: text(address.kecamatanId),
    kelurahanId: text(address.kelurahanId),
    kodePos: text(address.kodePos),
  };
}

/** Saves the (already resolved) address to the draft and as the user's saved address. */
export async function saveDraftAddress(userId: number, address: AddressInput): Promise<void> {
  if (!isId(userId)) return;
  const db = await getDb();
  const clean = cleanAddress(address);
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.update(checkoutDrafts).set({ address: clean, updatedAt: now }).where(eq(checkoutDrafts.userId, userId));
    await tx
      .insert(savedAddresses)
      .values({ userId, address: clean, updatedAt: now })
      .onConflictDoUpdate({ target: savedAddresses.userId, set: { address: clean, updatedAt: now } });
  });
}

/** The address the user saved last (prefills /address), or null. */
export async function getSavedAddress(userId: number): Promise<AddressInput | null> {
  if (!isId(userId)) return null;
  const db = await getDb();
  const [row] = await db.select({ address: savedAddresses.address }).from(savedAddresses).where(eq(savedAddresses.userId, userId));
  return row?.address ?? null;
}

export async function clearCheckoutDraft(userId: number): Promise<void> {
  if (!isId(userId)) return;
  const db = await getDb();
  await db.delete(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
}

/**
 * Spec §7 checkout-check: the product's employee promo (a fixed 1,000,000, spec §6) when `nip` is
 * the account's NIP and the roster does not say otherwise (issue 27: an active entry, or a company
 * without a roster), else null.
 */
export async function checkEmployeePromo(userId: number, productId: number, nip: string): Promise<CheckoutPromo | null> {
  if (!isId(userId) || typeof nip !== "string" || !nip.trim()) return null;
  const db = await getDb();
  if ((await employeeStanding(userId, db)) === "inactive") return null;
  const [account] = await db.select({ nip: users.nip }).from(users).where(eq(users.id, userId));
  if (!account || account.nip.trim() !== nip.trim()) return null;
  const product = await loadCheckoutProduct(db, productId);
  return product?.pricing.promos.find((p) => p.kind === "employee") ?? null;
}
