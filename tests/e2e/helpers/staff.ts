import { randomInt } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { loginAs } from "./index";
import { DESK } from "./phone";
import { BUYER_PASSWORD, ops, registerBuyer } from "./purchase";
import { runOps, type StoreServer } from "./store-server";

/**
 * A new account given staff roles by the real CLI (`users:grant-operator`: 'Admin' when no roles are
 * named; else `users:grant <email> <role…>`), signed in on /login and enrolled at /ops/2fa (the TOTP
 * code computed here from the page's 'Kunci'), in its own desktop-sized context: its page, on /ops.
 * On the shared e2e server, or on a store of the spec's own (`store`, from startStore).
 */
export async function signedInStaff(
  browser: Browser,
  javaScriptEnabled: boolean,
  roles: string[] = [],
  store?: StoreServer,
): Promise<Page> {
  const context = await browser.newContext({
    // A store of the spec's own (startStore), or the shared e2e server (the config's baseURL).
    ...(store ? { baseURL: store.url } : {}),
    ...DESK,
    javaScriptEnabled,
    extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  const page = await context.newPage();
  const { email } = await registerBuyer(page);
  // No roles named: the store's first admin (every area); else just those roles.
  const command = roles.length ? ["users:grant", email, ...roles] : ["users:grant-operator", email];
  if (store) expect((await runOps(store.dataDir, command)).code).toBe(0);
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
