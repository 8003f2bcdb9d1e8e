import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { checkoutDrafts, orderDeliveryProofs, orderEvents, orderProducts, orders, orderStatuses, payments, products, RELEASED_STATUSES, uploads, users, type AppliedPromo } from "../../db/schema";
import { notifyOrderStatus } from "../messages/order-mail";
import { KTP_REQUIRED } from "../../images";
import { checkoutPricing } from "~/lib/pricing";
import type { output } from "zod/mini";
import type { CheckoutContext, checkoutSchema } from "~/lib/schemas/checkout";
import { loadCheckoutProduct, OUT_OF_STOCK, PRODUCT_NOT_ORDERABLE, type CheckoutDraft } from "../checkout/draft";
import { resolveAddress, type ResolvedAddress } from "../checkout/locations";
import { creditOrderReward, type Reward } from "./balance";
import { canCancel, canConfirmArrival, DONE, SHIPPED } from "~/lib/order-actions";

// The ONE module through which orders, stock and statuses change (DESIGN §6). Every change is a
// conditional update inside a transaction with its event row, so two requests racing for the last
// unit, the same NIK or the same status change cannot both win.

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
  return { ktpOnFile: draft.ktp !== null, addressOnFile: draft.address !== null, hasIncentive: draft.product.hasIncentive, hasEmployeePromo };
}

/** The order a valid checkout form asks for (the web form and the API's /order/create alike). */
export function checkoutSubmissionOf(value: output<ReturnType<typeof checkoutSchema>>, context: CheckoutContext): CheckoutSubmission {
  const insentif = context.hasIncentive && value.insentif;
  return {
    note: value.note ?? "",
    buyerName: value.buyerName,
    buyerPhoneNumber: value.buyerPhoneNumber,
    buyerEmail: value.buyerEmail,
    buyerNik: value.buyerNik,
    buyerNip: value.buyerNip ?? null,
    buyerDadName: insentif ? (value.buyerDadName ?? null) : null,
    insentif,
    ajukanInsentifPegawai: context.hasEmployeePromo && value.ajukanInsentifPegawai,
  };
}

export type RuleFailure = { ok: false; message: string; field?: "buyerNik" | "buyerNip" | "ktp" | "address" | "insentif" | "ajukanInsentifPegawai" | "product" };

export const NO_DRAFT = "Data checkout tidak ditemukan. Silakan pilih produk kembali.";
export const NIK_ALREADY_USED = "NIK sudah digunakan untuk pengajuan insentif lain.";
export const NIP_NOT_ACCOUNTS = "NIP tidak sesuai dengan NIP akun Anda.";
export const EMPLOYEE_PROMO_USED = "Promo Pegawai untuk produk ini sudah pernah Anda gunakan.";
export const ADDRESS_REQUIRED = "Alamat tidak boleh kosong.";
export const NO_INCENTIVE = "Produk ini tidak memiliki Insentif Pemerintah.";
export const NO_EMPLOYEE_PROMO = "Produk ini tidak memiliki Promo Pegawai.";
export const TRANSITION_REFUSED = "Status pesanan tidak dapat diubah.";

/**
 * DESIGN §6: the statuses each status may move to.
 *   100 Menunggu Verifikasi Insentif → 200 approved, 1 buyer cancel, 2 rejected
 *   200 Menunggu Pembayaran → 301 instalment/paylater submitted, 302 transfer proof sent,
 *       300 gateway settlement, 1 buyer cancel, 2 payment expired
 *   301 Menunggu Persetujuan Cicilan → 300 approved, 1 buyer cancel, 2 rejected
 *   302 Verifikasi Bukti Transfer → 300 proof verified, 200 proof rejected (upload again),
 *       1 buyer cancel, 2 proof rejected for good
 *   300 Pembayaran Diterima → 400 shipped;  400 Dalam Pengiriman → 500 buyer confirmed arrival
 *   500 Selesai, 1 Dibatalkan, 2 Kedaluwarsa / Ditolak: terminal.
 */
