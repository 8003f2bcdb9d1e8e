import { randomInt } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { test } from "./helpers";
import { newBuyer, newIncentiveOrder, ops } from "./helpers/purchase";
import { PHONE } from "./helpers/phone";

// The bell (issue 28), with JavaScript on and off: an operator approves a buyer's incentive → the
// bell on the main layout shows '1' (its name says so too); /notifikasi lists the approval, unread,
// with a link to the order; opening the page clears the badge; another buyer's /notifikasi is empty.

test.describe.configure({ timeout: 240_000 });
test.use({
  viewport: { width: 390, height: 844 },
  extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
});

test("an approved incentive rings the bell; /notifikasi lists it with its order, opening it clears the badge; another buyer sees none", async ({
  page,
  browser,
  javaScriptEnabled,
}, testInfo) => {
  await newBuyer(page);
  const orderId = await newIncentiveOrder(page);
  await page.goto("/home");
  const bell = page.getByTestId("notification-bell");
  await expect(bell).toHaveAccessibleName("Notifikasi");
  await expect(page.getByTestId("notification-badge")).toHaveCount(0);

  await ops("orders:approve-incentive", String(orderId));
  await page.goto("/home");
  await expect(page.getByRole("link", { name: "Notifikasi, 1 belum dibaca" })).toBeVisible();
  await expect(page.getByTestId("notification-badge")).toHaveText("1");
  await page.screenshot({ path: testInfo.outputPath("bell.png") });

  await bell.click();
  await expect(page).toHaveURL("/notifikasi");
  await expect(page.getByRole("heading", { name: "Notifikasi" })).toBeVisible();
  const items = page.getByTestId("notification");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText("Pengajuan Insentif Disetujui");
  await expect(items.first().getByRole("img", { name: "Belum dibaca" })).toBeVisible();
  // axe runs in the page: with JavaScript on (the nojs page is the same server-rendered HTML).
  if (javaScriptEnabled) expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("notifikasi.png"), fullPage: true });

  // The link leads to the order; back on a page with the bell, the badge is gone.
  await items.first().getByRole("link").click();
  await expect(page).toHaveURL(`/transaction-detail/${orderId}`);
  await page.goto("/home");
  await expect(page.getByTestId("notification-bell")).toHaveAccessibleName("Notifikasi");
  await expect(page.getByTestId("notification-badge")).toHaveCount(0);
  // Read now: listed without the unread mark.
  await page.goto("/notifikasi");
  await expect(page.getByTestId("notification")).toHaveCount(1);
  await expect(page.getByTestId("notification-unread")).toHaveCount(0);

  const other = await browser.newContext({
    javaScriptEnabled,
    ...PHONE,
    extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  const otherPage = await other.newPage();
  await newBuyer(otherPage);
  await otherPage.goto("/notifikasi");
  await expect(otherPage.getByText("Belum ada notifikasi")).toBeVisible();
  await expect(otherPage.getByTestId("notification")).toHaveCount(0);
  await other.close();
});
