import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTwilio, type FakeTwilio } from "../../../../tests/fakes/twilio";
import { getDb } from "../../db/client";
import { otpCodes } from "../../db/schema";
import { resetEnvForTests } from "../../env";
import { createBuyer } from "../../testing/payment-fixtures";
import { settleMessages } from "../../testing/messages";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { PHONE_NOT_REGISTERED, requestOtp } from "../payments";
import { toE164, twilioSmsSender } from "./sms";

ownDatabaseForThisFile();

// SMS_PROVIDER=twilio (issue 28 item 5) against a fake Twilio written from its documentation
// (tests/fakes/twilio.ts): a sent code, a refused number, an outage.

const settings = { accountSid: `AC${"0123456789abcdef".repeat(2)}`, authToken: "rahasia-token-twilio-uji", from: "+15005550006" };
let twilio: FakeTwilio;
const saved = { ...process.env };

beforeAll(async () => {
  twilio = await startFakeTwilio(settings);
  Object.assign(process.env, {
    SMS_PROVIDER: "twilio",
    TWILIO_ACCOUNT_SID: settings.accountSid,
    TWILIO_AUTH_TOKEN: settings.authToken,
    TWILIO_FROM: settings.from,
    TWILIO_API_URL: twilio.url,
  });
  resetEnvForTests();
  await getDb();
});
afterAll(async () => {
  for (const name of ["SMS_PROVIDER", "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM", "TWILIO_API_URL"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvForTests();
  await twilio.close();
});

describe("the Twilio sender", () => {
  it("sends to the number in E.164 with Basic auth; a refused number is NOT_EXIST; an outage throws", async () => {
    const sender = twilioSmsSender({ ...settings, apiUrl: twilio.url });
    expect(toE164("081234567890")).toBe("+6281234567890");
    expect(toE164("6281234567890")).toBe("+6281234567890");
    expect(await sender.send("081234567890", "Kode OTP: 1234")).toEqual({ ok: true });
    expect(twilio.sent.at(-1)).toMatchObject({ to: "+6281234567890", from: settings.from, body: "Kode OTP: 1234" });
    twilio.invalidNumbers.add("+6281299990000");
    expect(await sender.send("081299990000", "Kode OTP: 1234")).toEqual({ ok: false, code: "NOT_EXIST" });
    twilio.failNext(1);
    await expect(sender.send("081234567890", "Kode OTP: 1234")).rejects.toThrow("Twilio answered HTTP 503");
    await expect(
      twilioSmsSender({ ...settings, authToken: "salah-salah-salah-salah", apiUrl: twilio.url }).send("081234567890", "x"),
    ).rejects.toThrow("HTTP 401 (error 20003)");
  });
});

describe("the paylater code through Twilio", () => {
  it("reaches the phone: the code Twilio got is the one the store accepts", async () => {
    const buyer = await createBuyer({ phoneNo: "081311112222" });
    const sent = await requestOtp(buyer.id, buyer.phoneNo);
    expect(sent.ok).toBe(true);
    const sms = twilio.sent.filter((s) => s.to === "+6281311112222");
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toMatch(/^Kode OTP Toko Pegawai PLN Anda: \d{4}\./);
  });

  it("a number Twilio refuses: 'Nomor Telephone tak terdaftar', no code kept, the number may be corrected at once", async () => {
    const buyer = await createBuyer({ phoneNo: "081322223333" });
    twilio.invalidNumbers.add("+6281322223333");
    expect(await requestOtp(buyer.id, buyer.phoneNo)).toEqual({ ok: false, code: "NOT_EXIST", message: PHONE_NOT_REGISTERED });
    const db = await getDb();
    expect(await db.select().from(otpCodes).where(eq(otpCodes.userId, buyer.id))).toEqual([]);
    expect((await requestOtp(buyer.id, "081344445555")).ok).toBe(true);
  });

  it("an outage: the buyer is told the code is on its way, and the queue delivers it when Twilio is back", async () => {
    const buyer = await createBuyer({ phoneNo: "081355556666" });
    twilio.failNext(2);
    const sent = await requestOtp(buyer.id, buyer.phoneNo);
    expect(sent.ok).toBe(true);
    expect(twilio.sent.filter((s) => s.to === "+6281355556666")).toHaveLength(0);
    await settleMessages(30_000);
    expect(twilio.sent.filter((s) => s.to === "+6281355556666")).toHaveLength(1);
  });
});