export const ORDER_TRANSITIONS: Record<number, number[]> = {
  100: [200, 1, 2],
  200: [301, 302, 300, 1, 2],
  301: [300, 1, 2],
  // 302 → 200: ops rejected the transfer proof; the buyer may upload another (issue 8, ops CLI).
  302: [300, 200, 1, 2],
  300: [400],
  400: [500],
  500: [],
  1: [],
  2: [],
};

const isReleased = (statusId: number) => (RELEASED_STATUSES as readonly number[]).includes(statusId);
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

/**
 * The rules the form schema cannot check, against the draft: the product can be ordered and has
 * stock; the address is there and consistent; for the incentive, the product carries one, the KTP
 * photo is there and the NIK is on no other live incentive order; for the employee promo, the NIP is
 * the account's, the product carries it and this employee has no live order using it.
 */
async function checkRules(db: Executor, userId: number, submission: CheckoutSubmission): Promise<Checked | RuleFailure> {
  const [draft] = await db.select().from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
  if (!draft) return { ok: false, field: "product", message: NO_DRAFT };
  const product = await loadCheckoutProduct(db, draft.productId);
  if (!product) return { ok: false, field: "product", message: NO_DRAFT };
  if (!product.orderable || !product.priced) return { ok: false, field: "product", message: PRODUCT_NOT_ORDERABLE };
  if (product.stock <= 0) return { ok: false, field: "product", message: OUT_OF_STOCK };

  const resolved = draft.address ? await resolveAddress(draft.address, db) : null;
  if (!resolved?.ok) return { ok: false, field: "address", message: ADDRESS_REQUIRED };

  const nik = submission.buyerNik.trim();
  let ktpUploadId: string | null = null;
  if (draft.ktpUploadId) {
    const [own] = await db.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.id, draft.ktpUploadId), eq(uploads.ownerId, userId)));
    ktpUploadId = own?.id ?? null;
  }
  if (submission.insentif) {
    if (!product.hasIncentive) return { ok: false, field: "insentif", message: NO_INCENTIVE };
    if (!ktpUploadId) return { ok: false, field: "ktp", message: KTP_REQUIRED };
    const [taken] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.buyerNik, nik), eq(orders.insentif, true), notInArray(orders.statusId, [...RELEASED_STATUSES])))
      .limit(1);
    if (taken) return { ok: false, field: "buyerNik", message: NIK_ALREADY_USED };
  }

  if (submission.ajukanInsentifPegawai) {
    const [account] = await db.select({ nip: users.nip }).from(users).where(eq(users.id, userId));
    if (!account || (submission.buyerNip ?? "").trim() !== account.nip.trim()) return { ok: false, field: "buyerNip", message: NIP_NOT_ACCOUNTS };
    if (!product.pricing.promos.some((p) => p.kind === "employee")) return { ok: false, field: "ajukanInsentifPegawai", message: NO_EMPLOYEE_PROMO };
    const [used] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.productId, product.id), eq(orders.promoPegawai, true), notInArray(orders.statusId, [...RELEASED_STATUSES])))
      .limit(1);
    if (used) return { ok: false, field: "ajukanInsentifPegawai", message: EMPLOYEE_PROMO_USED };
  }

  return { ok: true, product, address: resolved.address, ktpUploadId, paymentMethodId: draft.paymentMethodId, tenor: draft.tenor, promoPegawai: submission.ajukanInsentifPegawai };
}

/** The rules the form schema cannot check (see checkRules); the create runs them again in its transaction. */
export async function checkOrderRules(userId: number, submission: CheckoutSubmission): Promise<{ ok: true } | RuleFailure> {
  if (!isId(userId)) return { ok: false, field: "product", message: NO_DRAFT };
  const result = await checkRules(await getDb(), userId, submission);
  return result.ok ? { ok: true } : result;
}

