import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as detailRoute from "../detail";
import * as employeeConfirmRoute from "../employee-confirm";
import * as registerRoute from "../register";
import { TestBrowser } from "../../.server/testing/test-browser";
import { apiCaller } from "../../.server/testing/api-client";
import { API_AREAS, buildOpenApi } from "./openapi.server";
import { getDb, type Db } from "~/.server/db/client";
import { companies, rosterEntries, rosterLinkRequests, users } from "~/.server/db/schema";
import {
  applyRosterImport,
  createSession,
  decideLinkRequest,
  LINK_REQUEST_MESSAGES,
  LINK_REQUEST_PENDING,
  NIP_ALREADY_LINKED,
  NIP_NOT_ON_ROSTER,
  NOT_ACTIVE_EMPLOYEE,
  updateRosterEntry,
} from "~/.server/store/people";
import { getPaymentDetail, markPaid } from "~/.server/store/payments";
import { createCompany, createProduct, createVerifiedUser } from "~/.server/testing/fixtures";
import { createStockedProduct, placeOrder, proofUpload } from "~/.server/testing/payment-fixtures";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";

const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));

// The roster at the buyers' doors (issue 27): the web registration form and the API's
// /auth/register answer the roster's messages on the NIP field; a deactivated employee's 'Beli
// Sekarang' and the API's order create are refused with the issue's message, while their open order
// can still be paid. Registering, or 'Ya, Hubungkan' on /konfirmasi-pegawai, only asks for the
// roster's entry (issue 45 item 11, decision 0069): both doors link nothing by themselves.

vi.setConfig({ testTimeout: 120_000 });

let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
});

async function companyWithRoster(lines: string[]): Promise<{ id: number; name: string }> {
  const { id, name } = await createCompany(db, "Pintu");
  const operator = await createVerifiedUser(db);
  const applied = await applyRosterImport(
    ["nip,nama,perusahaan,status", ...lines.map((l) => `${l},${name},aktif`)].join("\n"),
    { deactivateMissing: false },
    operator.id,
  );
  if (!applied.ok) throw new Error(applied.message);
  return { id, name };
}

const form = (fields: Record<string, string>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
};

const registration = (companyId: number, nip: string) => ({
  fullname: "Rina Marlina",
  phoneNo: "081234567890",
  nip,
  companyId: String(companyId),
  email: `pintu-${randomUUID().slice(0, 10)}@example.test`,
  password: "Rahasia123!",
  matchPassword: "Rahasia123!",
});

/** The account's open link request, approved by an operator (what the queue's 'Setujui' does). */
async function approveRequestOf(email: string) {
  const [request] = await db
    .select({ id: rosterLinkRequests.id })
    .from(rosterLinkRequests)
    .innerJoin(users, eq(users.id, rosterLinkRequests.userId))
    .where(eq(users.email, email));
  const operator = await createVerifiedUser(db);
  expect(await decideLinkRequest(operator.id, request!.id, "approve")).toEqual({ ok: true });
}

const holderOf = async (companyId: number) =>
  (await db.select({ userId: rosterEntries.userId }).from(rosterEntries).where(eq(rosterEntries.companyId, companyId)))[0]!.userId;

type Reply = { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };

describe("registration checks the roster", () => {
  it("the web form: the NIP field says why, 400, the values kept (never the password); an employee on the roster registers", async () => {
    const company = await companyWithRoster(["8101,Rina"]);
    const refused = await new TestBrowser().post(registerRoute.action, "/register", form(registration(company.id, "0000")));
    expect(refused.status).toBe(400);
    const reply = (refused.data as { reply: Reply }).reply;
    expect(reply.error).toMatchObject({ nip: [NIP_NOT_ON_ROSTER] });
    expect(reply.initialValue).toMatchObject({ nip: "0000", fullname: "Rina Marlina" });
    expect(reply.initialValue).not.toHaveProperty("password");

    const first = registration(company.id, "8101");
    const ok = await new TestBrowser().post(registerRoute.action, "/register", form(first));
    expect(ok).toMatchObject({ status: 302, location: "/home" });
    // Asked, not linked: another account with the NIP and the name may still ask.
    expect(await holderOf(company.id)).toBeNull();
    const other = await new TestBrowser().post(registerRoute.action, "/register", form(registration(company.id, "8101")));
    expect(other).toMatchObject({ status: 302, location: "/home" });
    expect(await holderOf(company.id)).toBeNull();
    await approveRequestOf(first.email);
    const again = await new TestBrowser().post(registerRoute.action, "/register", form(registration(company.id, "8101")));
    expect((again.data as { reply: Reply }).reply.error).toMatchObject({ nip: [NIP_ALREADY_LINKED] });
  });

  it("the API's /auth/register: the same messages under errors.nip; an employee on the roster gets a token", async () => {
    const company = await companyWithRoster(["8201,Sari"]);
    const address = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const refused = await callApi("POST", "/auth/register", { json: registration(company.id, "12345"), address });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ nip: [NIP_NOT_ON_ROSTER] });
    const asking = registration(company.id, "8201");
    const created = await callApi("POST", "/auth/register", { json: asking, address });
    expect(created.status).toBe(201);
    expect(created.body.data.token).toEqual(expect.any(String));
    // The same rule as the form: asked, not linked, and the message says what happens next.
    expect(created.body.message).toContain(LINK_REQUEST_MESSAGES.petugas);
    expect(await holderOf(company.id)).toBeNull();
    const token = created.body.data.token as string;
    await db.update(users).set({ verifiedAt: new Date() }).where(eq(users.email, asking.email));
    const order = await callApi("POST", "/order/create", { token, json: { orderProducts: [{ id: await createProduct(db), qty: 1 }] } });
    expect(order.status).toBe(403);
    expect(order.body.message).toBe(LINK_REQUEST_PENDING);
    await approveRequestOf(asking.email);
    const taken = await callApi("POST", "/auth/register", { json: registration(company.id, "8201"), address });
    expect(taken.body.errors).toEqual({ nip: [NIP_ALREADY_LINKED] });
  });
});

