import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { operatorAudit, rosterEntries, rosterLinkRequests, users } from "../../db/schema";
import { createProduct, createCompany, createVerifiedUser } from "../../testing/fixtures";
import { waitForOutbox } from "../../testing/messages";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { startCheckout } from "../checkout";
import { registerUser, type RegisterInput } from "./accounts";
import { employeeStanding } from "./roster";
import { applyRosterImport, previewRosterImport } from "./roster-import";
import { requestRosterMatch, rosterMatchFor, unlinkRosterAccount } from "./roster-links";
import {
  ACCOUNT_HOLDS_ENTRY,
  confirmLinkByCode,
  decideLinkRequest,
  ENTRY_HELD,
  ENTRY_HELD_FOR_OPERATOR,
  LINK_CODE_INVALID,
  LINK_REQUEST_GONE,
  LINK_REQUEST_PENDING,
  linkRequestByCode,
  listLinkRequests,
  openLinkRequestOf,
} from "./roster-requests";

// Roster squatting (issue 45 item 11): a link to a roster entry needs something a stranger does not
// have. Knowing an employee's NIP and name is not enough, neither at the next sign-in
// (/konfirmasi-pegawai) nor at registration: the account asks, and the link is confirmed from the
// work e-mail on the roster or by a 'pegawai' operator from the queue, who can also release a wrong
// link. Every test makes its own company.

vi.setConfig({ testTimeout: 120_000 });

let db: Db;
let operatorId: number;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  operatorId = (await createVerifiedUser(db)).id;
});

const newCompany = () => createCompany(db, "Tautan");

/** Lines "nip,nama" or "nip,nama,email_kantor" (then the file has that column). */
async function importRoster(company: { name: string }, lines: string[]) {
  const withEmail = lines.some((l) => l.split(",").length > 2);
  const result = await applyRosterImport(
    [
      `nip,nama,perusahaan,status${withEmail ? ",email_kantor" : ""}`,
      ...lines.map((l) => {
        const [nip, name, email = ""] = l.split(",");
        return `${nip},${name},${company.name},aktif${withEmail ? `,${email}` : ""}`;
      }),
    ].join("\n"),
    { deactivateMissing: false },
    operatorId,
  );
  if (!result.ok) throw new Error(result.message);
}

const registration = (companyId: number, nip: string, fullname: string): RegisterInput => ({
  fullname,
  phoneNo: "081234567890",
  nip,
  companyId,
  email: `tautan-${randomUUID().slice(0, 12)}@example.test`,
  password: "rahasia123",
});

async function registered(input: RegisterInput, verified = true): Promise<number> {
  const result = await registerUser(input);
  if (!result.ok || !result.value.userId) throw new Error("registration failed");
  if (verified) await db.update(users).set({ verifiedAt: new Date() }).where(eq(users.id, result.value.userId));
  return result.value.userId;
}

const holderOf = async (companyId: number, nip: string) =>
  (
    await db
      .select({ userId: rosterEntries.userId })
      .from(rosterEntries)
      .where(and(eq(rosterEntries.companyId, companyId), eq(rosterEntries.nip, nip)))
  )[0]?.userId;

const requestOf = async (userId: number) => (await listLinkRequests(1)).rows.find((r) => r.accountEmail === emails.get(userId))!;
const emails = new Map<number, string>();
async function remember(userId: number) {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  emails.set(userId, row!.email);
  return userId;
}

