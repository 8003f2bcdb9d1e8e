import { and, eq, notInArray, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import {
  checkoutDrafts,
  orderEvents,
  orderProducts,
  orders,
  products,
  RELEASED_STATUSES,
  uploads,
  users,
  type AppliedPromo,
} from "../../db/schema";
import { KTP_REQUIRED } from "../../images";
import { checkoutPricing } from "~/lib/pricing";
import { ORDER_STATUS as S } from "~/lib/order-status";
import type { output } from "zod/mini";
import type { CheckoutContext, checkoutSchema } from "~/lib/schemas/checkout";
import { loadCheckoutProduct, OUT_OF_STOCK, PRODUCT_NOT_ORDERABLE, type CheckoutDraft } from "./draft";
import { resolveAddress, type ResolvedAddress } from "./locations";
import { employeeStanding, NOT_ACTIVE_EMPLOYEE } from "../people";
import { nikHashOf, sealNik } from "../privacy";
import { copyOwnedUpload, currentRewardRule } from "../orders";
// Making an order from the checkout draft (spec §4 Checkout flow): the rules the form cannot check,
// then one transaction that reserves the stock unit, writes the order, its product row and its
// first event, and clears the draft. Idempotent on the form's key.

export type CheckoutSubmission = {
  note: string;
  buyerName: string;
  buyerPhoneNumber: string;
  buyerEmail: string;
  buyerNik: string;
  buyerNip: string | null;
  buyerDadName: string | null;
  insentif: boolean;
  ajukanInsentifPegawai: boolean;
};
/** What the checkout form's rules depend on: a KTP and an address on file, the product's incentive, the employee promo. */
export function checkoutContextOf(draft: CheckoutDraft, hasEmployeePromo: boolean): CheckoutContext {
  return {
    ktpOnFile: draft.ktp !== null,
    nikOnFile: draft.values.nikSaved === true && !!draft.values.buyerNik,
    addressOnFile: draft.address !== null,
    hasIncentive: draft.product.hasIncentive,
    hasEmployeePromo,
  };
}

/** The order a valid checkout form asks for (the web form and the API's /order/create alike). */
export function checkoutSubmissionOf(value: output<ReturnType<typeof checkoutSchema>>, context: CheckoutContext): CheckoutSubmission {
  const insentif = context.hasIncentive && value.insentif;
  return {
    note: value.note ?? "",
    buyerName: value.buyerName,
    buyerPhoneNumber: value.buyerPhoneNumber,
    buyerEmail: value.buyerEmail,
    // Empty when the form offered the previous order's NIK (the draft holds it: submit.ts).
    buyerNik: value.buyerNik ?? "",
    buyerNip: value.buyerNip ?? null,
    buyerDadName: insentif ? (value.buyerDadName ?? null) : null,
    insentif,
    ajukanInsentifPegawai: context.hasEmployeePromo && value.ajukanInsentifPegawai,
  };
}

export type RuleFailure = {
  ok: false;
  message: string;
  field?: "buyerNik" | "buyerNip" | "ktp" | "address" | "insentif" | "ajukanInsentifPegawai" | "product";
};

export const NO_DRAFT = "Data checkout tidak ditemukan. Silakan pilih produk kembali.";
export const NIK_ALREADY_USED = "NIK sudah digunakan untuk pengajuan insentif lain.";
export const NIP_NOT_ACCOUNTS = "NIP tidak sesuai dengan NIP akun Anda.";
export const EMPLOYEE_PROMO_USED = "Promo Pegawai untuk produk ini sudah pernah Anda gunakan.";
export const ADDRESS_REQUIRED = "Alamat tidak boleh kosong.";
export const NO_INCENTIVE = "Produk ini tidak memiliki Insentif Pemerintah.";
export const NO_EMPLOYEE_PROMO = "Produk ini tidak memiliki Promo Pegawai.";
export const PRODUCT_WITHDRAWN = "Produk ini sudah tidak dijual. Pesanan tidak dibuat dan Anda tidak dikenai biaya.";

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
type Checked = {
  ok: true;
  product: NonNullable<Awaited<ReturnType<typeof loadCheckoutProduct>>>;
  address: ResolvedAddress;
  ktpUploadId: string | null;
  paymentMethodId: number | null;
  tenor: number | null;
  promoPegawai: boolean;
};

async function ktpHeldByAnOrder(db: Executor, uploadId: string): Promise<boolean> {
  const [held] = await db.select({ id: orders.id }).from(orders).where(eq(orders.ktpUploadId, uploadId)).limit(1);
  return held !== undefined;
}

/**
 * The rules the form schema cannot check, against the draft: the product can be ordered and has
 * stock; the address is there and consistent; for the incentive, the product carries one, the KTP
 * photo is there and the NIK is on no other live incentive order; for the employee promo, the NIP is
 * the account's, the product carries it and this employee has no live order using it.
 */
async function checkRules(db: Executor, userId: number, submission: CheckoutSubmission): Promise<Checked | RuleFailure> {
  // Issue 27: an employee the roster deactivated starts no new order (the draft may be older).
  if ((await employeeStanding(userId, db)) === "inactive") return { ok: false, field: "product", message: NOT_ACTIVE_EMPLOYEE };
  const [draft] = await db.select().from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
  if (!draft) return { ok: false, field: "product", message: NO_DRAFT };
  const product = await loadCheckoutProduct(db, draft.productId);
  if (!product) return { ok: false, field: "product", message: NO_DRAFT };
  // Drafted or archived after this checkout started: no order, nothing to pay.
  if (!product.published) return { ok: false, field: "product", message: PRODUCT_WITHDRAWN };
  if (!product.orderable || !product.priced) return { ok: false, field: "product", message: PRODUCT_NOT_ORDERABLE };
  if (product.stock <= 0) return { ok: false, field: "product", message: OUT_OF_STOCK };

  const resolved = draft.address ? await resolveAddress(draft.address, db) : null;
  if (!resolved?.ok) return { ok: false, field: "address", message: ADDRESS_REQUIRED };

  let ktpUploadId: string | null = null;
  if (draft.ktpUploadId) {
    const [own] = await db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.id, draft.ktpUploadId), eq(uploads.ownerId, userId)));
    ktpUploadId = own?.id ?? null;
  }
  if (submission.insentif) {
    if (!product.hasIncentive) return { ok: false, field: "insentif", message: NO_INCENTIVE };
    if (!ktpUploadId) return { ok: false, field: "ktp", message: KTP_REQUIRED };
    const [taken] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.buyerNikHash, await nikHashOf(db, submission.buyerNik.trim())),
          eq(orders.insentif, true),
          notInArray(orders.statusId, [...RELEASED_STATUSES]),
        ),
      )
      .limit(1);
    if (taken) return { ok: false, field: "buyerNik", message: NIK_ALREADY_USED };
  }

  if (submission.ajukanInsentifPegawai) {
    const [account] = await db.select({ nip: users.nip }).from(users).where(eq(users.id, userId));
    if (!account || (submission.buyerNip ?? "").trim() !== account.nip.trim())
      return { ok: false, field: "buyerNip", message: NIP_NOT_ACCOUNTS };
    if (!product.pricing.promos.some((p) => p.kind === "employee"))
      return { ok: false, field: "ajukanInsentifPegawai", message: NO_EMPLOYEE_PROMO };
    const [used] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.productId, product.id),
          eq(orders.promoPegawai, true),
          notInArray(orders.statusId, [...RELEASED_STATUSES]),
        ),
      )
      .limit(1);
    if (used) return { ok: false, field: "ajukanInsentifPegawai", message: EMPLOYEE_PROMO_USED };
  }

  return {
    ok: true,
    product,
    address: resolved.address,
    ktpUploadId,
    paymentMethodId: draft.paymentMethodId,
    tenor: draft.tenor,
    promoPegawai: submission.ajukanInsentifPegawai,
  };
}

