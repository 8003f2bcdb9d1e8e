import { randomInt } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { loginAs, uniqueEmail } from "./index";
import { DESK } from "./phone";
import { makeAccount } from "./preconditions";
import { BUYER_PASSWORD, ops, registerBuyer } from "./purchase";
import { opsOverSocket, type StoreServer } from "./store-server";

/** A desktop-sized context of its own on the shared e2e server, or on a store of the spec's own (startStore). */
async function staffContext(browser: Browser, javaScriptEnabled: boolean, store?: StoreServer) {
  return browser.newContext({
    // A store of the spec's own (startStore), or the shared e2e server (the config's baseURL).
    ...(store ? { baseURL: store.url } : {}),
    ...DESK,
    javaScriptEnabled,
    extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
}

/**
 * A new staff member signed in, second factor passed, in its own desktop-sized context: its page, on
 * /ops. Made by the store (helpers/preconditions.ts: 'Admin' as `users:grant-operator` when no roles
 * are named, else those roles as `users:grant`; the factor enrolled as /ops/2fa enrols it; the session
 * the login and /ops/2fa give). ops.spec.ts drives that whole path through the screens
 * (enrolStaffThroughScreens). On the shared e2e server, or on a store of the spec's own (`store`).
 */
export async function signedInStaff(
  browser: Browser,
  javaScriptEnabled: boolean,
  roles: string[] = [],
  store?: StoreServer,
): Promise<Page> {
  const page = await (await staffContext(browser, javaScriptEnabled, store)).newPage();
  await makeAccount(page, { email: uniqueEmail("staf"), password: BUYER_PASSWORD, roles: roles.length ? roles : ["operator"] });
  await page.goto("/ops");
  await expect(page).toHaveURL("/ops");
  await expect(page.getByRole("heading", { name: "Antrean" })).toBeVisible();
  return page;
}

/**
 * signedInStaff() through the screens, for the spec about them (ops.spec.ts): a new account given staff roles by the real CLI (`users:grant-operator`: 'Admin' when no roles are
 * named; else `users:grant <email> <role…>`), signed in on /login and enrolled at /ops/2fa (the TOTP
 * code computed here from the page's 'Kunci'), in its own desktop-sized context: its page, on /ops.
 * On the shared e2e server, or on a store of the spec's own (`store`, from startStore).
 */
export async function enrolStaffThroughScreens(
  browser: Browser,
  javaScriptEnabled: boolean,
  roles: string[] = [],
  store?: StoreServer,
): Promise<Page> {
  const context = await staffContext(browser, javaScriptEnabled, store);
  const page = await context.newPage();
  const { email } = await registerBuyer(page);
  // No roles named: the store's first admin (every area); else just those roles.
  const command = roles.length ? ["users:grant", email, ...roles] : ["users:grant-operator", email];
  if (store) expect((await opsOverSocket(store.dataDir, command)).code).toBe(0);
  else await ops(...command);
  await context.clearCookies();
  await loginAs(page, email, BUYER_PASSWORD, "/ops");
  await expect(page).toHaveURL("/ops/2fa");
  await expect(page.getByRole("heading", { name: "Verifikasi Dua Langkah" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Kode QR untuk aplikasi autentikator" })).toBeVisible();
  await expect(page.getByText("Kunci", { exact: true })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s+/g, "");
  // Nothing of /ops before the factor: every screen comes back here.
  await page.goto("/ops/search");
  await expect(page).toHaveURL("/ops/2fa");

  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  await page.getByLabel("Kode", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Aktifkan" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await page.getByRole("link", { name: "Lanjut ke Back Office" }).click();
  await expect(page).toHaveURL("/ops");
  await expect(page.getByRole("heading", { name: "Antrean" })).toBeVisible();
  return page;
}
