import { expect, type Locator, type Page } from "@playwright/test";
import { DEMO_EMAIL, DEMO_PASSWORD, fillLogin, loginAs, test } from "./helpers";

// Issue 9, screens: what a person on a 390 px phone meets, with and without JavaScript — errors they
// cannot miss, banners that lead somewhere, whole card titles, 44 px targets, a toast that closes,
// a back arrow that returns to the search, visible pending states, tabs on /authrequired.

/** Width and height of what a finger can hit. */
async function tapSize(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, "the control is on screen").not.toBeNull();
  return { width: Math.round(box!.width), height: Math.round(box!.height) };
}

async function expectTapTarget(locator: Locator, what: string) {
  const { width, height } = await tapSize(locator);
  expect(width, `${what}: width`).toBeGreaterThanOrEqual(44);
  expect(height, `${what}: height`).toBeGreaterThanOrEqual(44);
}

/** The bottom edge of the sticky bar at the top of the page. */
async function stickyBarBottom(page: Page) {
  const box = await page.locator("header.top-bar").boundingBox();
  return box ? box.y + box.height : 0;
}

test.describe("errors after a failed submission", () => {
  test("register: a summary at the top links to every field to fix; the first gets the focus", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Nama Lengkap", { exact: true }).fill("Ani Lestari");
    await page.getByLabel("Kata Sandi", { exact: true }).fill("Rahasia123!");
    await page.getByLabel("Konfirmasi Kata Sandi", { exact: true }).fill("Rahasia124!");
    await page.getByRole("button", { name: "Daftar", exact: true }).click();

    const summary = page.getByTestId("error-summary");
    await expect(summary).toHaveAttribute("role", "alert");
    await expect(summary.getByRole("heading")).toHaveText("Ada 5 isian yang perlu diperbaiki:");
    await expect(summary.getByRole("link")).toHaveText(["Nomor HP", "NIP", "Perusahaan", "Email", "Konfirmasi Kata Sandi"]);
    // The summary is the first thing on the form, on screen without scrolling.
    await expect(summary).toBeInViewport();
    // Focus is on the first field to fix (server-rendered autofocus without JavaScript).
    await expect(page.getByLabel("Nomor HP", { exact: true })).toBeFocused();

    // The confirmation field, below the fold, is one tap away and not hidden by the sticky bar.
    const confirmation = page.getByLabel("Konfirmasi Kata Sandi", { exact: true });
    await summary.getByRole("link", { name: "Konfirmasi Kata Sandi" }).click();
    await expect(confirmation).toBeInViewport();
    const label = await page.locator("label", { hasText: /^Konfirmasi Kata Sandi$/ }).boundingBox();
    expect(label!.y).toBeGreaterThanOrEqual(await stickyBarBottom(page));
    await expect(page.getByText("Konfirmasi Kata Sandi anda tidak sesuai.")).toBeInViewport();
  });

  test("login: the only field to fix is named and focused; a wrong password shows no summary", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email", { exact: true }).fill(DEMO_EMAIL);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByTestId("error-summary").getByRole("link")).toHaveText(["Kata Sandi"]);
    await expect(page.getByLabel("Kata Sandi", { exact: true })).toBeFocused();

    await fillLogin(page, DEMO_EMAIL, "Salah12345!");
    await expect(page.getByText("Email atau Kata Sandi salah.")).toBeVisible();
    await expect(page.getByTestId("error-summary")).toHaveCount(0);
  });

  test("edit-profile has the summary too", async ({ page }) => {
    await loginAs(page);
    await page.goto("/edit-profile");
    await page.getByLabel("Nomor HP", { exact: true }).fill("0812");
    await page.getByRole("button", { name: "Simpan", exact: true }).click();
    await expect(page.getByTestId("error-summary").getByRole("link")).toHaveText(["Nomor HP"]);
    await expect(page.getByLabel("Nomor HP", { exact: true })).toBeFocused();
  });
});

test("every banner links to what it advertises", async ({ page }) => {
  await page.goto("/home");
  const links = page.getByTestId("banner-link");
  await expect(links).toHaveCount(5);
  const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute("href")));
  for (const href of hrefs) expect(href).toMatch(/^\/(res-search\?keyword=[^&]+(&categories=\d+)?|detail\/\d+)$/);
  // Each link has a name (the banner's text) and leads to products.
  await expect(links.first()).toHaveAccessibleName("Promo Pegawai PLN: potongan Rp1.000.000");
  await links.first().click();
  await expect(page).toHaveURL("/res-search?keyword=listrik");
  await expect(page.getByTestId("product-card").first()).toBeVisible();
});

test("card titles use two lines with an ellipsis; the detail shows the whole title", async ({ page }) => {
  const title = "Smoot Tempur Motor Listrik Semi-Trail untuk Medan Perkebunan dan Jalan Desa";
  await page.goto("/res-search?keyword=smoot");
  const cardTitle = page.getByTestId("product-card").first().locator(".product-card-title");
  await expect(cardTitle).toHaveText(title);
  const lines = await cardTitle.evaluate((el) => {
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
    return { shown: Math.round(el.clientHeight / lineHeight), clipped: el.scrollHeight > el.clientHeight + 1 };
  });
  expect(lines).toEqual({ shown: 2, clipped: true });
  await page.getByTestId("product-card").first().getByRole("link").click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
});

