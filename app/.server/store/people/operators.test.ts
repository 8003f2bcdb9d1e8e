import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { operatorAudit, operatorRecoveryCodes, orderEvents, orders, sessions } from "../../db/schema";
import { createVerifiedUser } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { confirmEnrolment, getFactorState, RECOVERY_CODE_COUNT, unusedRecoveryCodes, verifySecondFactor, WRONG_CODE } from "./operators";
import { grantRolesByEmail, listStaff, revokeRolesByEmail, rolesOf, setOperatorRole, setStaffRoles } from "./staff";
import { createOrderInStatus } from "../../testing/order-fixtures";
import {
  applyOpsDecision,
  getBuyerOpsFacts,
  REASON_REQUIRED,
  REASON_TOO_LONG,
  TRACKING_REQUIRED,
  COURIER_REQUIRED,
  COURIER_NAME_REQUIRED,
} from "../back-office";
import { createSession, getSessionUser, hashToken, markSecondFactorPassed } from "./sessions";

// Operators (issue 17): the role, the TOTP enrolment and sign-in step, recovery codes, the idle
// limit, and the decisions' own fields (reasons, courier and tracking number) with their actor.

let db: Db;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
}, 300_000);

const codeAt = (secret: string, timestamp: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp });

async function newOperator() {
  const user = await createVerifiedUser(db);
  expect(await setOperatorRole(user.email, true)).toBe(true);
  return user;
}

describe("the operator role", () => {
  it("is granted and revoked by e-mail; each change ends the person's sessions (the next one passes the factor again)", async () => {
    const user = await createVerifiedUser(db);
    const sid = await createSession(user.id);
    expect((await getSessionUser(sid))!.roles).toEqual([]);
    expect(await setOperatorRole(user.email.toUpperCase(), true)).toBe(true);
    // The grant ended the buyer session it was signed in with (issue 25 item 6).
    expect(await getSessionUser(sid)).toBeNull();
    const staffSid = await createSession(user.id);
    expect(await getSessionUser(staffSid)).toMatchObject({ roles: ["admin"], secondFactorPassed: false });
    await markSecondFactorPassed(staffSid);
    expect(await getSessionUser(staffSid)).toMatchObject({ roles: ["admin"], secondFactorPassed: true });
    expect(await setOperatorRole(user.email, false)).toBe(true);
    expect(await getSessionUser(staffSid)).toBeNull();
    // Re-granted: the old cookie stays dead; a new session starts without the factor.
    expect(await setOperatorRole(user.email, true)).toBe(true);
    expect(await getSessionUser(staffSid)).toBeNull();
    const again = await createSession(user.id);
    expect(await getSessionUser(again)).toMatchObject({ roles: ["admin"], secondFactorPassed: false });
    // A buyer never counts as having passed an operator's factor, even with the mark on the session.
    const buyer = await createVerifiedUser(db);
    const buyerSid = await createSession(buyer.id);
    await markSecondFactorPassed(buyerSid);
    expect(await getSessionUser(buyerSid)).toMatchObject({ roles: [], secondFactorPassed: false });
    expect(await setOperatorRole("nobody@example.test", true)).toBe(false);
  });

  it("roles are granted and revoked one by one; a change ends the sessions, setting the same roles again does not", async () => {
    const user = await createVerifiedUser(db);
    expect(await grantRolesByEmail(user.email, ["katalog", "keuangan"], "ops")).toBe(true);
    expect(await rolesOf(user.id)).toEqual(["katalog", "keuangan"]);
    const sid = await createSession(user.id);
    expect(await setStaffRoles(user.id, ["keuangan", "katalog"], "ops")).toBe(false);
    expect(await getSessionUser(sid)).toMatchObject({ roles: ["katalog", "keuangan"] });
    expect(await revokeRolesByEmail(user.email, ["katalog"], "ops")).toBe(true);
    expect(await rolesOf(user.id)).toEqual(["keuangan"]);
    expect(await getSessionUser(sid)).toBeNull();
    expect((await listStaff()).find((m) => m.id === user.id)).toMatchObject({ email: user.email, roles: ["keuangan"] });
  });

  it("an operator's session ends after 30 minutes without a request; a buyer's does not", async () => {
    const operator = await newOperator();
    const sid = await createSession(operator.id);
    expect(await getSessionUser(sid)).not.toBeNull();
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 29 * 60_000) })
      .where(eq(sessions.idHash, hashToken(sid)));
    expect(await getSessionUser(sid)).not.toBeNull();
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(sessions.idHash, hashToken(sid)));
    expect(await getSessionUser(sid)).toBeNull();
    const [row] = await db
      .select({ revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.idHash, hashToken(sid)));
    expect(row!.revokedAt).not.toBeNull();

    const buyer = await createVerifiedUser(db);
    const buyerSid = await createSession(buyer.id);
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 3600_000) })
      .where(eq(sessions.idHash, hashToken(buyerSid)));
    expect(await getSessionUser(buyerSid)).not.toBeNull();
  });
});