/** The rules the form schema cannot check (see checkRules); the create runs them again in its transaction. */
export async function checkOrderRules(userId: number, submission: CheckoutSubmission): Promise<{ ok: true } | RuleFailure> {
  if (!isId(userId)) return { ok: false, field: "product", message: NO_DRAFT };
  const result = await checkRules(await getDb(), userId, submission);
  return result.ok ? { ok: true } : result;
}

/** 'INV/20261123/000123': the day in WIB and the order id, so it is unique without another counter. */
export function invoiceIdFor(orderId: number, at: Date): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta", year: "numeric", month: "2-digit", day: "2-digit" })
    .format(at)
    .replaceAll("-", "");
  return `INV/${day}/${String(orderId).padStart(6, "0")}`;
}

async function findByKey(db: Executor, userId: number, idempotencyKey: string) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row?.id ?? null;
}

/** The unique index a PostgreSQL error (23505) names, through Drizzle's wrapper, on both drivers. */
function violatedConstraint(error: unknown): string | null {
  for (
    let e = error as { code?: string; constraint?: string; constraint_name?: string; message?: string; cause?: unknown } | undefined,
      depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === "23505") return e.constraint ?? e.constraint_name ?? e.message ?? "";
  }
  return null;
}

/**
 * Creates the order from the user's draft in ONE transaction: rules again, reserve 1 unit of stock
 * (conditional update, never < 0, else 'Stok produk habis.'), insert order + order_products + event
 * (fromStatus null), clear the draft. Idempotent on (userId, idempotencyKey): a repeat returns the
 * first order with created=false (even after the draft was cleared). Unique-index violations map to
 * the rule messages, never a 500.
 */
