import { randomUUID } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as detailRoute from "./transaction-detail";
import * as doneRoute from "./transaction-done";
import * as invoiceRoute from "./transaction-invoice";
import * as listRoute from "./transaction";
import * as uploadsRoute from "./uploads";
import { getDb, type Db } from "~/.server/db/client";
import { balanceEntries, orderEvents, orders } from "~/.server/db/schema";
import { takeFlash } from "~/.server/http/session";
import { saveDraftAddress, setDraftKtp, startCheckout } from "~/.server/store/checkout";
import { createProduct, createVerifiedUser, INCENTIVE_PROMO, realAddress, submission, type TestUser } from "~/.server/testing/fixtures";
import { createOrderFromDraft } from "~/.server/store/checkout";
import { transitionOrder } from "~/.server/store/orders";
import { saveUpload } from "~/.server/store/orders";
import { processImageUpload } from "~/.server/images";
import { TestBrowser, type Outcome } from "../.server/testing/test-browser";

// The IDOR matrix (issue 8): two buyers, every order route and action of this branch, each tried on
// the other's order through the real session middleware and route modules. A foreign order must
// answer exactly like an unknown one (404) and must never change. The payment page (/payment/:id)
// and its actions have their own owner-only test in app/routes/payment.test.tsx.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

/** One signed-in browser, and what it reads of the session's one-shot toast. */
class Browser extends TestBrowser {
  async toast() {
    const { data } = await this.get(({ context }: { context: RouterContextProvider }) => takeFlash(context, "toast") ?? null, "/home");
    return data as { type: string; message: string } | null;
  }
}

let db: Db;
let photo: Awaited<ReturnType<typeof processImageUpload>> & { ok: true };

beforeAll(async () => {
  db = await getDb();
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 90 } } })
    .png()
    .toBuffer();
  photo = (await processImageUpload(new File([new Uint8Array(png)], "p.png", { type: "image/png" }))) as typeof photo;
});

/** An incentive order (so it has a KTP photo) of `user`, moved along `path` after 100. */
async function orderOf(user: TestUser, path: number[] = []) {
  const product = await createProduct(db, { promos: [INCENTIVE_PROMO] });
  await startCheckout({ id: user.id, verified: true }, product);
  await saveDraftAddress(user.id, await realAddress(db));
  const ktp = await saveUpload(user.id, "ktp", photo.file);
  await setDraftKtp(user.id, ktp);
  const created = await createOrderFromDraft(user.id, randomUUID(), submission(user, { insentif: true, buyerDadName: "Ahmad" }), {
    statusId: 100,
  });
  if (!created.ok) throw new Error(created.message);
  let from = 100;
  for (const to of path) {
    const moved = await transitionOrder(created.orderId, from, to, "test");
    if (!moved.ok) throw new Error(moved.message);
    from = to;
  }
  return { orderId: created.orderId, ktp };
}

const snapshot = async (orderId: number) => ({
  order: (await db.select({ statusId: orders.statusId, updatedAt: orders.updatedAt }).from(orders).where(eq(orders.id, orderId)))[0],
  events: (await db.select({ id: orderEvents.id }).from(orderEvents).where(eq(orderEvents.orderId, orderId))).length,
  credits: (await db.select({ id: balanceEntries.id }).from(balanceEntries).where(eq(balanceEntries.orderId, orderId))).length,
});