describe("roster squatting (issue 45 item 11)", () => {
  it("(a) a stranger who registered earlier with the employee's NIP and name does not get the entry at sign-in; the employee still registers and is linked by the operator", async () => {
    const company = await newCompany();
    const stranger = await remember(await registered(registration(company.id, "8801", "Rina Wulandari")));
    await importRoster(company, ["8801,Rina Wulandari"]);

    // The stranger is offered /konfirmasi-pegawai and says yes: a request for the operator, no link.
    expect(await rosterMatchFor(stranger)).toMatchObject({ nip: "8801" });
    expect(await requestRosterMatch(stranger)).toBe("petugas");
    expect(await holderOf(company.id, "8801")).toBeNull();
    expect(await employeeStanding(stranger)).toBe("inactive");
    expect(await openLinkRequestOf(stranger)).toEqual({ route: "petugas", nip: "8801", companyName: company.name });
    // Asked once: not offered again, and no new checkout meanwhile (told why).
    expect(await rosterMatchFor(stranger)).toBeNull();
    expect(await requestRosterMatch(stranger)).toBeNull();
    const product = await createProduct(db);
    expect(await startCheckout({ id: stranger, verified: true }, product)).toEqual({ ok: false, message: LINK_REQUEST_PENDING });

    // The real employee registers afterwards: not refused with 'NIP ini sudah terhubung…'.
    const employee = await registerUser(registration(company.id, "8801", "Rina Wulandari"));
    expect(employee).toMatchObject({ ok: true, value: { userId: expect.any(Number), rosterLink: "petugas" } });
    const employeeId = await remember((employee.ok && employee.value.userId) || 0);

    // The operator's queue: both, oldest first; the operator approves the employee, refuses the stranger.
    const queued = (await listLinkRequests(1)).rows.filter((r) => r.nip === "8801" && r.companyName === company.name);
    expect(queued.map((r) => [r.accountEmail, r.route, r.nameMatches, r.heldBy])).toEqual([
      [emails.get(stranger), "petugas", true, null],
      [emails.get(employeeId), "petugas", true, null],
    ]);
    expect(await decideLinkRequest(operatorId, (await requestOf(employeeId)).id, "approve")).toEqual({ ok: true });
    expect(await holderOf(company.id, "8801")).toBe(employeeId);
    expect(await employeeStanding(employeeId)).toBe("active");
    const strangerRequest = await requestOf(stranger);
    expect(strangerRequest.heldBy).toBe(emails.get(employeeId));
    expect(await decideLinkRequest(operatorId, strangerRequest.id, "approve")).toEqual({ ok: false, message: ENTRY_HELD_FOR_OPERATOR });
    expect(await decideLinkRequest(operatorId, strangerRequest.id, "refuse")).toEqual({ ok: true });
    expect(await decideLinkRequest(operatorId, strangerRequest.id, "refuse")).toEqual({ ok: false, message: LINK_REQUEST_GONE });
    expect(await openLinkRequestOf(stranger)).toBeNull();
    expect(await rosterMatchFor(stranger)).toBeNull();
    const audit = await db.select({ action: operatorAudit.action, detail: operatorAudit.detail }).from(operatorAudit);
    expect(audit.filter((a) => a.detail?.includes(`NIP 8801: akun ${stranger}`)).map((a) => a.action)).toEqual(["roster-link-refused"]);
    expect(audit.filter((a) => a.detail?.includes(`NIP 8801: akun ${employeeId}`)).map((a) => a.action)).toEqual(["roster-link"]);
  });

  it("(b) registering after the import links nothing by itself, whatever the name", async () => {
    const company = await newCompany();
    await importRoster(company, ["8802,Budi Santoso", "8803,Sari Dewi"]);
    const otherName = await remember(await registered(registration(company.id, "8802", "Orang Lain")));
    const sameName = await remember(await registered(registration(company.id, "8803", "Sari Dewi")));
    expect(await holderOf(company.id, "8802")).toBeNull();
    expect(await employeeStanding(otherName)).toBe("inactive");
    expect(await employeeStanding(sameName)).toBe("inactive");
    const entries = await db.select({ userId: rosterEntries.userId }).from(rosterEntries).where(eq(rosterEntries.companyId, company.id));
    expect(entries.map((e) => e.userId)).toEqual([null, null]);
    // Both wait for the operator, the other name marked.
    expect((await requestOf(otherName)).nameMatches).toBe(false);
    expect((await requestOf(sameName)).nameMatches).toBe(true);
  });

  it("with a work e-mail on the roster: the link goes there and opening it links, once; another name still goes to the operator", async () => {
    const company = await newCompany();
    const work = `kantor-${randomUUID().slice(0, 8)}@pln.example.test`;
    await importRoster(company, [`8804,Dewi Anggraini,${work}`]);
    const other = await registerUser(registration(company.id, "8804", "Orang Lain"));
    expect(other).toMatchObject({ ok: true, value: { rosterLink: "petugas" } });
    const input = registration(company.id, "8804", "dewi  anggraini");
    const employee = await registered(input);
    expect(await openLinkRequestOf(employee)).toMatchObject({ route: "email" });
    // An e-mail that has an account already gets the same answer (no account discovery).
    expect(await registerUser({ ...input, password: "lainlagi123" })).toEqual({ ok: true, value: { userId: null, rosterLink: "email" } });

    const [mail] = (await waitForOutbox((all) => all.some((m) => m.to === work))).filter((m) => m.to === work);
    expect(mail!.subject).toBe("Konfirmasi Data Pegawai di Toko Pegawai PLN");
    expect(mail!.text).toContain(input.email);
    const code = decodeURIComponent(/kode=([^\s"&]+)/.exec(mail!.text)![1]!);
    expect(await linkRequestByCode(code)).toEqual({ accountEmail: input.email, nip: "8804", companyName: company.name });
    expect(await holderOf(company.id, "8804")).toBeNull();
    expect(await confirmLinkByCode(code)).toEqual({ ok: true });
    expect(await holderOf(company.id, "8804")).toBe(employee);
    expect(await confirmLinkByCode(code)).toEqual({ ok: false, message: LINK_CODE_INVALID });
    expect(await linkRequestByCode(code)).toBeNull();
    expect(await confirmLinkByCode("x".repeat(300))).toEqual({ ok: false, message: LINK_CODE_INVALID });
  });

  it("the import's optional 'email_kantor': checked per row, set when the column is there, kept when it is not", async () => {
    const company = await newCompany();
    const preview = await previewRosterImport(`nip,nama,perusahaan,status,email_kantor\n8807,Wati,${company.name},aktif,bukan-email\n`, {
      deactivateMissing: false,
    });
    expect(preview).toMatchObject({ ok: true, problemCount: 1, problems: ["Baris 2: Email kantor tidak valid."] });
    await importRoster(company, ["8807,Wati,Wati@Kantor.example.test"]);
    const workEmail = async () =>
      (await db.select({ w: rosterEntries.workEmail }).from(rosterEntries).where(eq(rosterEntries.companyId, company.id)))[0]!.w;
    expect(await workEmail()).toBe("wati@kantor.example.test");
    await importRoster(company, ["8807,Wati Lestari"]);
    expect(await workEmail()).toBe("wati@kantor.example.test");
    await importRoster(company, ["8807,Wati Lestari,"]);
    expect(await workEmail()).toBeNull();
  });

  it("a wrong link is released by the operator (audited); the employee who asked meanwhile is then linked; a link that lost the race tells why", async () => {
    const company = await newCompany();
    const work = `kantor-${randomUUID().slice(0, 8)}@pln.example.test`;
    await importRoster(company, [`8805,Agus Salim,${work}`]);
    const stranger = await remember(await registered(registration(company.id, "8805", "Agus Salim")));
    const employee = await remember(await registered(registration(company.id, "8805", "Agus Salim")));
    await waitForOutbox((all) => all.filter((m) => m.to === work).length >= 2);
    const [strangerMail, employeeMail] = await Promise.all(
      [stranger, employee].map(
        async (id) =>
          (await db.select({ hash: rosterLinkRequests.tokenHash }).from(rosterLinkRequests).where(eq(rosterLinkRequests.userId, id)))[0]!
            .hash,
      ),
    );
    expect(strangerMail).not.toBeNull();
    expect(employeeMail).not.toBeNull();

    // The operator approves the stranger by mistake (e.g. the employee lost the e-mail)…
    expect(await decideLinkRequest(operatorId, (await requestOf(stranger)).id, "approve")).toEqual({ ok: true });
    expect(await employeeStanding(stranger)).toBe("active");
    // …the employee's own link now finds the entry taken and changes nothing.
    const mails = (await waitForOutbox(() => true)).filter((m) => m.to === work && m.text.includes(emails.get(employee)!));
    const code = decodeURIComponent(/kode=([^\s"&]+)/.exec(mails[0]!.text)![1]!);
    expect(await confirmLinkByCode(code)).toEqual({ ok: false, message: ENTRY_HELD });
    expect(await openLinkRequestOf(employee)).toMatchObject({ route: "email" });
    expect((await requestOf(employee)).heldBy).toBe(emails.get(stranger));

    // Released ('Putuskan', audited), then the employee's request is approved.
    const [entry] = await db.select({ id: rosterEntries.id }).from(rosterEntries).where(eq(rosterEntries.companyId, company.id));
    expect(await unlinkRosterAccount(operatorId, entry!.id)).toEqual({ ok: true });
    expect(await employeeStanding(stranger)).toBe("inactive");
    const states = await db
      .select({ userId: rosterLinkRequests.userId, state: rosterLinkRequests.state })
      .from(rosterLinkRequests)
      .where(eq(rosterLinkRequests.entryId, entry!.id));
    expect(states.find((r) => r.userId === stranger)?.state).toBe("dilepas");
    expect(await rosterMatchFor(stranger)).toBeNull();
    expect(await decideLinkRequest(operatorId, (await requestOf(employee)).id, "approve")).toEqual({ ok: true });
    expect(await holderOf(company.id, "8805")).toBe(employee);
    const audit = await db.select({ action: operatorAudit.action, detail: operatorAudit.detail }).from(operatorAudit);
    expect(audit.filter((a) => a.detail?.includes(`NIP 8805: akun ${stranger}`)).map((a) => a.action)).toEqual([
      "roster-link",
      "roster-unlink",
    ]);

    // An account linked already cannot be approved for a second entry.
    await importRoster(company, ["8806,Agus Salim"]);
    const [second] = await db.select({ id: rosterEntries.id }).from(rosterEntries).where(eq(rosterEntries.nip, "8806"));
    const [extra] = await db
      .insert(rosterLinkRequests)
      .values({ entryId: second!.id, userId: employee, state: "petugas" })
      .returning({ id: rosterLinkRequests.id });
    expect(await decideLinkRequest(operatorId, extra!.id, "approve")).toEqual({ ok: false, message: ACCOUNT_HOLDS_ENTRY });
  });
});