export async function createOrderFromDraft(
  userId: number,
  idempotencyKey: string,
  submission: CheckoutSubmission,
  options: {
    statusId: typeof S.INCENTIVE_REVIEW | typeof S.AWAITING_PAYMENT | typeof S.INSTALLMENT_REVIEW;
    paymentMethodId?: number;
    tenor?: number;
  },
): Promise<{ ok: true; orderId: number; created: boolean } | RuleFailure> {
  if (!isId(userId)) return { ok: false, field: "product", message: NO_DRAFT };
  const key = typeof idempotencyKey === "string" ? idempotencyKey.trim().slice(0, 100) : "";
  if (!key) return { ok: false, field: "product", message: NO_DRAFT };
  const db = await getDb();

  // A repeat of an earlier submit gets that order back, whatever else it carries.
  const earlier = await findByKey(db, userId, key);
  if (earlier) return { ok: true, orderId: earlier, created: false };
  // An incentive order waits for the incentive check (100); only an incentive order may.
  if ((options.statusId === S.INCENTIVE_REVIEW) !== submission.insentif) return { ok: false, field: "insentif", message: NO_INCENTIVE };

  try {
    return await db.transaction(async (tx) => {
      // Lock the draft: a double submit of the same form waits here, then finds the first order.
      await tx.select({ userId: checkoutDrafts.userId }).from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId)).for("update");
      const repeat = await findByKey(tx, userId, key);
      if (repeat) return { ok: true as const, orderId: repeat, created: false };

      const checked = await checkRules(tx, userId, submission);
      if (!checked.ok) return checked;
      const { product, address } = checked;

      // The reservation: one conditional update, so concurrent buyers can never take stock below 0.
      const reserved = await tx
        .update(products)
        .set({ stock: sql`${products.stock} - 1` })
        .where(and(eq(products.id, product.id), sql`${products.stock} > 0`))
        .returning({ stock: products.stock });
      if (!reserved.length) return { ok: false as const, field: "product" as const, message: OUT_OF_STOCK };

      // A photo another order holds already (the previous order's KTP the checkout offered, issue 38,
      // or an upload id the API named) is copied: each order's photo keeps its own retention.
      const ktpUploadId =
        checked.ktpUploadId && (await ktpHeldByAnOrder(tx, checked.ktpUploadId))
          ? await copyOwnedUpload(tx, checked.ktpUploadId, userId)
          : checked.ktpUploadId;
      if (checked.ktpUploadId && !ktpUploadId) return { ok: false as const, field: "ktp" as const, message: KTP_REQUIRED };

      const pricing = checkoutPricing(product.pricing, { insentif: submission.insentif, promoPegawai: checked.promoPegawai });
      // The reward rule of this moment goes with the order: a later change of the setting leaves it (issue 38).
      const rewardRule = await currentRewardRule(tx);
      const now = new Date();
      const [{ id: orderId }] = (await queryRows<{ id: number }>(
        tx,
        sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
      )) as [{ id: number }];
      await tx.insert(orders).values({
        id: orderId,
        invoiceId: invoiceIdFor(orderId, now),
        userId,
        idempotencyKey: key,
        productId: product.id,
        statusId: options.statusId,
        statusChangedAt: now,
        buyerName: submission.buyerName.trim(),
        buyerPhoneNumber: submission.buyerPhoneNumber.trim(),
        buyerEmail: submission.buyerEmail.trim(),
        // Sealed, with the keyed hash the one-NIK-one-incentive index holds (issue 35).
        ...(await sealNik(tx, orderId, submission.buyerNik)),
        buyerNip: submission.buyerNip?.trim() || null,
        buyerDadName: submission.insentif ? submission.buyerDadName?.trim() || null : null,
        note: submission.note.trim().slice(0, 500),
        fullAddress: address.fullAddress,
        provinsiId: address.provinsiId,
        provinsi: address.provinsi,
        kotaId: address.kotaId,
        kota: address.kota,
        kecamatanId: address.kecamatanId,
        kecamatan: address.kecamatan,
        kelurahanId: address.kelurahanId,
        kelurahan: address.kelurahan,
        kodePos: address.kodePos,
        ktpUploadId,
        insentif: submission.insentif,
        insentifValue: pricing.insentifValue,
        promoPegawai: checked.promoPegawai,
        promoPegawaiValue: pricing.promoPegawaiValue,
        priceOri: pricing.priceOri,
        amount: pricing.total,
        totalAmount: pricing.total,
        rewardPercent: rewardRule?.percent ?? null,
        rewardCap: rewardRule?.cap ?? null,
        paymentMethodId: options.paymentMethodId ?? checked.paymentMethodId,
        tenor: options.tenor ?? checked.tenor,
        createdAt: now,
        updatedAt: now,
      });
      const applied: AppliedPromo[] = product.pricing.promos
        .filter(
          (p) =>
            p.kind === "ordinary" ||
            (p.kind === "incentive" && pricing.insentifValue > 0) ||
            (p.kind === "employee" && pricing.promoPegawaiValue > 0),
        )
        // The amount of each line as checkoutPricing took it off (ordinary lines in its order).
        .map((p) => ({
          title: p.title,
          value: p.discount,
          discountType: p.discountType,
          kind: p.kind,
          amount:
            p.kind === "incentive"
              ? pricing.insentifValue
              : p.kind === "employee"
                ? pricing.promoPegawaiValue
                : (pricing.promoLines.find((line) => line.title === p.title)?.amount ?? 0),
        }));
      await tx.insert(orderProducts).values({
        orderId,
        productId: product.id,
        qty: 1,
        title: product.title,
        imageUrl: product.imageUrl,
        price: pricing.price,
        priceOri: pricing.priceOri,
        totalDiscount: pricing.priceOri - pricing.total,
        promo: applied,
      });
      await tx
        .insert(orderEvents)
        .values({ orderId, fromStatus: null, toStatus: options.statusId, actor: `buyer:${userId}`, createdAt: now });
      await tx.delete(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
      return { ok: true as const, orderId, created: true };
    });
  } catch (error) {
    // A concurrent submit won a unique index between our check and our insert: answer its rule.
    const constraint = violatedConstraint(error);
    if (constraint === null) throw error;
    if (constraint.includes("orders_live_incentive_nik_hash_key")) return { ok: false, field: "buyerNik", message: NIK_ALREADY_USED };
    if (constraint.includes("orders_live_employee_promo_key"))
      return { ok: false, field: "ajukanInsentifPegawai", message: EMPLOYEE_PROMO_USED };
    const first = await findByKey(db, userId, key);
    if (first) return { ok: true, orderId: first, created: false };
    throw error;
  }
}
