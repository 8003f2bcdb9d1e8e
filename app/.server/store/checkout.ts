import type { AddressInput, CheckoutDraftValues } from "../db/schema";
import type { CheckoutPricingInput, CheckoutPromo } from "~/lib/pricing";
import type { ResolvedAddress } from "./locations";

export type CheckoutProduct = { id: number; title: string; imageUrl: string | null; stock: number; pricing: CheckoutPricingInput; hasIncentive: boolean };
export type CheckoutDraft = {
  product: CheckoutProduct;
  values: CheckoutDraftValues;
  ktp: { id: string; url: string } | null;
  address: ResolvedAddress | null;
  paymentMethodId: number | null;
  tenor: number | null;
  updatedAt: Date;
};

export async function startCheckout(user: { id: number; verified: boolean }, productId: number): Promise<{ ok: true } | { ok: false; message: string }> {
  void user, productId;
  throw new Error("not implemented");
}
export async function getCheckoutDraft(userId: number): Promise<CheckoutDraft | null> {
  void userId;
  throw new Error("not implemented");
}
export async function saveDraftValues(userId: number, values: CheckoutDraftValues): Promise<void> {
  void userId, values;
  throw new Error("not implemented");
}
export async function setDraftKtp(userId: number, uploadId: string): Promise<void> {
  void userId, uploadId;
  throw new Error("not implemented");
}
export async function saveDraftAddress(userId: number, address: AddressInput): Promise<void> {
  void userId, address;
  throw new Error("not implemented");
}
export async function getSavedAddress(userId: number): Promise<AddressInput | null> {
  void userId;
  throw new Error("not implemented");
}
export async function clearCheckoutDraft(userId: number): Promise<void> {
  void userId;
  throw new Error("not implemented");
}
export async function checkEmployeePromo(userId: number, productId: number, nip: string): Promise<CheckoutPromo | null> {
  void userId, productId, nip;
  throw new Error("not implemented");
}