const form = (fields: Record<string, string | File>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("IDOR matrix: two buyers, every order route and action", () => {
  it("leaks nothing and writes nothing across owners", async () => {
    const alice = await createVerifiedUser(db);
    const bob = await createVerifiedUser(db);
    const aliceBrowser = await new Browser().signIn(alice.id);
    const bobBrowser = await new Browser().signIn(bob.id);
    const waiting = await orderOf(alice); // 100: cancellable
    const shipped = await orderOf(alice, [200, 300, 400]); // confirmable
    const done = await orderOf(alice, [200, 300, 400]);
    const aliceProof = await saveUpload(alice.id, "delivery-proof", photo.file);
    // Alice finishes one order herself, so there is a proof image and a reward to try to reach.
    const finished = await aliceBrowser.post(
      detailRoute.action,
      `/transaction-detail/${done.orderId}`,
      form({ intent: "confirm", bukti: new File([photo.file.bytes as Uint8Array<ArrayBuffer>], "b.jpg", { type: "image/jpeg" }) }),
      { id: String(done.orderId) },
    );
    expect(finished).toMatchObject({ status: 302, location: `/transaction-done?order=${done.orderId}` });
    const proofUrl = (
      (await aliceBrowser.get(detailRoute.loader, `/transaction-detail/${done.orderId}`, { id: String(done.orderId) })).data as {
        order: { deliveryProofUrls: string[] };
      }
    ).order.deliveryProofUrls[0]!;
    expect(proofUrl).toMatch(/^\/uploads\//);

    const before = await Promise.all([waiting, shipped, done].map((o) => snapshot(o.orderId)));
    let leaks = 0;
    let foreignWrites = 0;
    const expect404 = (outcome: Outcome, what: string) => {
      if (outcome.status !== 404) leaks++;
      expect(outcome.status, what).toBe(404);
    };

    for (const { orderId } of [waiting, shipped, done]) {
      const params = { id: String(orderId) };
      // Reads: the detail (also with its sheets) and the invoice answer like an unknown order.
      expect404(await bobBrowser.get(detailRoute.loader, `/transaction-detail/${orderId}`, params), `detail ${orderId}`);
      expect404(await bobBrowser.get(detailRoute.loader, `/transaction-detail/${orderId}?sheet=cancel`, params), `cancel sheet ${orderId}`);
      expect404(
        await bobBrowser.get(detailRoute.loader, `/transaction-detail/${orderId}?sheet=confirm`, params),
        `confirm sheet ${orderId}`,
      );
      expect404(await bobBrowser.get(invoiceRoute.loader, `/transaction-invoice/${orderId}`, params), `invoice ${orderId}`);
      // Writes: cancel and confirm (with Bob's own proof, and with Alice's) are 404 too.
      expect404(
        await bobBrowser.post(detailRoute.action, `/transaction-detail/${orderId}`, form({ intent: "cancel" }), params),
        `cancel ${orderId}`,
      );
      expect404(
        await bobBrowser.post(
          detailRoute.action,
          `/transaction-detail/${orderId}`,
          form({ intent: "confirm", bukti: new File([photo.file.bytes as Uint8Array<ArrayBuffer>], "b.jpg", { type: "image/jpeg" }) }),
          params,
        ),
        `confirm ${orderId}`,
      );
      // The done page names no reward for someone else's order.
      const doneOutcome = await bobBrowser.get(doneRoute.loader, `/transaction-done?order=${orderId}`);
      if ((doneOutcome.data as { reward: unknown }).reward !== null) leaks++;
      // Bob's own list never shows Alice's orders.
      const list = (await bobBrowser.get(listRoute.loader, "/transaction")).data as { pages: { content: { id: number }[] }[] };
      if (list.pages.some((p) => p.content.some((o) => o.id === orderId))) leaks++;
    }
    // Files: Alice's KTP photos and her delivery proof are 404 for Bob (and found for Alice).
    for (const url of [`/uploads/${waiting.ktp}`, `/uploads/${shipped.ktp}`, proofUrl, `/uploads/${aliceProof}`]) {
      const id = url.split("/").pop()!;
      expect404(await bobBrowser.get(uploadsRoute.loader, url, { id }), url);
      expect((await aliceBrowser.get(uploadsRoute.loader, url, { id })).status, `${url} for its owner`).toBe(200);
    }

    const after = await Promise.all([waiting, shipped, done].map((o) => snapshot(o.orderId)));
    after.forEach((snap, i) => {
      if (JSON.stringify(snap) !== JSON.stringify(before[i])) foreignWrites++;
    });
    expect({ leaks, foreignWrites }).toEqual({ leaks: 0, foreignWrites: 0 });
    // Unknown and malformed ids answer the same 404.
    for (const id of ["999999999", "0", "-1", "abc", "1e3", "99999999999"]) {
      expect404(await aliceBrowser.get(detailRoute.loader, `/transaction-detail/${id}`, { id }), `detail ${id}`);
      expect404(await aliceBrowser.get(invoiceRoute.loader, `/transaction-invoice/${id}`, { id }), `invoice ${id}`);
    }
    console.info(`IDOR matrix: ${leaks} leaks, ${foreignWrites} foreign writes`);
  });

  it("the owner's actions: a cancel needs the POST, a stale one says why and changes nothing", async () => {
    const alice = await createVerifiedUser(db);
    const browser = await new Browser().signIn(alice.id);
    const { orderId } = await orderOf(alice);
    const params = { id: String(orderId) };
    // The confirmation is only a page; nothing changes until 'Ya' posts.
    const sheet = (await browser.get(detailRoute.loader, `/transaction-detail/${orderId}?sheet=cancel`, params)).data as { sheet: string };
    expect(sheet.sheet).toBe("cancel");
    expect((await snapshot(orderId)).order!.statusId).toBe(100);
    expect(await browser.post(detailRoute.action, `/transaction-detail/${orderId}`, form({ intent: "cancel" }), params)).toMatchObject({
      status: 302,
      location: `/transaction-detail/${orderId}`,
    });
    expect(await browser.toast()).toEqual({ type: "success", message: "Pesanan berhasil dibatalkan." });
    expect(await browser.post(detailRoute.action, `/transaction-detail/${orderId}`, form({ intent: "cancel" }), params)).toMatchObject({
      status: 302,
    });
    expect(await browser.toast()).toEqual({ type: "danger", message: "Pesanan sudah dibatalkan." });
    expect((await snapshot(orderId)).events).toBe(2); // created + cancelled, once
    // A stale confirm on the cancelled order and an unknown intent change nothing either.
    expect(await browser.post(detailRoute.action, `/transaction-detail/${orderId}`, form({ intent: "confirm" }), params)).toMatchObject({
      status: 302,
    });
    expect(await browser.toast()).toEqual({ type: "danger", message: "Pesanan sudah dibatalkan." });
    expect((await browser.post(detailRoute.action, `/transaction-detail/${orderId}`, form({ intent: "hapus" }), params)).status).toBe(400);
  });

  it("the confirmation sheet answers 400 with the spec's checks on the proof", async () => {
    const alice = await createVerifiedUser(db);
    const browser = await new Browser().signIn(alice.id);
    const { orderId } = await orderOf(alice, [200, 300, 400]);
    const params = { id: String(orderId) };
    const post = (fields: Record<string, string | File>) =>
      browser.post(detailRoute.action, `/transaction-detail/${orderId}`, form({ intent: "confirm", ...fields }), params);
    expect(await post({})).toMatchObject({ status: 400, data: { confirmError: "Foto bukti barang sampai tidak boleh kosong." } });
    expect(await post({ bukti: new File(["<svg/>"], "x.png", { type: "image/png" }) })).toMatchObject({
      status: 400,
      data: { confirmError: "Invalid file selected, valid files are of .jpg,.jpeg,.png,.pdf types." },
    });
    const bigPdf = new Uint8Array(2 * 1024 * 1024 + 1);
    bigPdf.set(new TextEncoder().encode("%PDF-1.7\n"));
    expect(await post({ bukti: new File([bigPdf], "besar.pdf", { type: "application/pdf" }) })).toMatchObject({
      status: 400,
      data: { confirmError: "File size is too large" },
    });
    expect((await snapshot(orderId)).order!.statusId).toBe(400);
    // A small PDF is kept as it is and finishes the order.
    const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    expect(await post({ bukti: new File([pdf], "bukti.pdf", { type: "application/pdf" }) })).toMatchObject({
      status: 302,
      location: `/transaction-done?order=${orderId}`,
    });
    const detail = (await browser.get(detailRoute.loader, `/transaction-detail/${orderId}`, params)).data as {
      order: { statusId: number; deliveryProofUrls: string[] };
    };
    expect(detail.order.statusId).toBe(500);
    const file = await browser.get(uploadsRoute.loader, detail.order.deliveryProofUrls[0]!, {
      id: detail.order.deliveryProofUrls[0]!.split("/").pop()!,
    });
    expect(file.status).toBe(200);
    // Served inline from the store's origin, so sandboxed: a crafted PDF runs in no origin (issue 16).
    expect(file.response?.headers.get("content-security-policy")).toBe("sandbox");
    expect(file.response?.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.response?.headers.get("content-type")).toBe("application/pdf");
    const done = (await browser.get(doneRoute.loader, `/transaction-done?order=${orderId}`)).data as {
      reward: { amount: number } | null;
      suggestions: unknown[];
    };
    expect(done.reward?.amount).toBeGreaterThan(0);
    expect(done.suggestions.length).toBeLessThanOrEqual(7);
  });

  it("issue 16: the invoice says 'LUNAS' with the payment date from 300 on; two delivery photos in one input, both on the detail", async () => {
    const alice = await createVerifiedUser(db);
    const browser = await new Browser().signIn(alice.id);
    const { orderId } = await orderOf(alice, [200]);
    const params = { id: String(orderId) };
    const invoice = async () =>
      (await browser.get(invoiceRoute.loader, `/transaction-invoice/${orderId}`, params)).data as {
        paid: boolean;
        paidAtText: string | null;
      };
    expect(await invoice()).toMatchObject({ paid: false, paidAtText: null });
    await transitionOrder(orderId, 200, 300, "gateway");
    const paid = await invoice();
    expect(paid).toMatchObject({ paid: true, paidAtText: expect.stringMatching(/^\d{2} \w{3} \d{4} \d{2}:\d{2} WIB$/) });
    const props = {
      loaderData: (await browser.get(invoiceRoute.loader, `/transaction-invoice/${orderId}`, params)).data,
      params,
    } as unknown as React.ComponentProps<typeof invoiceRoute.default>;
    const html = renderToStaticMarkup(createElement(invoiceRoute.default, props));
    expect(html).toContain("LUNAS");
    expect(html).toContain(`Dibayar pada ${paid.paidAtText}`);
    await transitionOrder(orderId, 300, 400, "ops");
    expect(await invoice()).toEqual(expect.objectContaining({ paid: true, paidAtText: paid.paidAtText }));

    const jpeg = (name: string) => new File([photo.file.bytes as Uint8Array<ArrayBuffer>], name, { type: "image/jpeg" });
    const pdf = new File([new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")], "resi.pdf", {
      type: "application/pdf",
    });
    const body = form({ intent: "confirm" });
    body.append("bukti", jpeg("depan.jpg"));
    body.append("bukti", pdf);
    expect(await browser.post(detailRoute.action, `/transaction-detail/${orderId}`, body, params)).toMatchObject({
      status: 302,
      location: `/transaction-done?order=${orderId}`,
    });
    const detail = (await browser.get(detailRoute.loader, `/transaction-detail/${orderId}`, params)).data as {
      order: { statusId: number; deliveryProofUrls: string[] };
    };
    expect(detail.order.statusId).toBe(500);
    expect(detail.order.deliveryProofUrls).toHaveLength(2);
    const types = [];
    for (const url of detail.order.deliveryProofUrls)
      types.push((await browser.get(uploadsRoute.loader, url, { id: url.split("/").pop()! })).response?.headers.get("content-type"));
    expect(types).toEqual(["image/jpeg", "application/pdf"]);
    expect(await invoice()).toEqual(expect.objectContaining({ paid: true, paidAtText: paid.paidAtText }));

    // Six files are one too many: refused with the form back, nothing changes.
    const next = await orderOf(alice, [200, 300, 400]);
    const six = form({ intent: "confirm" });
    for (let i = 0; i < 6; i++) six.append("bukti", jpeg(`foto-${i}.jpg`));
    expect(await browser.post(detailRoute.action, `/transaction-detail/${next.orderId}`, six, { id: String(next.orderId) })).toMatchObject({
      status: 400,
      data: { confirmError: "Maksimal 5 file bukti barang sampai." },
    });
    expect((await snapshot(next.orderId)).order!.statusId).toBe(400);
  });
});
