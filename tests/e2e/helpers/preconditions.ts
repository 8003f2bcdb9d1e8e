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
