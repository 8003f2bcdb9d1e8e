import { count, like } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as sendEmailRoute from "./send-email";
import { TestBrowser } from "~/.server/testing/test-browser";
import { getDb } from "~/.server/db/client";
import { rateLimits } from "~/.server/db/schema";
import { ownDatabaseForThisFile } from "~/.server/testing/own-database";

// Issue 35 (review finding): forgot-password was limited per address AND e-mail, so one client
// address queued 60 mails for 60 e-mails. Mail requests are now limited per client address too.

vi.setConfig({ testTimeout: 180_000 });
ownDatabaseForThisFile();

describe("forgot-password mail per client address (issue 35)", () => {
  it("one address asking for 60 different e-mails: at most 20 are accepted, the rest told to wait (429)", async () => {
    const browser = new TestBrowser();
    browser.address = "198.51.100.60";
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const body = new FormData();
      body.set("email", `korban-${i}@example.test`);
      statuses.push((await browser.post(sendEmailRoute.action, "/send-email", body)).status);
    }
    expect(statuses.filter((s) => s === 302).length).toBe(20);
    expect(statuses.filter((s) => s === 429).length).toBe(40);
    // Another address is not held back by this one.
    const other = new TestBrowser();
    other.address = "198.51.100.61";
    const body = new FormData();
    body.set("email", "korban-0@example.test");
    expect((await other.post(sendEmailRoute.action, "/send-email", body)).status).toBe(302);
    const db = await getDb();
    const [row] = await db.select({ n: count() }).from(rateLimits).where(like(rateLimits.key, "mail-address:%"));
    expect(row!.n).toBe(2);
  });
});