describe("TOTP enrolment, sign-in and recovery codes", () => {
  it("enrols with the shown secret, refuses wrong and replayed codes, and gives ten one-time recovery codes", async () => {
    const operator = await newOperator();
    const first = await getFactorState(operator.id, operator.email);
    if (first.enrolled) throw new Error("already enrolled");
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.uri).toContain("otpauth://totp/");
    expect(first.uri).toContain(`secret=${first.secret}`);
    // A reload shows the same secret until a code confirms it.
    expect(await getFactorState(operator.id, operator.email)).toEqual(first);

    const now = Date.now();
    expect(await verifySecondFactor(operator.id, operator.email, codeAt(first.secret, now))).toEqual({ ok: false, message: WRONG_CODE });
    expect(await confirmEnrolment(operator.id, operator.email, "000000")).toEqual({ ok: false, message: WRONG_CODE });
    expect(await confirmEnrolment(operator.id, operator.email, codeAt(first.secret, now - 5 * 60_000))).toEqual({
      ok: false,
      message: WRONG_CODE,
    });
    const enrolled = await confirmEnrolment(operator.id, operator.email, codeAt(first.secret, now));
    if (!enrolled.ok) throw new Error(enrolled.message);
    expect(enrolled.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(enrolled.recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    // Only hashes are kept.
    const stored = await db.select().from(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, operator.id));
    expect(stored).toHaveLength(10);
    for (const code of enrolled.recoveryCodes) expect(stored.some((s) => s.codeHash.includes(code) || s.codeHash === code)).toBe(false);
    expect(await getFactorState(operator.id, operator.email)).toEqual({ enrolled: true });

    // The same code again (the same 30 s step) is a replay; the next step's code passes once.
    expect(await verifySecondFactor(operator.id, operator.email, codeAt(first.secret, now))).toEqual({ ok: false, message: WRONG_CODE });
    expect(await verifySecondFactor(operator.id, operator.email, codeAt(first.secret, now + 30_000))).toEqual({
      ok: true,
      usedRecoveryCode: false,
    });
    expect(await verifySecondFactor(operator.id, operator.email, codeAt(first.secret, now + 30_000))).toMatchObject({ ok: false });

    // A recovery code works once (typed in capitals, without its dash too).
    const recovery = enrolled.recoveryCodes[3]!;
    expect(await verifySecondFactor(operator.id, operator.email, recovery.replace("-", "").toUpperCase())).toEqual({
      ok: true,
      usedRecoveryCode: true,
    });
    expect(await verifySecondFactor(operator.id, operator.email, recovery)).toEqual({ ok: false, message: WRONG_CODE });
    expect(await unusedRecoveryCodes(operator.id)).toBe(9);
    // Another operator's recovery code is not this one's.
    const other = await newOperator();
    expect(await verifySecondFactor(other.id, other.email, enrolled.recoveryCodes[0]!)).toMatchObject({ ok: false });
    const audit = await db.select().from(operatorAudit).where(eq(operatorAudit.operatorId, operator.id));
    expect(audit.map((a) => a.action)).toContain("2fa-enrolled");
  });
});