describe("/konfirmasi-pegawai", () => {
  it("'Ya, Hubungkan' of an account with the employee's NIP and name asks and links nothing; the page then says who confirms", async () => {
    const name = `PT Uji Pintu ${randomUUID().slice(0, 8)}`;
    const [company] = await db.insert(companies).values({ name }).returning({ id: companies.id });
    const early = await createVerifiedUser(db);
    await db.update(users).set({ companyId: company!.id, nip: "8401", fullname: "Rina Marlina" }).where(eq(users.id, early.id));
    const operator = await createVerifiedUser(db);
    const applied = await applyRosterImport(
      `nip,nama,perusahaan,status\n8401,Rina Marlina,${name},aktif`,
      { deactivateMissing: false },
      operator.id,
    );
    expect(applied.ok).toBe(true);

    const browser = await new TestBrowser().signIn(early.id);
    const offer = await browser.get(employeeConfirmRoute.loader, "/konfirmasi-pegawai");
    expect(offer.data).toMatchObject({ nip: "8401", waiting: null });
    const asked = await browser.post(employeeConfirmRoute.action, "/konfirmasi-pegawai", form({ intent: "confirm", redirect: "/home" }));
    expect(asked).toMatchObject({ status: 302, location: "/konfirmasi-pegawai?redirect=%2Fhome" });
    expect(await holderOf(company!.id)).toBeNull();
    const waiting = await browser.get(employeeConfirmRoute.loader, "/konfirmasi-pegawai?redirect=%2Fhome");
    expect(waiting.data).toMatchObject({ nip: "8401", waiting: LINK_REQUEST_MESSAGES.petugas });
  });
});

describe("a deactivated employee", () => {
  it("'Beli Sekarang' and the API's order create are refused with the message; the open order can still be paid", async () => {
    const company = await companyWithRoster(["8301,Tono"]);
    const buyer = await createVerifiedUser(db);
    await db.update(users).set({ companyId: company.id, nip: "8301" }).where(eq(users.id, buyer.id));
    await db.update(rosterEntries).set({ userId: buyer.id }).where(eq(rosterEntries.companyId, company.id));
    const openOrder = await placeOrder({ ...buyer, nip: "8301" }, await createStockedProduct(), "MANUAL-BNI");

    const [entry] = await db.select({ id: rosterEntries.id }).from(rosterEntries).where(eq(rosterEntries.userId, buyer.id));
    await updateRosterEntry(buyer.id, entry!.id, { status: "nonaktif" });

    const productId = await createProduct(db);
    const browser = await new TestBrowser().signIn(buyer.id);
    const refused = await browser.post(detailRoute.action, `/detail/${productId}`, form({ intent: "order" }), { id: String(productId) });
    expect(refused).toMatchObject({ status: 409, data: { error: NOT_ACTIVE_EMPLOYEE } });

    const token = await createSession(buyer.id, "api");
    const created = await callApi("POST", "/order/create", { token, json: { orderProducts: [{ id: productId, qty: 1 }] } });
    expect(created.status).toBe(403);
    expect(created.body.message).toBe(NOT_ACTIVE_EMPLOYEE);

    // Their order from before: still theirs to pay.
    expect(await getPaymentDetail(openOrder, buyer.id)).toMatchObject({ canMarkPaid: true });
    expect(await markPaid(openOrder, buyer.id, await proofUpload({ ...buyer, nip: "8301" }))).toEqual({ ok: true });
  });
});
