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
export type RuleFailure = { ok: false; message: string; field?: "buyerNik" | "buyerNip" | "ktp" | "address" | "insentif" | "ajukanInsentifPegawai" | "product" };

/** DESIGN §6: the statuses each status may move to. 500, 1 and 2 are terminal. */
export const ORDER_TRANSITIONS: Record<number, number[]> = {
  100: [200, 1, 2],
  200: [301, 302, 300, 1, 2],
  301: [300, 1, 2],
  302: [300, 1, 2],
  300: [400],
  400: [500],
  500: [],
  1: [],
  2: [],
};

export async function checkOrderRules(userId: number, submission: CheckoutSubmission): Promise<{ ok: true } | RuleFailure> {
  void userId, submission;
  throw new Error("not implemented");
}
export async function createOrderFromDraft(
  userId: number,
  idempotencyKey: string,
  submission: CheckoutSubmission,
  options: { statusId: 100 | 200 | 301; paymentMethodId?: number; tenor?: number },
): Promise<{ ok: true; orderId: number; created: boolean } | RuleFailure> {
  void userId, idempotencyKey, submission, options;
  throw new Error("not implemented");
}
export async function getOwnedOrderSummary(orderId: number, userId: number): Promise<{ id: number; invoiceId: string; statusId: number; statusName: string } | null> {
  void orderId, userId;
  throw new Error("not implemented");
}
export async function transitionOrder(orderId: number, from: number, to: number, actor: string, note?: string): Promise<{ ok: true } | { ok: false; message: string }> {
  void orderId, from, to, actor, note;
  throw new Error("not implemented");
}
