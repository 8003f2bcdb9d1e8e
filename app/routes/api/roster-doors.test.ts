import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as detailRoute from "../detail";
import * as registerRoute from "../register";
import { TestBrowser } from "../../.server/testing/test-browser";
import { apiCaller } from "../../.server/testing/api-client";
import { API_AREAS, buildOpenApi } from "./openapi.server";
import { getDb, type Db } from "~/.server/db/client";
import { companies, rosterEntries, users } from "~/.server/db/schema";
import {
  applyRosterImport,
  createSession,
  NIP_ALREADY_LINKED,
  NIP_NOT_ON_ROSTER,
  NOT_ACTIVE_EMPLOYEE,
  updateRosterEntry,
} from "~/.server/store/people";
import { getPaymentDetail, markPaid } from "~/.server/store/payments";
import { createProduct, createVerifiedUser } from "~/.server/testing/fixtures";
import { createStockedProduct, placeOrder, proofUpload } from "~/.server/testing/payment-fixtures";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";

const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));

// The roster at the buyers' doors (issue 27): the web registration form and the API's
// /auth/register answer the roster's messages on the NIP field; a deactivated employee's 'Beli
// Sekarang' and the API's order create are refused with the issue's message, while their open order
// can still be paid.

vi.setConfig({ testTimeout: 120_000 });

let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
});

async function companyWithRoster(lines: string[]): Promise<{ id: number; name: string }> {
  const name = `PT Uji Pintu ${randomUUID().slice(0, 8)}`;
  const [row] = await db.insert(companies).values({ name }).returning({ id: companies.id });
  const operator = await createVerifiedUser(db);
  const applied = await applyRosterImport(
    ["nip,nama,perusahaan,status", ...lines.map((l) => `${l},${name},aktif`)].join("\n"),
    { deactivateMissing: false },
    operator.id,
  );
  if (!applied.ok) throw new Error(applied.message);
  return { id: row!.id, name };
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

    const ok = await new TestBrowser().post(registerRoute.action, "/register", form(registration(company.id, "8101")));
    expect(ok).toMatchObject({ status: 302, location: "/home" });
    const again = await new TestBrowser().post(registerRoute.action, "/register", form(registration(company.id, "8101")));
    expect((again.data as { reply: Reply }).reply.error).toMatchObject({ nip: [NIP_ALREADY_LINKED] });
  });

  it("the API's /auth/register: the same messages under errors.nip; an employee on the roster gets a token", async () => {
    const company = await companyWithRoster(["8201,Sari"]);
    const address = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const refused = await callApi("POST", "/auth/register", { json: registration(company.id, "12345"), address });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ nip: [NIP_NOT_ON_ROSTER] });
    const created = await callApi("POST", "/auth/register", { json: registration(company.id, "8201"), address });
    expect(created.status).toBe(201);
    expect(created.body.data.token).toEqual(expect.any(String));
    const taken = await callApi("POST", "/auth/register", { json: registration(company.id, "8201"), address });
    expect(taken.body.errors).toEqual({ nip: [NIP_ALREADY_LINKED] });
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
