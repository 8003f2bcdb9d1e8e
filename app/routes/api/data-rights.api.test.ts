import crypto from "node:crypto";
import { hash } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "~/.server/db/client";
import { users } from "~/.server/db/schema";
import { sessionMiddleware } from "~/.server/http/session";
import { transitionOrder } from "~/.server/store/orders";
import { createSession } from "~/.server/store/people";
import { DATA_EXPORT_GONE, ERASE_OPEN_ORDER, ERASE_WRONG_PASSWORD } from "~/.server/store/privacy";
import { resetDataKeyringForTests } from "~/.server/data-crypto";
import { resetEnvForTests } from "~/.server/env";
import { apiCaller } from "~/.server/testing/api-client";
import { createVerifiedUser } from "~/.server/testing/fixtures";
import { waitForOutbox } from "~/.server/testing/messages";
import { createOrderInStatus } from "~/.server/testing/order-fixtures";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";
import * as dataExportRoute from "../data-export";
import { API_AREAS, buildOpenApi } from "./openapi.server";

// Issue 35 item 4 through the JSON API: 'Unduh Data Saya' (request, state, the ZIP with the bearer
// token) and 'Hapus Akun' (400 for the password, 409 while an order is open, then every token ends).

ownDatabaseForThisFile();
const callApi = apiCaller(API_AREAS, buildOpenApi("http://store.test"));
const PASSWORD = "rahasia-Kuat-123";
let db: Db;
beforeAll(async () => {
  db = await getDb();
});

async function downloadWith(token: string | null, link: string): Promise<Response> {
  const request = new Request(`http://store.test${link}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const context = new RouterContextProvider();
  let answer: Response | undefined;
  await sessionMiddleware({ request, url: new URL(request.url), context } as never, async () => {
    answer = await dataExportRoute
      .loader({ request, context, url: new URL(request.url), params: { id: link.split("/").pop() } } as never)
      .catch((thrown: unknown) => thrown as Response);
    return answer;
  });
  return answer!;
}

describe("the data rights in the JSON API", () => {
  it("requests the ZIP and downloads it with the token, then erases the account once no order is open", async () => {
    const user = await createVerifiedUser(db);
    await db
      .update(users)
      .set({ passwordHash: await hash(PASSWORD) })
      .where(eq(users.id, user.id));
    const token = await createSession(user.id, "api");

    expect((await callApi("GET", "/user/data-export", { token })).body.data).toBeNull();
    const requested = await callApi("POST", "/user/data-export/request", { token });
    expect(requested.status).toBe(200);
    expect(requested.body.data).toEqual({ ready: false, link: null, expiresAt: expect.any(String) });
    await waitForOutbox((entries) => entries.some((e) => e.to === user.email && e.subject.includes("Siap Diunduh")));
    const state = (await callApi("GET", "/user/data-export", { token })).body.data;
    expect(state).toEqual({ ready: true, link: expect.stringMatching(/^\/profile\/data-saya\/[\w-]{43}$/), expiresAt: expect.any(String) });
    const zip = await downloadWith(token, state.link);
    expect([zip.status, zip.headers.get("content-type")]).toEqual([200, "application/zip"]);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString("latin1"),
    ).toBe("PK");
    const other = await createSession((await createVerifiedUser(db)).id, "api");
    expect((await downloadWith(other, state.link)).status).toBe(404);

    const empty = await callApi("POST", "/user/delete-account", { token, json: {} });
    expect([empty.status, empty.body.errors]).toEqual([400, { password: ["Kata sandi tidak boleh kosong."] }]);
    const wrong = await callApi("POST", "/user/delete-account", { token, json: { password: "salah-sekali" } });
    expect([wrong.status, wrong.body.errors]).toEqual([400, { password: [ERASE_WRONG_PASSWORD] }]);
    const { orderId } = await createOrderInStatus(db, 200, { user });
    const open = await callApi("POST", "/user/delete-account", { token, json: { password: PASSWORD } });
    expect([open.status, open.body.message]).toEqual([409, ERASE_OPEN_ORDER]);

    expect((await transitionOrder(orderId, 200, 1, `buyer:${user.id}`, "test")).ok).toBe(true);
    const erased = await callApi("POST", "/user/delete-account", { token, json: { password: PASSWORD } });
    expect([erased.status, erased.body.message]).toEqual([200, "Akun Anda telah dihapus."]);
    expect((await callApi("GET", "/user/my-profile", { token })).status).toBe(401);
  });
});

describe("a data-export link after its key was dropped (issue 45 item 13)", () => {
  it("answers 404 saying the file is no longer available, not a 500", async () => {
    const user = await createVerifiedUser(db);
    const token = await createSession(user.id, "api");
    await callApi("POST", "/user/data-export/request", { token });
    await waitForOutbox((entries) => entries.some((e) => e.to === user.email && e.subject.includes("Siap Diunduh")));
    const { link } = (await callApi("GET", "/user/data-export", { token })).body.data;
    const oldKey = process.env.DATA_ENCRYPTION_KEY!;
    const useKeys = (value: string) => {
      process.env.DATA_ENCRYPTION_KEY = value;
      resetEnvForTests();
      resetDataKeyringForTests();
    };
    try {
      // A rotation to a new key, then the old key dropped: the archive sealed under it no longer opens.
      useKeys(crypto.randomBytes(32).toString("base64"));
      const answer = await downloadWith(token, link);
      expect([answer.status, answer.headers.get("cache-control"), await answer.text()]).toEqual([404, "no-store", DATA_EXPORT_GONE]);
    } finally {
      useKeys(oldKey);
    }
    expect((await downloadWith(token, link)).status).toBe(200);
  });
});
