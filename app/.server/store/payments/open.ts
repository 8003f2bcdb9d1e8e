import { eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { orders, paymentMethods, payments } from "../../db/schema";
import { getGateway } from "../../gateway";
import { paymentBreakdown, UNIQUE_CODE_MAX, UNIQUE_CODE_MIN } from "~/lib/payment-pricing";
import { getTransferAccount, vaDiscountPercent } from "./settings";
import { LIVE_PAYMENT_STATUSES, PAID_STATUSES } from "~/lib/order-status";
import { PAYMENT_KINDS } from "~/lib/payment-kinds";
import { DEFAULT_VALIDITY_MS, UniqueCodesExhausted, isId, statusForType } from "./methods";
// ————————————————————————————————————————————— opening the payment

export type PaymentRow = typeof payments.$inferSelect;

/**
 * Opens the order's one payment through the gateway (spec §7 open-va): a VA or manual transfer in
 * 200, an instalment or paylater in 301. Idempotent: the existing payment is returned. A manual
 * transfer gets a 3-digit code no other open manual transfer has (the database's partial unique
 * index decides under concurrency; a collision simply tries another free code).
 * null: the order has no method or is not in a status that is paid this way.
 */
export async function openPayment(orderId: number): Promise<PaymentRow | null> {
  if (!isId(orderId)) return null;
  const db = await getDb();
  const [existing] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  if (existing) return existing;
  const [order] = await db
    .select({
      id: orders.id,
      invoiceId: orders.invoiceId,
      statusId: orders.statusId,
      totalAmount: orders.totalAmount,
      tenor: orders.tenor,
      buyerName: orders.buyerName,
      buyerEmail: orders.buyerEmail,
      buyerPhoneNumber: orders.buyerPhoneNumber,
      method: paymentMethods,
    })
    .from(orders)
    .innerJoin(paymentMethods, eq(paymentMethods.id, orders.paymentMethodId))
    .where(eq(orders.id, orderId));
  if (!order || order.statusId !== statusForType(order.method.type)) return null;
  const method = order.method;
  // No free code: refuse before the gateway is asked for anything.
  const kind = PAYMENT_KINDS[method.type];
  if (kind.transferProof && (await freeUniqueCode()) === null) throw new UniqueCodesExhausted();

  // The cash discount of the moment the payment opens: later changes of the setting leave it as it is (issue 38).
  const discountPercent = await vaDiscountPercent(db);
  const priced = paymentBreakdown(method.type, order.totalAmount, method.fee, 0, discountPercent);
  const gateway = getGateway(method);
  const payable = kind.paysByDeadline;
  const opened = await gateway.openPayment({
    orderId,
    invoiceId: order.invoiceId,
    method: { code: method.code, name: method.name, type: method.type },
    tenor: kind.tenor ? order.tenor : null,
    total: priced.total,
    customer: { name: order.buyerName, email: order.buyerEmail, phone: order.buyerPhoneNumber },
    // The store's deadline, which a real gateway expires the payment at as well (spec §9).
    ...(payable ? { deadline: new Date(Date.now() + DEFAULT_VALIDITY_MS) } : {}),
  });
  const now = new Date();
  // The account this payment shows from now on, whatever the settings say later (issue 27).
  const transferAccount = kind.transferProof ? await getTransferAccount(db) : null;
  const row = {
    orderId,
    paymentMethodId: method.id,
    type: method.type,
    tenor: kind.tenor ? order.tenor : null,
    vaNumber: transferAccount?.accountNumber ?? opened.vaNumber,
    transferAccount,
    billerCode: opened.billerCode ?? null,
    amount: priced.amount,
    discount: priced.discount,
    discountPercent: priced.discount > 0 ? priced.discountPercent : null,
    fee: priced.fee,
    expiresAt: payable ? (opened.expiresAt ?? new Date(now.getTime() + DEFAULT_VALIDITY_MS)) : opened.expiresAt,
    redirectUrl: opened.redirectUrl,
    gateway: gateway.name,
    gatewayRef: opened.gatewayRef,
    createdAt: now,
  };

  // The payment and what the order says is to be paid (orders.payment_total) are written together:
  // every screen, the CLI and the export show the amount the gateway was asked for (issue 25).
  // DO NOTHING on any unique index: this order's payment (a concurrent open won) or a manual transfer's code.
  const insert = (values: typeof payments.$inferInsert) =>
    db.transaction(async (tx) => {
      const [inserted] = await tx.insert(payments).values(values).onConflictDoNothing().returning();
      if (inserted) await tx.update(orders).set({ paymentTotal: inserted.total }).where(eq(orders.id, orderId));
      return inserted;
    });

  if (!kind.transferProof) {
    const inserted = await insert({ ...row, uniqueCode: null, total: priced.total });
    if (inserted) return inserted;
    const [saved] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    return saved ?? null;
  }

  for (let attempt = 0; attempt < 20; attempt++) {
    const code = await freeUniqueCode();
    if (code === null) throw new UniqueCodesExhausted();
    const withCode = paymentBreakdown(method.type, order.totalAmount, method.fee, code, discountPercent);
    const inserted = await insert({ ...row, uniqueCode: code, total: withCode.total });
    if (inserted) return inserted;
    const [won] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    if (won) return won;
  }
  throw new Error("payments: no unique code after 20 attempts");
}

/** A random code no open manual transfer holds; first frees the codes of payments whose order moved on. */
export async function freeUniqueCode(): Promise<number | null> {
  const db = await getDb();
  const pick = async () => {
    const [row] = await queryRows<{ code: number }>(
      db,
      sql`select c as code from generate_series(${UNIQUE_CODE_MIN}::int, ${UNIQUE_CODE_MAX}::int) c
          where not exists (select 1 from payments p where p.unique_code = c and p.closed_at is null)
          order by random() limit 1`,
    );
    return row ? Number(row.code) : null;
  };
  return (await pick()) ?? ((await closeStalePayments()) > 0 ? pick() : null);
}

/** Closes open payments whose order left the statuses a payment lives in (cancelled, paid by ops…). */
export async function closeStalePayments(): Promise<number> {
  const db = await getDb();
  const closed = await queryRows<{ order_id: number }>(
    db,
    sql`update payments p set closed_at = now(),
          closed_reason = case when o.status_id in ${[...PAID_STATUSES]} then 'paid' else 'order-closed' end
        from orders o
        where o.id = p.order_id and p.closed_at is null and o.status_id not in ${[...LIVE_PAYMENT_STATUSES]}
        returning p.order_id`,
  );
  return closed.length;
}
