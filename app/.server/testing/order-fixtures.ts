import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { createProduct, createVerifiedUser, INCENTIVE_PROMO, realAddress, submission, type TestUser } from "./fixtures";
import { saveDraftAddress, setDraftKtp, startCheckout } from "../store/checkout";
import { createOrderFromDraft } from "../store/checkout";
import { transitionOrder } from "../store/orders";
import { recordPaymentReceipt } from "../store/refunds";
import { saveUpload } from "../store/orders";
import { ORDER_STATUS, type OrderStatusId } from "~/lib/order-status";

// Orders in a given status for the backend tests (ops commands, balance, e-mails) — made the way a
// buyer makes them (draft, address, createOrderFromDraft) and moved through the status machine.
// Never imported by the app.

const S = ORDER_STATUS;
type FixtureStatus = Exclude<OrderStatusId, typeof S.DONE>;

/** The path from a fresh order to each status (after 100 or 200). */
const PATHS: Record<FixtureStatus, OrderStatusId[]> = {
  [S.INCENTIVE_REVIEW]: [],
  [S.AWAITING_PAYMENT]: [],
  [S.INSTALLMENT_REVIEW]: [S.INSTALLMENT_REVIEW],
  [S.TRANSFER_REVIEW]: [S.TRANSFER_REVIEW],
  [S.PAYMENT_RECEIVED]: [S.PAYMENT_RECEIVED],
  [S.SHIPPED]: [S.PAYMENT_RECEIVED, S.SHIPPED],
  [S.CANCELLED]: [S.CANCELLED],
  [S.EXPIRED_OR_REJECTED]: [S.EXPIRED_OR_REJECTED],
};

export async function createOrderInStatus(
  db: Db,
  statusId: FixtureStatus,
  options: { user?: TestUser; price?: number } = {},
): Promise<{ orderId: number; user: TestUser; productId: number }> {
  const user = options.user ?? (await createVerifiedUser(db));
  const incentive = statusId === S.INCENTIVE_REVIEW;
  const productId = await createProduct(db, { price: options.price ?? 28_500_000, stock: 5, promos: incentive ? [INCENTIVE_PROMO] : [] });
  const started = await startCheckout({ id: user.id, verified: true }, productId);
  if (!started.ok) throw new Error(started.message);
  await saveDraftAddress(user.id, await realAddress(db));
  if (incentive) {
    const ktp = await saveUpload(user.id, "ktp", { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), contentType: "image/jpeg" });
    await setDraftKtp(user.id, ktp);
  }
  const created = await createOrderFromDraft(
    user.id,
    randomUUID(),
    submission(user, incentive ? { insentif: true, buyerDadName: "Ahmad" } : {}),
    {
      statusId: incentive ? S.INCENTIVE_REVIEW : S.AWAITING_PAYMENT,
    },
  );
  if (!created.ok) throw new Error(created.message);
  let from: OrderStatusId = incentive ? S.INCENTIVE_REVIEW : S.AWAITING_PAYMENT;
  for (const to of PATHS[statusId]) {
    // Reaching 300 stands in for the payment's money event, which records the receipt (issue 45 item 4).
    const moved = await transitionOrder(created.orderId, from, to, "system", "test setup", {
      onMoved: to === S.PAYMENT_RECEIVED ? (tx) => recordPaymentReceipt(tx, created.orderId) : undefined,
    });
    if (!moved.ok) throw new Error(`${from} → ${to}: ${moved.message}`);
    from = to;
  }
  return { orderId: created.orderId, user, productId };
}
