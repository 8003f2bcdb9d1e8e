import { describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { registry } from "../../metrics";
import { createVerifiedUser } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { indonesianMobile, OTP_ACCOUNT_NOT_VERIFIED, OTP_PHONE_NOT_INDONESIAN, requestOtp } from "./otp";

// Issue 35 (review finding: SMS pumping): any account, even unverified, could have a code sent to
// any 10–15 digit number. Now: verified accounts only, Indonesian numbers only, hourly caps per
// account, per client address and for the store, and a metric of the SMS sent.

vi.setConfig({ testTimeout: 180_000 });
ownDatabaseForThisFile();

const HOUR = 60 * 60 * 1000;
const smsSent = async () => (await registry.getSingleMetric("store_sms_sent_total")?.get())?.values.reduce((n, v) => n + v.value, 0) ?? 0;

describe("one-time code SMS (issue 35)", () => {
  it("only Indonesian numbers, only verified accounts, at most 5 an hour per account and 10 per address; each one counted", async () => {
    const db = await getDb();
    expect(indonesianMobile("+62 812-3456-7890")).toBe("081234567890");
    expect(indonesianMobile("081234567890")).toBe("081234567890");
    expect(indonesianMobile("+88213 0000 1234")).toBeNull();
    expect(indonesianMobile("+1 202 555 0100")).toBeNull();

    const buyer = await createVerifiedUser(db);
    expect(await requestOtp(buyer.id, "+88213 0000 1234")).toMatchObject({ ok: false, message: OTP_PHONE_NOT_INDONESIAN });
    const stranger = await createVerifiedUser(db, { verified: false });
    expect(await requestOtp(stranger.id, "081234567891")).toMatchObject({
      ok: false,
      code: "NOT_VERIFIED",
      message: OTP_ACCOUNT_NOT_VERIFIED,
    });

    // Each request after the cooldown (a minute apart): the sixth within the hour is refused.
    const before = await smsSent();
    const start = Date.now();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await requestOtp(buyer.id, "+62 812 3456 7001", new Date(start + i * 61_000), "203.0.113.5"));
    expect(results.slice(0, 5).every((r) => r.ok)).toBe(true);
    expect(results[5]).toMatchObject({ ok: false, code: "TOO_MANY" });
    expect((await smsSent()) - before).toBe(5);

    // One address for many accounts: 10 an hour (5 already from this address above).
    const others = await Promise.all(Array.from({ length: 6 }, () => createVerifiedUser(db)));
    const fromAddress = [];
    for (const other of others) fromAddress.push(await requestOtp(other.id, "081234567002", new Date(start + HOUR / 2), "203.0.113.5"));
    expect(fromAddress.filter((r) => r.ok)).toHaveLength(5);
    expect(fromAddress.at(-1)).toMatchObject({ ok: false, code: "TOO_MANY" });
  });
});
