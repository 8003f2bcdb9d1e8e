import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as door from "./test-preconditions";
import { getUser } from "~/.server/http/session";
import { findUserByEmail } from "~/.server/store/people";
import { TestBrowser } from "~/.server/testing/test-browser";

// The e2e tests' preconditions door (issue 44, decision 0066): absent, as an unknown address, on
// every server not started with STORE_TEST_DOOR=1 (production's environment has no such flag).

afterEach(() => vi.unstubAllEnvs());

function accountForm(email: string, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.set("email", email);
  body.set("password", "Rahasia123!");
  body.set("nip", "8612345678");
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return body;
}

describe("/__test/account", () => {
  it("answers 404 to GET and POST without STORE_TEST_DOOR=1, and makes no account", async () => {
    vi.stubEnv("STORE_TEST_DOOR", undefined);
    const browser = new TestBrowser();
    expect((await browser.get(door.loader, "/__test/account")).status).toBe(404);
    const post = await browser.post(door.action, "/__test/account", accountForm("tanpa-pintu@example.test", { roles: "operator" }));
    expect(post.status).toBe(404);
    expect(browser.cookie).toBe("");
    expect(await findUserByEmail("tanpa-pintu@example.test")).toBeNull();
    // Any other value than "1" keeps it shut.
    vi.stubEnv("STORE_TEST_DOOR", "true");
    expect((await browser.post(door.action, "/__test/account", accountForm("tanpa-pintu@example.test"))).status).toBe(404);
    expect(await findUserByEmail("tanpa-pintu@example.test")).toBeNull();
  });

  it("with STORE_TEST_DOOR=1 makes an activated admin with an enrolled factor, signed in past the second factor", async () => {
    vi.stubEnv("STORE_TEST_DOOR", "1");
    const browser = new TestBrowser();
    const made = await browser.post(door.action, "/__test/account", accountForm("pintu-admin@example.test", { roles: "operator" }));
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ totpSecret: expect.stringMatching(/^[A-Z2-7]{32}$/) });
    const user = (await browser.get(({ context }: { context: never }) => getUser(context), "/ops")).data;
    expect(user).toMatchObject({ email: "pintu-admin@example.test", verified: true, roles: ["admin"], secondFactorPassed: true });
  });

  it("with STORE_TEST_DOOR=1 makes a buyer not yet activated when asked, signed in", async () => {
    vi.stubEnv("STORE_TEST_DOOR", "1");
    const browser = new TestBrowser();
    const made = await browser.post(door.action, "/__test/account", accountForm("pintu-pembeli@example.test", { verified: "0" }));
    expect(made.status).toBe(200);
    const user = (await browser.get(({ context }: { context: never }) => getUser(context), "/home")).data;
    expect(user).toMatchObject({ email: "pintu-pembeli@example.test", verified: false, roles: [], secondFactorPassed: false });
  });

  it("with STORE_TEST_DOOR=1 answers a body that is not a form with 400, not a 500", async () => {
    vi.stubEnv("STORE_TEST_DOOR", "1");
    const request = new Request("http://store.test/__test/account", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "json@example.test" }),
    });
    const answer = (await door.action({ request, context: new RouterContextProvider(), params: {} } as never)) as unknown as {
      init: ResponseInit | null;
    };
    expect(answer.init?.status).toBe(400);
    expect(await findUserByEmail("json@example.test")).toBeNull();
  });
});
