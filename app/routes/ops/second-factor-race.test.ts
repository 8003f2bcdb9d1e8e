import { Secret, TOTP } from "otpauth";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as layoutRoute from "./layout";
import * as secondFactorRoute from "./second-factor";
import { TestBrowser, type RouteMiddleware } from "~/.server/testing/test-browser";
import { getDb } from "~/.server/db/client";
import { operatorAudit } from "~/.server/db/schema";
import { createVerifiedUser } from "~/.server/testing/fixtures";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";
import { grantRolesByEmail } from "~/.server/store/people";

// Issue 35 (review finding): the second factor looked at the limit, then checked the code, then
// counted it — parallel guesses all passed the look before any was counted. Now each attempt is
// counted first, by one atomic upsert, and only those within the limit are checked.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });
ownDatabaseForThisFile();

const opsMiddleware = layoutRoute.middleware as unknown as RouteMiddleware[];
const post = (browser: TestBrowser, fields: Record<string, string>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return browser.post(secondFactorRoute.action, "/ops/2fa", body);
};

describe("the second factor under parallel guesses (issue 35)", () => {
  it("30 wrong codes at once from one address: at most 5 are checked, the rest refused", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    await grantRolesByEmail(user.email, ["admin"], "ops");
    const enrolling = await new TestBrowser(opsMiddleware).signIn(user.id);
    const { secret } = (await enrolling.get(secondFactorRoute.loader, "/ops/2fa")).data as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 }).generate();
    expect((await post(enrolling, { intent: "enrol", code })).status).toBe(200);

    const guessers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const browser = await new TestBrowser(opsMiddleware).signIn(user.id);
        browser.address = "203.0.113.77";
        return browser;
      }),
    );
    const outcomes = await Promise.all(guessers.map((browser) => post(browser, { intent: "verify", code: "000000" })));
    const checked = outcomes.filter((o) => o.status === 400).length;
    expect(outcomes.filter((o) => o.status === 429).length).toBe(30 - checked);
    expect(checked).toBeLessThanOrEqual(5);
    const wrong = await db
      .select({ id: operatorAudit.id })
      .from(operatorAudit)
      .where(and(eq(operatorAudit.operatorId, user.id), eq(operatorAudit.action, "2fa-wrong-code")));
    expect(wrong.length).toBeLessThanOrEqual(5);
  });
});