/** 'INV/20261123/000123': the day in WIB and the order id, so it is unique without another counter. */
export function invoiceIdFor(orderId: number, at: Date): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta", year: "numeric", month: "2-digit", day: "2-digit" }).format(at).replaceAll("-", "");
  return `INV/${day}/${String(orderId).padStart(6, "0")}`;
}

async function findByKey(db: Executor, userId: number, idempotencyKey: string) {
  const [row] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row?.id ?? null;
}

/** The unique index a PostgreSQL error (23505) names, through Drizzle's wrapper, on both drivers. */
function violatedConstraint(error: unknown): string | null {
  for (let e = error as { code?: string; constraint?: string; constraint_name?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
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
  options: { statusId: 100 | 200 | 301; paymentMethodId?: number; tenor?: number },
): Promise<{ ok: true; orderId: number; created: boolean } | RuleFailure> {
  if (!isId(userId)) return { ok: false, field: "product", message: NO_DRAFT };
  const key = typeof idempotencyKey === "string" ? idempotencyKey.trim().slice(0, 100) : "";
  if (!key) return { ok: false, field: "product", message: NO_DRAFT };
  const db = await getDb();

  // A repeat of an earlier submit gets that order back, whatever else it carries.
  const earlier = await findByKey(db, userId, key);
  if (earlier) return { ok: true, orderId: earlier, created: false };
  // An incentive order waits for the incentive check (100); only an incentive order may.
  if ((options.statusId === 100) !== submission.insentif) return { ok: false, field: "insentif", message: NO_INCENTIVE };

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

      const pricing = checkoutPricing(product.pricing, { insentif: submission.insentif, promoPegawai: checked.promoPegawai });
      const now = new Date();
      const [{ id: orderId }] = (await queryRows<{ id: number }>(tx, sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`)) as [{ id: number }];
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
        buyerNik: submission.buyerNik.trim(),
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
        ktpUploadId: checked.ktpUploadId,
        insentif: submission.insentif,
        insentifValue: pricing.insentifValue,
        promoPegawai: checked.promoPegawai,
        promoPegawaiValue: pricing.promoPegawaiValue,
        priceOri: pricing.priceOri,
        amount: pricing.total,
        totalAmount: pricing.total,
        paymentMethodId: options.paymentMethodId ?? checked.paymentMethodId,
        tenor: options.tenor ?? checked.tenor,
        createdAt: now,
        updatedAt: now,
      });
      const applied: AppliedPromo[] = product.pricing.promos
        .filter((p) => p.kind === "ordinary" || (p.kind === "incentive" && pricing.insentifValue > 0) || (p.kind === "employee" && pricing.promoPegawaiValue > 0))
        // The amount of each line as checkoutPricing took it off (ordinary lines in its order).
        .map((p) => ({
          title: p.title,
          value: p.discount,
          discountType: p.discountType,
          kind: p.kind,
          amount: p.kind === "incentive" ? pricing.insentifValue : p.kind === "employee" ? pricing.promoPegawaiValue : (pricing.promoLines.find((line) => line.title === p.title)?.amount ?? 0),
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
      await tx.insert(orderEvents).values({ orderId, fromStatus: null, toStatus: options.statusId, actor: `buyer:${userId}`, createdAt: now });
      await tx.delete(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
      return { ok: true as const, orderId, created: true };
    });
  } catch (error) {
    // A concurrent submit won a unique index between our check and our insert: answer its rule.
    const constraint = violatedConstraint(error);
    if (constraint === null) throw error;
    if (constraint.includes("orders_live_incentive_nik_key")) return { ok: false, field: "buyerNik", message: NIK_ALREADY_USED };
    if (constraint.includes("orders_live_employee_promo_key")) return { ok: false, field: "ajukanInsentifPegawai", message: EMPLOYEE_PROMO_USED };
    const first = await findByKey(db, userId, key);
    if (first) return { ok: true, orderId: first, created: false };
    throw error;
  }
}

/** Id, invoice and status of the user's own order; null for anyone else's (the route answers 404). */
export async function getOwnedOrderSummary(orderId: number, userId: number): Promise<{ id: number; invoiceId: string; statusId: number; statusName: string } | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ id: orders.id, invoiceId: orders.invoiceId, statusId: orders.statusId, statusName: orderStatuses.name })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  return row ?? null;
}

/**
 * DESIGN §6 status machine: one conditional update (WHERE status_id = from) + an order_events row;
 * leaving a live status for 1 or 2 returns the stock unit. Refused transitions change nothing.
 */
export async function transitionOrder(
  orderId: number,
  from: number,
  to: number,
  actor: string,
  note?: string,
  // Runs inside the same transaction once the order has moved (confirmDelivery credits the reward
  // there); when it throws, the move is rolled back with it.
  options?: { onMoved?: (tx: Executor) => Promise<void> },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isId(orderId) || !ORDER_TRANSITIONS[from]?.includes(to)) return { ok: false, message: TRANSITION_REFUSED };
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const now = new Date();
    const [moved] = await tx
      .update(orders)
      .set({ statusId: to, statusChangedAt: now, updatedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.statusId, from)))
      .returning({ productId: orders.productId });
    // Someone else moved it first (or it never was in `from`): nothing happens.
    if (!moved) return { ok: false as const, message: TRANSITION_REFUSED };
    await tx.insert(orderEvents).values({ orderId, fromStatus: from, toStatus: to, actor: actor.slice(0, 100), note: note?.slice(0, 1000) ?? null, createdAt: now });
    if (isReleased(to) && !isReleased(from)) {
      await tx.update(products).set({ stock: sql`${products.stock} + 1` }).where(eq(products.id, moved.productId));
    }
    if (from === 302 && to === 200) {
      // The transfer proof was rejected: the payment forgets it, so the buyer can send another
      // ('Saya sudah bayar' again). The rejected proof stays named in the event that sent it.
      await tx.update(payments).set({ markedPaidAt: null, proofUploadId: null }).where(eq(payments.orderId, orderId));
    }
    await options?.onMoved?.(tx);
    return { ok: true as const };
  });
  // After the commit: the buyer's e-mail for this move (never throws, never fails the transition).
  if (result.ok) await notifyOrderStatus(orderId, to);
  return result;
}


// ─── Buyer actions on an order (issue 8, order detail) ────────────────────────────────────────────
// The buyer's own moves, each through transitionOrder: one conditional update, so a stale page, a
// double submit or two tabs racing change the order once and the loser gets a clear message.

export const ORDER_NOT_FOUND = "Pesanan tidak ditemukan.";
export const ORDER_ALREADY_CANCELLED = "Pesanan sudah dibatalkan.";
export const ORDER_NOT_CANCELLABLE = "Pesanan ini tidak dapat dibatalkan lagi.";
export const ORDER_CANCELLED = "Pesanan berhasil dibatalkan.";
export const ORDER_ALREADY_DONE = "Pesanan sudah dikonfirmasi sampai.";
export const ORDER_NOT_SHIPPED = "Pesanan belum dalam pengiriman, belum dapat dikonfirmasi.";
export const PROOF_REQUIRED = "Foto bukti barang sampai tidak boleh kosong.";

type ActionResult = { ok: true } | { ok: false; message: string; notFound?: boolean };

async function ownedStatus(orderId: number, userId: number): Promise<{ statusId: number; amount: number } | null> {
  if (!isId(orderId) || !isId(userId)) return null;
  const db = await getDb();
  const [row] = await db.select({ statusId: orders.statusId, amount: orders.amount }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  return row ?? null;
}

const refusalFor = (statusId: number, wanted: "cancel" | "confirm") => {
  if (statusId === 1) return ORDER_ALREADY_CANCELLED;
  if (wanted === "confirm") return statusId === 500 ? ORDER_ALREADY_DONE : ORDER_NOT_SHIPPED;
  return ORDER_NOT_CANCELLABLE;
};

/**
 * 'Batalkan Pesanan' (spec §4: in 100, 200, 301, 302) → 1 Dibatalkan; transitionOrder returns the
 * stock unit. Someone else's order or an unknown id: notFound (the route answers 404).
 */
export async function cancelOrder(orderId: number, userId: number): Promise<ActionResult> {
  // Read, then move conditionally from what was read. If ops moved it in between (say 100 → 200,
  // still cancellable) the move finds nothing; one more read decides with the fresh status.
  for (let attempt = 0; attempt < 2; attempt++) {
    const order = await ownedStatus(orderId, userId);
    if (!order) return { ok: false, notFound: true, message: ORDER_NOT_FOUND };
    if (!canCancel(order.statusId)) return { ok: false, message: refusalFor(order.statusId, "cancel") };
    const moved = await transitionOrder(orderId, order.statusId, 1, `buyer:${userId}`, "Dibatalkan oleh pembeli");
    if (moved.ok) return { ok: true };
  }
  const latest = await ownedStatus(orderId, userId);
  return { ok: false, message: refusalFor(latest?.statusId ?? 1, "cancel") };
}

/** Spec §7 confirm (`buktiImageUrls`): at most this many photos or PDFs with one confirmation. */
export const MAX_DELIVERY_PROOFS = 5;
export const TOO_MANY_PROOFS = `Maksimal ${MAX_DELIVERY_PROOFS} file bukti barang sampai.`;

/**
 * 'Konfirmasi Barang Sampai' (only in 400) → 500 Selesai with the buyer's proofs (1 to 5 uploads of
 * theirs, purpose delivery-proof: one id or a list), written to order_delivery_proofs and named in
 * the event's note, and the reward credited, all in the SAME transaction (once per order). Returns
 * the reward, null when the order earns none.
 */
export async function confirmDelivery(orderId: number, userId: number, proofUploadIds: string | readonly string[]): Promise<{ ok: true; reward: Reward | null } | { ok: false; message: string; notFound?: boolean }> {
  const order = await ownedStatus(orderId, userId);
  if (!order) return { ok: false, notFound: true, message: ORDER_NOT_FOUND };
  if (!canConfirmArrival(order.statusId)) return { ok: false, message: refusalFor(order.statusId, "confirm") };
  const wanted = [...new Set((typeof proofUploadIds === "string" ? [proofUploadIds] : Array.isArray(proofUploadIds) ? proofUploadIds : []).filter((id): id is string => typeof id === "string" && id !== ""))];
  if (!wanted.length) return { ok: false, message: PROOF_REQUIRED };
  if (wanted.length > MAX_DELIVERY_PROOFS) return { ok: false, message: TOO_MANY_PROOFS };
  const db = await getDb();
  const own = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.id, wanted), eq(uploads.ownerId, userId), eq(uploads.purpose, "delivery-proof")));
  // Every file named must be the buyer's own delivery proof.
  if (own.length !== wanted.length) return { ok: false, message: PROOF_REQUIRED };
  let reward: Reward | null = null;
  const moved = await transitionOrder(orderId, SHIPPED, DONE, `buyer:${userId}`, `bukti:${wanted.join(",")}`, {
    onMoved: async (tx) => {
      await tx.insert(orderDeliveryProofs).values(wanted.map((uploadId, position) => ({ orderId, uploadId, position })));
      reward = await creditOrderReward(tx, orderId, userId, order.amount);
    },
  });
  if (!moved.ok) {
    const latest = await ownedStatus(orderId, userId);
    return { ok: false, message: refusalFor(latest?.statusId ?? 1, "confirm") };
  }
  return { ok: true, reward };
}