describe("decisions: the operator as actor, reasons, courier and tracking number", () => {
  it("every rejection needs a reason of at most 300 characters, which the buyer sees", async () => {
    const operator = await newOperator();
    for (const [status, decision] of [
      [100, "reject-incentive"],
      [301, "reject-installment"],
      [302, "reject-transfer"],
    ] as const) {
      const { orderId } = await createOrderInStatus(db, status);
      for (const [reason, message] of [
        ["", REASON_REQUIRED],
        ["   ", REASON_REQUIRED],
        ["x".repeat(301), REASON_TOO_LONG],
      ] as const) {
        expect(await applyOpsDecision(orderId, decision, { operatorId: operator.id }, { reason })).toMatchObject({
          ok: false,
          kind: "invalid",
          errors: { reason: message },
        });
      }
      const [unchanged] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
      expect(unchanged!.statusId).toBe(status);
      const reason = "y".repeat(300);
      // A proof's rejection also says whether the money arrived (issue 45).
      expect(await applyOpsDecision(orderId, decision, { operatorId: operator.id }, { reason, moneyReceived: false })).toMatchObject({
        ok: true,
      });
      const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.id);
      expect(events.at(-1)).toMatchObject({ fromStatus: status, actor: `operator:${operator.id}`, note: reason });
      expect((await getBuyerOpsFacts(orderId)).rejection).toMatchObject({ reason, kind: decision.replace("reject-", "") });
      const audit = await db.select().from(operatorAudit).where(eq(operatorAudit.orderId, orderId));
      expect(audit).toEqual([expect.objectContaining({ operatorId: operator.id, action: "order-decision" })]);
    }
  });

  it("shipping needs a courier from the list (or 'Lainnya' with its name) and a tracking number, stored on the order", async () => {
    const operator = await newOperator();
    const { orderId } = await createOrderInStatus(db, 300);
    const as = { operatorId: operator.id };
    expect(await applyOpsDecision(orderId, "ship", as, {})).toMatchObject({
      ok: false,
      errors: { courier: COURIER_REQUIRED, trackingNumber: TRACKING_REQUIRED },
    });
    expect(await applyOpsDecision(orderId, "ship", as, { courier: "Kilat Kencana", trackingNumber: "1" })).toMatchObject({
      ok: false,
      errors: { courier: COURIER_REQUIRED },
    });
    expect(await applyOpsDecision(orderId, "ship", as, { courier: "Lainnya", trackingNumber: "1" })).toMatchObject({
      ok: false,
      errors: { courierOther: COURIER_NAME_REQUIRED },
    });
    expect(await applyOpsDecision(orderId, "ship", as, { courier: "JNE", trackingNumber: "  " })).toMatchObject({
      ok: false,
      errors: { trackingNumber: TRACKING_REQUIRED },
    });
    expect((await getBuyerOpsFacts(orderId)).trackingNumber).toBeNull();
    expect(
      await applyOpsDecision(orderId, "ship", as, {
        courier: "Lainnya",
        courierOther: "Kurir Dealer Bandung",
        trackingNumber: " BDG-778 ",
      }),
    ).toEqual({ ok: true, from: 300, to: 400 });
    expect(await getBuyerOpsFacts(orderId)).toMatchObject({ courier: "Kurir Dealer Bandung", trackingNumber: "BDG-778", rejection: null });
    // A second 'Kirim' is refused with the order's status; the tracking number stays.
    expect(await applyOpsDecision(orderId, "ship", as, { courier: "JNE", trackingNumber: "OTHER" })).toMatchObject({
      ok: false,
      kind: "refused",
      current: { statusId: 400 },
    });
    expect((await getBuyerOpsFacts(orderId)).trackingNumber).toBe("BDG-778");
  });
});
