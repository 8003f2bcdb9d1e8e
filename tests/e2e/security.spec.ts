import { randomInt, randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { DEMO_EMAIL, DEMO_PASSWORD, loginAs, readLatestEmail, test } from "./helpers";

// Issue 11 and the server-side items of issue 9, as an attacker on another machine meets them. The
// e2e server runs as behind one reverse proxy (TRUST_PROXY=1): a request carrying X-Forwarded-For
// comes "from" the last address in it, as the proxy would write it.

const remoteAddress = () => `198.51.100.${randomInt(1, 255)}`;
const viaProxy = (address = remoteAddress()) => ({ "X-Forwarded-For": address });
test.use({ extraHTTPHeaders: viaProxy(`10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`) });

const ATTACKER_SITE = "http://evil.test";

/** Serves `html` as a page of another site (no network: the browser's request is answered here). */
async function pageOnAnotherSite(page: Page, html: string) {
  await page.route(`${ATTACKER_SITE}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: `<!doctype html><html><body>${html}</body></html>` }),
  );
  await page.goto(`${ATTACKER_SITE}/`);
}

async function expectSecurityHeaders(response: { headers(): Record<string, string> }, what: string) {
  expect(response.headers(), what).toMatchObject({
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
  });
}

test.describe("the demo outbox (decision 0005)", () => {
  // These requests say themselves whether they come through the proxy.
  test.use({ extraHTTPHeaders: {} });

  test("shows nobody's reset link to another machine: a reset asked for the demo account cannot be read", async ({ request }) => {
    const attacker = viaProxy();
    const asked = await request.post("/send-email", { form: { email: DEMO_EMAIL }, headers: attacker, maxRedirects: 0 });
    expect(asked.status()).toBe(302);
    for (const path of ["/outbox", "/outbox.data", `/outbox?key=${"x".repeat(24)}`]) {
      const page = await request.get(path, { headers: attacker });
      expect(page.status(), path).toBe(404);
      expect(await page.text(), path).not.toMatch(/secretCode|verificationCode/);
    }
    // The mail was written (the operator's key opens the page): it is only hidden.
    const mail = await readLatestEmail(request, DEMO_EMAIL, { subject: "Atur Ulang Kata Sandi Toko Pegawai PLN" });
    expect(mail.link).toContain("secretCode=");
  });

  test("opens for a request made on this machine straight to the app", async ({ request }) => {
    // No X-Forwarded-For: the socket is loopback and no proxy is in between (`npm start` on a laptop).
    const outbox = await request.get("/outbox");
    expect(outbox.status()).toBe(200);
    expect(await outbox.text()).toContain("<h1>Kotak Keluar Email</h1>");
    // A proxy on the same machine does not make a visitor local.
    expect((await request.get("/outbox", { headers: { "X-Forwarded-For": "127.0.0.1" } })).status()).toBe(404);
  });
});

test.describe("client address and protocol behind the proxy (decision 0006)", () => {
  test("a client-written X-Forwarded-For cannot choose the address: 40 wrong logins with varying first entries are limited", async ({
    request,
  }) => {
    const proxySaw = remoteAddress();
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) {
      const answer = await request.post("/login", {
        form: { email: `korban-${proxySaw}@pln.co.id`, password: `salah-${i}` },
        headers: { "X-Forwarded-For": `203.0.113.${i}, ${proxySaw}` },
        maxRedirects: 0,
      });
      statuses.push(answer.status());
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual(Array(30).fill(429));
  });

  test("behind a TLS proxy forms work and answers carry HSTS (X-Forwarded-Proto from the proxy); a protocol the client wrote is not believed", async ({
    request,
    baseURL,
  }) => {
    const httpsOrigin = baseURL!.replace(/^http:/, "https:");
    const throughTls = await request.post("/login", {
      form: { email: "tidak-ada@pln.co.id", password: "salah" },
      headers: { Origin: httpsOrigin, "X-Forwarded-Proto": "https" },
    });
    expect(throughTls.status()).toBe(400);
    expect(await throughTls.text()).toContain("Email atau Kata Sandi salah.");
    // The client wrote https; the proxy appended what it really saw (http).
    const spoofed = await request.post("/login", {
      form: { email: "tidak-ada@pln.co.id", password: "salah" },
      headers: { Origin: httpsOrigin, "X-Forwarded-Proto": "https, http" },
    });
    expect(spoofed.status()).toBe(403);
    // HSTS (issue 25): over HTTPS through the proxy, pages and files alike; never over plain HTTP.
    const hsts = "max-age=31536000; includeSubDomains";
    expect(throughTls.headers()["strict-transport-security"]).toBe(hsts);
    for (const path of ["/home", "/healthz", "/images/payment/bni.svg"]) {
      expect((await request.get(path, { headers: { "X-Forwarded-Proto": "https" } })).headers()["strict-transport-security"], path).toBe(
        hsts,
      );
      expect((await request.get(path)).headers()["strict-transport-security"], path).toBeUndefined();
    }
    expect(spoofed.headers()["strict-transport-security"]).toBeUndefined();
  });
});

test.describe("cross-site posts", () => {
  test("a form posted from another site gets the 'Akses Ditolak' page", async ({ page, baseURL }) => {
    await pageOnAnotherSite(
      page,
      `<form method="post" action="${baseURL}/login"><input name="email" value="${DEMO_EMAIL}"><input name="password" value="tebakan"><button>Kirim</button></form>`,
    );
    const answer = page.waitForResponse(`${baseURL}/login`);
    await page.getByRole("button", { name: "Kirim" }).click();
    expect((await answer).status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Akses Ditolak" })).toBeVisible();
    await expect(page.getByText("Permintaan ditolak: formulir harus dikirim dari situs ini.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Kembali ke Beranda" })).toBeVisible();
  });

  test("Origin: null and a foreign Origin are refused on resource routes and pages alike, with the page", async ({ request }) => {
    for (const [path, origin] of [
      ["/logout", "null"],
      ["/resend-verification", "null"],
      ["/verify-account", "null"],
      ["/login", "https://evil.example"],
      ["/register", "null"],
    ]) {
      const answer = await request.post(path, { form: { email: "a@pln.co.id" }, headers: { Origin: origin }, maxRedirects: 0 });
      expect(answer.status(), `${path} from ${origin}`).toBe(403);
      expect(await answer.text(), path).not.toBe("Bad Request");
    }
    const page = await request.post("/login", { form: { email: "a@pln.co.id" }, headers: { Origin: "https://evil.example" } });
    expect(await page.text()).toContain("Akses Ditolak");
  });
});

test.describe("hostile requests", () => {
  test("a body over the limit is answered 413 with an Indonesian page; upload routes take photos", async ({ request }) => {
    const big = await request.post("/login", {
      data: Buffer.alloc(2 * 1024 * 1024, "a"),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(big.status()).toBe(413);
    expect(await big.text()).toContain("Data yang Anda kirim terlalu besar (maksimal 64 KB)");
    await expectSecurityHeaders(big, "413");
    const upload = await request.post("/checkout", {
      data: Buffer.alloc(6 * 1024 * 1024, "a"),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      maxRedirects: 0,
    });
    expect(upload.status()).not.toBe(413);
    expect(upload.status()).toBeLessThan(500);
  });

  test("unknown methods answer 405, never 500", async ({ request }) => {
    for (const path of ["/home", "/detail/1", "/login", "/nope"]) {
      for (const method of ["TRACE", "OPTIONS", "PROPFIND"]) {
        expect((await request.fetch(path, { method })).status(), `${method} ${path}`).toBe(405);
      }
    }
  });

  test("bodies that are not forms on /detail/{id} answer 4xx for every method", async ({ request }) => {
    const bodies: [string, Record<string, string>, string | undefined][] = [
      ["text/plain", { "Content-Type": "text/plain" }, "intent=order"],
      ["JSON", { "Content-Type": "application/json" }, '{"intent":"order"}'],
      ["no content type", {}, undefined],
      ["broken multipart", { "Content-Type": "multipart/form-data; boundary=x" }, "garbage"],
    ];
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const [what, headers, data] of bodies) {
        const status = (await request.fetch("/detail/1", { method, headers, data, maxRedirects: 0 })).status();
        expect(status, `${method} ${what}`).toBeGreaterThanOrEqual(400);
        expect(status, `${method} ${what}`).toBeLessThan(500);
      }
    }
  });

  test("the return path after login and after 'Kirim Ulang' stays on the site", async ({ page }) => {
    await loginAs(page);
    for (const target of ["/.//evil.com", "/..//evil.com", "/%2e%2e//evil.com"]) {
      const resend = await page.request.post("/resend-verification", { form: { redirectTo: target }, maxRedirects: 0 });
      expect(resend.headers().location, target).toBe("/home");
    }
    for (const target of ["/.//evil.com", "/..//evil.com", "/%2e%2e//evil.com"]) {
      const guest = await page.context().browser()!.newContext();
      const login = await guest.request.post(`${new URL(page.url()).origin}/login`, {
        form: { email: DEMO_EMAIL, password: DEMO_PASSWORD, redirect: target },
        maxRedirects: 0,
      });
      expect(login.status(), target).toBe(302);
      expect(login.headers().location, target).toBe("/home");
      await guest.close();
    }
  });
});

test.describe("headers and caching", () => {
  async function signedInRequest(page: Page): Promise<APIRequestContext> {
    await loginAs(page);
    return page.request;
  }

  test("every kind of answer carries the security headers; personal answers are private and not stored", async ({ page, request }) => {
    const answers = {
      ".data": await request.get("/home.data"),
      redirect: await request.get("/auth", { maxRedirects: 0 }),
      "plain 404": await request.get("/media/tidak-ada.webp"),
      document: await request.get("/home"),
    };
    for (const [what, answer] of Object.entries(answers)) {
      await expectSecurityHeaders(answer, what);
      if (what !== "plain 404") expect(answer.headers()["cache-control"], what).toBe("private, no-store");
    }
    const signedIn = await signedInRequest(page);
    for (const path of ["/profile", "/profile.data", "/edit-profile.data", "/transaction.data"]) {
      const answer = await signedIn.get(path);
      expect(answer.status(), path).toBe(200);
      expect(answer.headers()["cache-control"], path).toBe("private, no-store");
      await expectSecurityHeaders(answer, path);
    }
  });
});

test.describe("no account discovery", () => {
  test("registering an e-mail that has an account looks the same as registering a new one; its owner is told by e-mail", async ({
    page,
  }) => {
    await page.goto("/register");
    await page.getByLabel("Nama Lengkap", { exact: true }).fill("Penyusup");
    await page.getByLabel("Nomor HP", { exact: true }).fill("081234567890");
    await page.getByLabel("NIP", { exact: true }).fill("8612345678");
    await page.getByLabel("Perusahaan", { exact: true }).selectOption({ label: "PT PLN Icon Plus" });
    await page.getByLabel("Email", { exact: true }).fill(DEMO_EMAIL);
    await page.getByLabel("Kata Sandi", { exact: true }).fill("Rahasia123!");
    await page.getByLabel("Konfirmasi Kata Sandi", { exact: true }).fill("Rahasia123!");
    await page.getByLabel("Konfirmasi Kata Sandi", { exact: true }).press("Tab");
    await page.getByRole("button", { name: "Daftar", exact: true }).click();
    await expect(page).toHaveURL("/home");
    await expect(page.getByRole("dialog", { name: "Registrasi Berhasil!" })).toBeVisible();
    await expect(page.getByText("Email sudah terdaftar.")).toHaveCount(0);
    // Waits for that subject: the demo account's older mail (a reset link) may be newer until it arrives.
    await readLatestEmail(page, DEMO_EMAIL, { subject: "Email Anda Sudah Terdaftar di Toko Pegawai PLN" });
  });
});

test.describe("search history", () => {
  const historyEntries = (page: Page) => page.getByTestId("search-history").getByRole("link");

  test("a link on another site does not write the signed-in user's history; the search form does", async ({ page, baseURL }) => {
    await loginAs(page);
    const planted = `tanam-${randomUUID().slice(0, 8)}`;
    await pageOnAnotherSite(page, `<a href="${baseURL}/res-search?keyword=${planted}">Lihat promo</a>`);
    await page.getByRole("link", { name: "Lihat promo" }).click();
    await expect(page).toHaveURL(`/res-search?keyword=${planted}`);
    await expect(page.getByTestId("search-keyword")).toHaveText(planted);
    await page.goto("/search");
    await expect(page.getByRole("heading", { name: "Riwayat Pencarian" })).toBeVisible();
    await expect(historyEntries(page).filter({ hasText: planted })).toHaveCount(0);

    const typed = `cari-${randomUUID().slice(0, 8)}`;
    const field = page.getByRole("searchbox", { name: "Kata kunci pencarian" });
    await field.fill(typed);
    await field.press("Enter");
    await expect(page).toHaveURL(`/res-search?keyword=${typed}`);
    await page.goto("/search");
    await expect(historyEntries(page).first()).toHaveText(typed);
  });
});