test("the home, search and results pages have a heading and named search entry; the strips can take the focus", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Toko Pegawai PLN — Beranda");
  await expect(page.getByRole("link", { name: "Cari produk di Toko Pegawai" })).toHaveAttribute("href", "/search");
  const strip = page.getByRole("list", { name: "Daftar promo, geser untuk melihat lainnya" });
  await expect(strip).toHaveAttribute("tabindex", "0");
  await page.goto("/search");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pencarian");
  await page.goto("/res-search?keyword=motor");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hasil pencarian “motor”");
  await page.goto("/detail/1");
  await expect(page.getByRole("list", { name: /^Foto produk, \d+ foto$/ })).toHaveAttribute("tabindex", "0");
});

test("controls are at least 44 × 44 px", async ({ page }) => {
  await page.goto("/home");
  await expectTapTarget(page.getByRole("link", { name: "Login", exact: true }), "header Login");
  await expectTapTarget(page.getByRole("link", { name: "Cari produk di Toko Pegawai" }), "home search entry");

  await page.goto("/res-search?keyword=motor&sheet=filter");
  await expectTapTarget(page.getByRole("banner").getByRole("link", { name: "Kembali" }), "back arrow");
  await expectTapTarget(page.getByRole("link", { name: /^Filter/ }), "Filter");
  const sheet = page.getByTestId("filter-sheet");
  await expectTapTarget(sheet.getByRole("link", { name: "Tutup" }), "sheet close");
  for (const chip of ["Harga Tertinggi", "Motor Listrik", "Aksesori"])
    await expectTapTarget(sheet.locator(".choice", { hasText: chip }), `chip ${chip}`);

  await page.goto("/search?keyword=motor");
  await expectTapTarget(page.getByRole("link", { name: "Hapus kata kunci" }), "clear keyword");

  await loginAs(page);
  await page.goto("/profile");
  await expectTapTarget(page.getByRole("link", { name: "Ubah Profil" }), "edit profile icon");

  // The balance and its history from the profile, not only from the one-time done sheet (issue 38).
  const balanceRow = page.getByRole("link", { name: /^Riwayat Saldo Rp/ });
  await expectTapTarget(balanceRow, "balance row");
  const shown = await page.getByTestId("profile-balance").textContent();
  await balanceRow.click();
  await expect(page).toHaveURL("/history-balance");
  await expect(page.getByTestId("balance")).toHaveText(shown!);
});

test("the toast sits above the tabs and closes without JavaScript too", async ({ page }) => {
  await page.goto("/login");
  await fillLogin(page, DEMO_EMAIL, DEMO_PASSWORD);
  await expect(page).toHaveURL("/home");
  const toast = page.getByTestId("toast");
  await expect(toast).toHaveText(/Login berhasil/);

  const toastBox = (await toast.boundingBox())!;
  const tabsBox = (await page.getByRole("navigation", { name: "Menu utama" }).boundingBox())!;
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(tabsBox.y);

  const close = page.getByRole("link", { name: "Tutup pesan" });
  await expectTapTarget(close, "toast close");
  await close.click();
  await expect(toast).toHaveCount(0);
  await expect(page).toHaveURL("/home");
  // Closed for good: the message was shown once.
  await page.reload();
  await expect(toast).toHaveCount(0);
});

test("the detail's back arrow returns to the search the product was found in", async ({ page }) => {
  await page.goto("/res-search?keyword=kompor&sort=1");
  await page.getByTestId("product-card").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/detail\/\d+/);
  await page.getByRole("banner").getByRole("link", { name: "Kembali" }).click();
  await expect(page).toHaveURL("/res-search?keyword=kompor&sort=1");
  await expect(page.getByTestId("results-count")).toBeVisible();
});

test("a 'from' that leads off the site is ignored", async ({ page }) => {
  for (const from of ["//evil.example", "https://evil.example/", "/\\evil.example"]) {
    await page.goto(`/detail/1?from=${encodeURIComponent(from)}`);
    await expect(page.getByRole("banner").getByRole("link", { name: "Kembali" })).toHaveAttribute("href", "/home");
  }
});

test("a submitting form says 'Memproses…' with a spinner and aria-busy", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "Without JavaScript the browser's own loading indicator shows the wait.");
  await page.goto("/login");
  // Hold the login request, to look at the button while it waits.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/login*", async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  await fillLogin(page, DEMO_EMAIL, DEMO_PASSWORD);
  const button = page.locator("form button[type=submit]");
  await expect(button).toHaveText("Memproses…");
  await expect(button).toHaveAttribute("aria-busy", "true");
  await expect(button.locator(".spinner")).toBeVisible();
  release();
  await expect(page).toHaveURL("/home", { timeout: 15_000 });
});

test("a guest who taps Profil keeps the bottom tabs on /authrequired", async ({ page }) => {
  await page.goto("/home");
  await page.getByRole("navigation", { name: "Menu utama" }).getByRole("link", { name: "Profil" }).click();
  await expect(page).toHaveURL("/authrequired?redirect=%2Fprofile");
  const tabs = page.getByRole("navigation", { name: "Menu utama" });
  await expect(tabs).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Profil" })).toHaveClass(/active/);
  await tabs.getByRole("link", { name: "Beranda" }).click();
  await expect(page).toHaveURL("/home");
});
