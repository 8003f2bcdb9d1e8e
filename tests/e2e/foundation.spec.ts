import { expect } from "@playwright/test";
import { DEMO_EMAIL, DEMO_PASSWORD, fillLogin, loginAs, test } from "./helpers";

// The foundation every screen relies on: the guard, login and its redirects, the error pages, the
// health endpoint and the security headers. Runs in both projects (with and without JavaScript).

test.describe("guard and login", () => {
  test("an anonymous visitor is sent to /authrequired and, after logging in, back to where they were going", async ({ page }) => {
    // (Not /checkout: it sends a user without a checkout draft on to /home.)
    await page.goto("/edit-profile?x=1");
    await expect(page).toHaveURL("/authrequired?redirect=%2Fedit-profile%3Fx%3D1");
    await expect(page.getByText("Halo, PLNers!")).toBeVisible();

    await page.getByRole("link", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await fillLogin(page, DEMO_EMAIL, DEMO_PASSWORD);
    await expect(page).toHaveURL("/edit-profile?x=1");
  });

  test("a visitor whose session ended on the way is sent to /authrequired with the address they asked for", async ({ page, context }) => {
    // With JavaScript the click is a client navigation: its request is /profile.data with React
    // Router's own parameters; the guard must name the page, not that request (decision 0004).
    await loginAs(page);
    await page.goto("/profile");
    await context.clearCookies();
    await page.getByRole("link", { name: "Bantuan" }).click();
    await expect(page).toHaveURL("/authrequired?redirect=%2Fprofile%3Fsheet%3Dbantuan");
  });

  test("a signed-in user opening /login goes to /home", async ({ page }) => {
    await loginAs(page);
    await page.goto("/login");
    await expect(page).toHaveURL("/home");
  });

  test("/auth goes to /login", async ({ page }) => {
    await page.goto("/auth");
    await expect(page).toHaveURL("/login");
  });

  for (const target of ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    test(`login with redirect=${target} stays on this site`, async ({ page, baseURL }) => {
      await loginAs(page, DEMO_EMAIL, DEMO_PASSWORD, target);
      await page.waitForLoadState("load");
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      expect(new URL(page.url()).pathname).not.toBe("/login");
    });
  }

  test("a wrong password shows the spec's message and keeps the typed e-mail", async ({ page, javaScriptEnabled }) => {
    await page.goto("/login");
    await fillLogin(page, DEMO_EMAIL, "Salah12345!");
    await expect(page.getByRole("alert").filter({ hasText: "Email atau Kata Sandi salah." })).toHaveText("Email atau Kata Sandi salah.");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(DEMO_EMAIL);
    // The server never sends a password back: the re-rendered page (no JavaScript) has it empty.
    if (!javaScriptEnabled) await expect(page.getByLabel("Kata Sandi", { exact: true })).toHaveValue("");
  });

  test("an empty login form says which fields are missing", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByText("Email tidak boleh kosong.")).toBeVisible();
    await expect(page.getByText("Kata Sandi tidak boleh kosong.")).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });
});

test.describe("error pages", () => {
  test("an unknown path answers 404 with 'Page Not Found'", async ({ page }) => {
    const response = await page.goto("/no-such-page-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Page Not Found")).toBeVisible();
  });

  test("/system-error without a stored message shows '-'", async ({ page }) => {
    await page.goto("/system-error");
    await expect(page.locator(".system-error-message")).toHaveText("-");
  });
});

test.describe("operations and security", () => {
  test("/healthz answers 200 'ok'", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  test("documents carry a CSP with a per-request nonce that the page's scripts use", async ({ request }) => {
    const first = await request.get("/login");
    const csp = first.headers()["content-security-policy"] ?? "";
    const nonce = csp.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(nonce, `nonce in CSP: ${csp}`).toBeTruthy();
    const html = await first.text();
    expect(html).toContain(`nonce="${nonce}"`);
    // No inline script runs without the nonce.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    const second = await request.get("/login");
    const again = (second.headers()["content-security-policy"] ?? "").match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(again).toBeTruthy();
    expect(again).not.toBe(nonce);
  });
});
