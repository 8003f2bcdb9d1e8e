/**
 * Preconditions made by the store, not by the screens (issue 44, decision 0066): an account (activated
 * or not; staff roles with an enrolled second factor) and its signed-in session, through the e2e
 * server's test-only door POST /__test/account (app/routes/test-preconditions.ts), which calls the
 * same store functions as /register, the activation link, the ops CLI, /ops/2fa and /login. The
 * session cookie lands in the page's own browser context (page.request shares its cookies).
 * The screens themselves are driven by the specs about them: registerBuyer() (purchase.ts) and
 * enrolStaffThroughScreens() (staff.ts) keep those flows.
 */
import { expect, type Page } from "@playwright/test";

export type AccountOptions = {
  email: string;
  password: string;
  /** false: registered, not activated (default: activated). */
  activate?: boolean;
  company?: string;
  nip?: string;
  phone?: string;
  fullname?: string;
  /** ["operator"]: the store's first admin (`users:grant-operator`); else back-office role names. */
  roles?: string[];
  /** false: no session (the account only). */
  signIn?: boolean;
};

/** Makes the account (and, unless signIn is false, signs this page's context in as it); its id and TOTP secret. */
export async function makeAccount(page: Page, options: AccountOptions): Promise<{ userId: number; totpSecret?: string }> {
  const form: Record<string, string> = {
    email: options.email,
    password: options.password,
    verified: options.activate === false ? "0" : "1",
    company: options.company ?? "",
    nip: options.nip ?? "",
    phone: options.phone ?? "",
    fullname: options.fullname ?? "",
    roles: (options.roles ?? []).join(" "),
    session: options.signIn === false ? "0" : "1",
  };
  const response = await page.request.post("/__test/account", { form, maxRedirects: 0 });
  expect(response.status(), `POST /__test/account: ${await response.text()}`).toBe(200);
  return (await response.json()) as { userId: number; totpSecret?: string };
}

export type OrderOptions = {
  productId: number;
  /** The checkout form's fields as it posts them (a ticked box "on"). */
  fields: Record<string, string>;
  /** The KTP photo (a JPEG). */
  ktp: Buffer;
  /** A payment method's code (BNI-VA, MANUAL-BNI…): an order without the incentive is paid by it. */
  method?: string;
  tenor?: string;
};

/**
 * An order of the signed-in buyer made by the store's checkout workflow through POST /__test/order
 * (app/routes/test-order.ts, as the API's /order/create): with the incentive it waits in 100, else in
 * 200 with `method` chosen. Its id. The checkout's screens are checkout.spec.ts' and payment.spec.ts'.
 */
export async function makeOrder(page: Page, options: OrderOptions): Promise<number> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    ...options.fields,
    productId: String(options.productId),
    ktp: { name: "ktp.jpg", mimeType: "image/jpeg", buffer: options.ktp },
  };
  if (options.method) multipart.method = options.method;
  if (options.tenor) multipart.tenor = options.tenor;
  const response = await page.request.post("/__test/order", { multipart, maxRedirects: 0 });
  expect(response.status(), `POST /__test/order: ${await response.text()}`).toBe(200);
  return ((await response.json()) as { orderId: number }).orderId;
}
