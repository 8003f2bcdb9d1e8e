import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { createProduct, createVerifiedUser, INCENTIVE_PROMO, realAddress, submission, type TestUser } from "./fixtures";
import { saveDraftAddress, setDraftKtp, startCheckout } from "../store/checkout";
import { createOrderFromDraft } from "../store/checkout";
import { transitionOrder } from "../store/orders";
import { saveUpload } from "../store/orders";

// Orders in a given status for the backend tests (ops commands, balance, e-mails) — made the way a
// buyer makes them (draft, address, createOrderFromDraft) and moved through the status machine.
// Never imported by the app.

/** The path from a fresh order to each status (after 100 or 200). */
const PATHS: Record<number, number[]> = {
  100: [],
  200: [],
  301: [301],
  302: [302],
  300: [300],
  400: [300, 400],
  1: [1],
  2: [2],
};

export async function createOrderInStatus(
  db: Db,
  statusId: 100 | 200 | 301 | 302 | 300 | 400 | 1 | 2,
  options: { user?: TestUser; price?: number } = {},
): Promise<{ orderId: number; user: TestUser; productId: number }> {
  const user = options.user ?? (await createVerifiedUser(db));
  const incentive = statusId === 100;
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
      statusId: incentive ? 100 : 200,
    },
  );
  if (!created.ok) throw new Error(created.message);
  let from = incentive ? 100 : 200;
  for (const to of PATHS[statusId]!) {
    const moved = await transitionOrder(created.orderId, from, to, "system", "test setup");
    if (!moved.ok) throw new Error(`${from} → ${to}: ${moved.message}`);
    from = to;
  }
  return { orderId: created.orderId, user, productId };
}
